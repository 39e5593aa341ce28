#!/bin/bash
# v39 probe on the device machine (.gpu carried: srgfn, and imma/imma_twiddle built here with
#   mkdir -p .gpu/imma && gcc -O2 -o .gpu/imma/imma_twiddle scripts/gpu/imma/imma_twiddle.c -lOpenCL):
# the check, the timings, and each kernel's registers, spills and SASS instruction mix
# (ptxas/cuobjdump on the program's PTX).  docs/perf/h200-v39/imma/ holds one run.
set -u
export PATH=/usr/local/cuda/bin:$PATH
# the kernels from the field header this binary emits (so the IMAD side is srgfn's own accumulator)
./.gpu/srgfn emit --prime "(2^63+2^34)^8+1" --ptx --out /tmp/imma-emit > /dev/null
python3 scripts/gpu/imma/gen_cl.py /tmp/imma-emit/field.cl > $OUT/imma_twiddle.cl
./.gpu/imma/imma_twiddle $OUT/imma_twiddle.cl NVIDIA $OUT/imma_twiddle.ptx 2>&1 | tee $OUT/imma.txt
tr -d "\000" < $OUT/imma_twiddle.ptx > /tmp/imma.ptx; ptxas -v --gpu-name sm_90 -o /tmp/imma.cubin /tmp/imma.ptx 2>&1 | grep -E "Compiling|registers|spill" | tee -a $OUT/imma.txt
cuobjdump -sass /tmp/imma.cubin > $OUT/imma.sass 2>&1
python3 - $OUT/imma.sass > $OUT/imma-ops.txt <<'PY'
import re, sys, collections
f = None; c = collections.defaultdict(collections.Counter)
for line in open(sys.argv[1]):
    m = re.search(r'Function : (\S+)', line)
    if m: f = m.group(1); continue
    m = re.search(r'/\*[0-9a-f]{4}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)', line)
    if m and f: c[f][m.group(2).split('.')[0]] += 1
for f in c: print(f, 'TOTAL', sum(c[f].values()), ' '.join(f'{k} {v}' for k, v in c[f].most_common(16)))
PY
cat $OUT/imma-ops.txt | tee -a $OUT/imma.txt
