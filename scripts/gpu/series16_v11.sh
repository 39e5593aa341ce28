#!/bin/bash
# v11c experiment: the quotient series for k = 16 too (.gpu/srgfn-s16, SERIES_MAX_K = 16) against
# the rounds (.gpu/srgfn), both with v11b's PTX carry chain; table variant, alternating; then
# srgfn check of the series build's table variant.
set -u
R=/tmp/v11s; mkdir -p $R
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
K16="(2^62+2^36)^16+1"
for round in 1 2; do for V in rounds s16; do
  BIN=./.gpu/srgfn; [ $V = s16 ] && BIN=./.gpu/srgfn-s16
  SRGFN_CACHE_DIR=/tmp/cache-$V timeout 100 $BIN bench --prime "$K16" --min-log 16 --max-log 22 --radix 2 --variant table --reps 10 --no-baselines --json $R/b16-$V-$round.json > $R/b16-$V-$round.txt 2> $R/b16-$V-$round.log
  stamp "bench $V round $round rc=$?"
done; done
SRGFN_CACHE_DIR=/tmp/cache-s16 timeout 150 ./.gpu/srgfn-s16 check --prime "$K16" --variant table > $R/check-s16-table.txt 2> $R/check-s16-table.log
stamp "check s16 table rc=$?: $(grep -c '^ok' $R/check-s16-table.txt) ok, $(grep -c '^FAIL' $R/check-s16-table.txt) failed"
tar cf $OUT/v11s.tar -C $R .
python3 - <<'PY'
import json, glob, collections
t = collections.defaultdict(lambda: collections.defaultdict(list))
for f in glob.glob('/tmp/v11s/b16-*.json'):
    side = f.split('-')[1]
    for r in json.load(open(f))['records']: t[r['log_n']][side].append(r['median_ms'])
for n in sorted(t): print(n, 'rounds', min(t[n]['rounds']), 's16', min(t[n]['s16']), round(min(t[n]['s16']) / min(t[n]['rounds']), 3))
PY
