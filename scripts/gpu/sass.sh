#!/bin/bash
# The SASS of the kernels one transform builds (NVIDIA's PTX from the program cache, ptxas,
# cuobjdump), for reading the hot loops and counting instruction classes.
#   scripts/gpu/sass.sh TAG "PRIME:LOGN:VARIANT:RADIX" ...     (binary: BIN, default .gpu/srgfn)
# Writes $OUT/TAG.tar: per pass-kernel file the PTX and the full SASS (gzip) and ptxas -v; prints
# registers and the instruction classes of each kernel.
set -u
TAG=$1; shift
BIN=${BIN:-./.gpu/srgfn}; R=/tmp/$TAG; mkdir -p $R
PTXAS=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas); CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
for spec in "$@"; do
  IFS=: read P L V X <<< "$spec"
  C=/tmp/sass-cache-$V-$X-$L; rm -rf $C; mkdir -p $C; chmod 700 $C
  SRGFN_CACHE_DIR=$C timeout 200 $BIN bench --prime "$P" --min-log $L --max-log $L --variant $V --radix $X --reps 1 --no-baselines > /dev/null 2> $R/bench-$V-$X-$L.log
  for f in $C/*.bin; do
    b=$R/$V-r$X-$L-$(basename $f .bin | cut -c1-8)
    python3 scripts/gpu/cache_ptx.py $f $b.ptx
    $PTXAS -v --gpu-name sm_90 -o $b.cubin $b.ptx > $b.ptxas.txt 2>&1
    $CUOBJ -sass $b.cubin > $b.sass 2>/dev/null
    grep -h "Used" $b.ptxas.txt | sed "s|^|$(basename $b) |"
    awk '/Function :/ { if (k) { printf "%s %d:", k, n; for (c in cls) printf " %s=%d", c, cls[c]; print "" } k = $3; n = 0; delete cls }
         /^ +\/\*[0-9a-f]+\*\// && !/NOP/ { n++; op = $2; if (op ~ /^@/) op = $3; sub(/\..*/, "", op); cls[op]++ }
         END { if (k) { printf "%s %d:", k, n; for (c in cls) printf " %s=%d", c, cls[c]; print "" } }' $b.sass
    rm -f $b.cubin; gzip -f $b.ptx
    # only the pass kernels' files come back (all of them exceed what comes back from the device)
    grep -q 'Function : dft' $b.sass && gzip -f $b.sass || rm -f $b.sass $b.ptx.gz
  done
done
tar cf $OUT/$TAG.tar -C $R .
