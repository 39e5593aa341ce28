#!/bin/bash
# Register caps by PTX directive: NVIDIA's OpenCL ignores -cl-nv-maxrregcount, but its program
# binary is PTX, and ptxas honours `.maxnreg N` on an entry.  Each case fills a program cache
# with the binary's own builds (side "none"), then for every cap N copies that cache, writes
# `.maxnreg N` into every entry of every cached PTX (with the entry's checksum renewed) and runs
# the same benchmark on the patched cache.  A cache file still holding `.maxnreg` afterwards
# shows that the patched program was the one that ran.
#   scripts/gpu/maxnreg.sh TAG "PRIME:MINLOG:MAXLOG:VARIANT:RADIX:CAP,CAP,..." ...
# Environment: ENTRY=REGEX caps only the entries whose name matches (default: every entry);
# REPS=N timed runs per size (default 15); B=BINARY another binary than .gpu/srgfn.
set -u
TAG=$1; shift; R=/tmp/$TAG; mkdir -p $R
B=${B:-./.gpu/srgfn}
PTXAS=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
patch() { # patch SRC DST CAP
  rm -rf $2; cp -a $1 $2
  python3 - "$2" "$3" <<'PY'
import sys, glob, re, hashlib, os
d, cap = sys.argv[1], sys.argv[2]
for f in glob.glob(d + '/*.bin'):
    data = open(f, 'rb').read()
    magic, key, _sum, binary = data.split(b'\n', 3)
    text = binary.decode('latin-1')
    only = re.compile(os.environ.get('ENTRY', '.*'))  # a matched entry's earlier cap is replaced, others kept
    text = re.sub(r'(\.entry\s+(\w+)\s*\([^)]*\))(\n\.maxnreg \d+)?',
                  lambda m: m.group(1) + ('\n.maxnreg ' + cap if only.fullmatch(m.group(2)) else (m.group(3) or '')), text)
    b = text.encode('latin-1')
    open(f, 'wb').write(b'\n'.join([magic, key, hashlib.sha256(b).hexdigest().encode(), b]))
PY
}
regs() { # regs CACHE SIDE: registers and spills of every dft entry of the cache
  for f in $1/*.bin; do
    python3 scripts/gpu/cache_ptx.py $f /tmp/x.ptx
    $PTXAS -v --gpu-name sm_90 -o /tmp/x.cubin /tmp/x.ptx 2>&1 | awk -v s=$2 '/Compiling entry function/ { k = $7 } /registers/ { print s, k, $0 }' | grep -E "dft|mb_" >> $R/regs.txt
  done
}
n=0
for C in "$@"; do IFS=: read P A Z V RX CAPS <<< "$C"; CAPS=${CAPS//,/ }; n=$((n+1))
  rm -rf /tmp/c-none; mkdir -p /tmp/c-none; chmod 700 /tmp/c-none
  for side in none $CAPS none2; do
    cache=/tmp/c-$side; [ $side = none2 ] && cache=/tmp/c-none
    if [ $side != none ] && [ $side != none2 ]; then patch /tmp/c-none $cache $side; fi
    SRGFN_CACHE_DIR=$cache timeout 200 $B bench --prime "$P" --min-log $A --max-log $Z --variant $V --radix $RX --reps ${REPS:-15} --no-baselines --json $R/c$n-$side.json > $R/c$n-$side.txt 2> $R/c$n-$side.log
    stamp "case $n ($C) side $side rc=$? patched files: $(grep -l 'maxnreg' $cache/*.bin 2>/dev/null | wc -l) of $(ls $cache/*.bin | wc -l)"
  done
  for side in none $CAPS; do regs /tmp/c-$side "c$n-$side"; done
done
tar cf $OUT/$TAG.tar -C $R .
R=$R python3 - <<'PY'
import json, glob, os, collections
R = os.environ['R']; t = collections.defaultdict(dict)
for f in sorted(glob.glob(R + '/c*.json')):
    case, side = os.path.basename(f)[:-5].split('-', 1)
    try: recs = json.load(open(f))['records']
    except Exception as e: print(f, e); continue
    for r in recs:
        t[(case, r['prime'][-8:], r['log_n'], r['variant'])][side] = r['median_ms']
for key in sorted(t):
    row = t[key]; base = min(v for s, v in row.items() if s.startswith('none'))
    print(*key, '  '.join(f"{s} {v:.4f} ({v/base:.3f})" for s, v in sorted(row.items())))
PY
grep -E "_(local|table|digits)" $R/regs.txt | sed 's/ptxas info *: //' | sort -u | head -80
stamp done
