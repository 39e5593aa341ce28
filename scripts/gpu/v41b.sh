#!/bin/bash
# v41 (device machine, .gpu carried): the final binary (.gpu/srgfn) against v40's (.gpu/srgfn-v40).
#   1. srgfn check of every variant (scripts/gpu/v20.sh checks)
#   2. k = 8 defaults 2^16 … 2^24, each binary its own process, alternated ROUNDS times
#      (the fork on the armed launch's event, first2's included, against v40's marker)
#   3. k = 8 defaults with both baselines (new) and without (v40), as v40's final table
#   4. the digits defaults (k = 32, 64, 128; whole by default since v41) of both binaries
# Details under $OUT/v41b.tar; a short table last.
set -u
R=$OUT/v41b; mkdir -p $R
K8="(2^63+2^34)^8+1"; K32="(2^62+2^56)^32+1"; K64="(2^63-2^40)^64+1"; K128="(2^64-2^28)^128+1"
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
SRGFN_WISDOM=off bash scripts/gpu/v20.sh checks > $R/checks.txt 2>&1
cp -r /tmp/v20-checks $R/checks; tail -n 12 $R/checks.txt
stamp "alternated"
for i in $(seq 1 ${ROUNDS:-3}); do
  for S in v40 new; do
    B=./.gpu/srgfn; [ $S = v40 ] && B=./.gpu/srgfn-v40
    $B bench --prime "$K8" --min-log 16 --max-log 24 --default-variant --radix 4 --reps 20 --no-baselines --json $R/k8-$S-$i.json > $R/k8-$S-$i.txt 2>&1
  done
done
stamp "final"
./.gpu/srgfn bench --prime "$K8" --min-log 16 --max-log 24 --default-variant --radix 4 --reps 20 --json $R/f8.json > $R/f8.txt 2>&1
stamp "digits"
for S in v40 new; do
  B=./.gpu/srgfn; [ $S = v40 ] && B=./.gpu/srgfn-v40
  $B bench --prime "$K32" --min-log 14 --max-log 20 --default-variant --reps 10 --no-baselines --json $R/d32-$S-1.json > $R/d32-$S.txt 2>&1
  $B bench --prime "$K64" --min-log 14 --max-log 18 --default-variant --reps 10 --no-baselines --json $R/d64-$S-1.json > $R/d64-$S.txt 2>&1
  $B bench --prime "$K128" --min-log 14 --max-log 16 --default-variant --reps 10 --no-baselines --json $R/d128-$S-1.json > $R/d128-$S.txt 2>&1
done
stamp done
grep -h "srgfn-\|smallprimes-s16 " $R/f8.txt
cd $OUT && tar cf v41b.tar v41b && rm -rf v41b
python3 - <<'PY'
import json, tarfile, collections, statistics
tf = tarfile.open('v41b.tar')
t = collections.defaultdict(list)
for m in tf.getmembers():
    name = m.name.rsplit('/', 1)[1]
    if not name.endswith('.json') or '-' not in name or '/checks' in m.name: continue
    side = name.split('-')[1]
    for r in json.load(tf.extractfile(m))['records']:
        t[(r['k'], r['log_n'], side)].append(r['median_ms'])
for key in sorted(t):
    v = t[key]
    print(key, 'median %.4f' % statistics.median(v), ' '.join('%.4f' % x for x in v))
PY
