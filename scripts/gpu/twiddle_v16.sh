#!/bin/bash
# v16, v17: the digits variant's twiddle phase, sides against base in one call (k = 32 at
# 2^18..2^20, k = 64 at 2^18, k = 128 at 2^16, radix 4), twice.
#   SIDES="base X ..." scripts/gpu/twiddle_v16.sh TAG     (side X is .gpu/srgfn-X, new is .gpu/srgfn)
set -u
TAG=$1; R=/tmp/$TAG; mkdir -p $R
K32="(2^62+2^56)^32+1"; K64="(2^63-2^40)^64+1"; K128="(2^64-2^28)^128+1"
SIDES=${SIDES:-base new}
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
for round in 1 2; do for V in $SIDES; do
  BIN=./.gpu/srgfn; [ $V = new ] || BIN=./.gpu/srgfn-$V
  for PL in "$K32:18:20:32" "$K64:18:18:64" "$K128:16:16:128"; do IFS=: read P A Z KK <<< "$PL"
    SRGFN_CACHE_DIR=/tmp/cache-$V timeout 150 $BIN bench --prime "$P" --min-log $A --max-log $Z --radix 4 --variant digits --reps 7 --no-baselines --json $R/bd-$V-k$KK-$round.json > $R/bd-$V-k$KK-$round.txt 2> $R/bd-$V-k$KK-$round.log
    stamp "bench $V k=$KK round $round rc=$?"
  done
done; done
tar cf $OUT/$TAG.tar -C $R .
R=$R SIDES="$SIDES" python3 - <<'PY'
import json, glob, os, collections
R = os.environ['R']; t = collections.defaultdict(dict)
for f in sorted(glob.glob(R + '/bd-*.json')):
    side = os.path.basename(f)[3:-5].rsplit('-', 2)[0]
    try: recs = json.load(open(f))['records']
    except Exception as e: print(f, e); continue
    for r in recs:
        key = (r['prime'][-6:], r['log_n'])
        passes = [round(p, 3) for p in r.get('kernel_ms', [])]
        old = t[key].get(side)
        if old is None or r['median_ms'] < old[0]: t[key][side] = (r['median_ms'], passes)
sides = os.environ['SIDES'].split()
for key in sorted(t):
    row = t[key]; base = row.get(sides[0], (None,))[0]
    print(key, '  '.join(f"{s} {row[s][0]:.3f}" + (f" ({row[s][0]/base:.3f})" if base else '') for s in sides if s in row))
    for s in sides:
        if s in row: print('   ', s, row[s][1])
PY
