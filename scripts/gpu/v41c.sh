#!/bin/bash
# v41c (device machine, .gpu carried): the digits plans in halves with a third vector for the last
# launch (.gpu/srgfn-spare) against v41's whole digits plans (.gpu/srgfn-v41a).
#   1. srgfn check of every variant with the new binary (scripts/gpu/v20.sh checks)
#   2. the digits defaults of k = 32 (2^17-2^20), 64 (2^16-2^18) and 128 (2^15-2^16), radix 4 and 2,
#      each binary its own process, alternated ROUNDS times
# Details under $OUT/v41c.tar; a short table last.
set -u
R=$OUT/v41c; mkdir -p $R
K32="(2^62+2^56)^32+1"; K64="(2^63-2^40)^64+1"; K128="(2^64-2^28)^128+1"
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
cp .gpu/srgfn-spare .gpu/srgfn
SRGFN_WISDOM=off bash scripts/gpu/v20.sh checks > $R/checks.txt 2>&1
cp -r /tmp/v20-checks $R/checks; tail -n 12 $R/checks.txt
stamp "alternated"
for i in $(seq 1 ${ROUNDS:-2}); do
  for S in v41a spare; do
    B=./.gpu/srgfn-$S
    $B bench --prime "$K32" --min-log 17 --max-log 20 --default-variant --reps 10 --no-baselines --json $R/d32-$S-$i.json > $R/d32-$S-$i.txt 2>&1
    $B bench --prime "$K64" --min-log 16 --max-log 18 --default-variant --reps 10 --no-baselines --json $R/d64-$S-$i.json > $R/d64-$S-$i.txt 2>&1
    $B bench --prime "$K128" --min-log 15 --max-log 16 --default-variant --reps 10 --no-baselines --json $R/d128-$S-$i.json > $R/d128-$S-$i.txt 2>&1
  done
done
stamp done
python3 - $R <<'PY' | tee $R/summary.txt
import json, glob, sys, collections, statistics
t = collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1] + '/d*.json')):
    side = f.rsplit('/', 1)[1].split('-')[1]
    for r in json.load(open(f))['records']:
        t[(r['k'], r['log_n'], r['variant'], side)].append(r['median_ms'])
for key in sorted(set(k[:3] for k in t)):
    a, b = t[key + ('v41a',)], t[key + ('spare',)]
    print(key, 'whole %.4f spare %.4f %+.1f%%' % (min(a), min(b), 100 * (min(b) / min(a) - 1)), a, b)
PY
cd $OUT && tar cf v41c.tar v41c && rm -rf v41c
