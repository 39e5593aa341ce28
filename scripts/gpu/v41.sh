#!/bin/bash
# v41 (device machine, .gpu carried).  .gpu/srgfn is the new binary, .gpu/srgfn-v40 the one before.
#   1. srgfn check of every variant (scripts/gpu/v20.sh checks), unless NOCHECK=1
#   2. k = 64 and k = 128 (digits) with --halves on,off: the v40 default against v41's
#   3. k = 8 and k = 16 defaults, v40's binary against the new one, alternated ROUNDS times
#      (each its own process): the fork on the armed launch's event against v40's marker
# Details under $OUT/v41; a short table last.
set -u
R=$OUT/v41; mkdir -p $R
K8="(2^63+2^34)^8+1"; K16="(2^62+2^36)^16+1"; K64="(2^63-2^40)^64+1"; K128="(2^64-2^28)^128+1"
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
if [ "${NOCHECK:-0}" != 1 ]; then
  SRGFN_WISDOM=off bash scripts/gpu/v20.sh checks > $R/checks.txt 2>&1
  cp -r /tmp/v20-checks $R/checks; tail -n 12 $R/checks.txt
fi
stamp "digits halves on,off"
./.gpu/srgfn bench --prime "$K64" --min-log 14 --max-log 18 --default-variant --halves on,off --reps 10 --no-baselines --json $R/k64.json > $R/k64.txt 2>&1
./.gpu/srgfn bench --prime "$K128" --min-log 14 --max-log 16 --default-variant --halves on,off --reps 10 --no-baselines --json $R/k128.json > $R/k128.txt 2>&1
stamp "alternated"
for i in $(seq 1 ${ROUNDS:-3}); do
  for S in v40 new; do
    B=./.gpu/srgfn; [ $S = v40 ] && B=./.gpu/srgfn-v40
    $B bench --prime "$K8" --min-log 19 --max-log 22 --default-variant --radix 4 --reps 20 --no-baselines --json $R/k8-$S-$i.json > $R/k8-$S-$i.txt 2>&1
    $B bench --prime "$K16" --min-log 19 --max-log 21 --default-variant --radix 2 --reps 20 --no-baselines --json $R/k16-$S-$i.json > $R/k16-$S-$i.txt 2>&1
  done
done
stamp done
cd $OUT && tar cf v41.tar v41 && rm -rf v41
python3 - <<'PY'
import json, tarfile, collections, statistics, io
tf = tarfile.open('v41.tar')
t = collections.defaultdict(list)
for m in tf.getmembers():
    if not m.name.endswith('.json') or '/checks' in m.name: continue
    name = m.name.rsplit('/', 1)[1][:-5]
    for r in json.load(tf.extractfile(m))['records']:
        side = name.split('-')[1] if '-' in name else r['variant']
        t[(r['k'], r['log_n'], side)].append(r['median_ms'])
for key in sorted(t):
    v = t[key]
    print(key, 'median %.4f' % statistics.median(v), ' '.join('%.4f' % x for x in v))
PY
