#!/bin/bash
# v42 (device machine, .gpu carried): benchmarks timed by their ends (.gpu/srgfn: events on the first
# and last launches only for the median, every event in as many runs for kernel_ms) against every
# event in every run (.gpu/srgfn-every, deb27b1): k = 8 and k = 4 defaults at 2^12-2^24 / 2^20,
# alternated ROUNDS times, and the small-primes baseline once with each; a table last.
set -u
R=$OUT/ends; mkdir -p $R
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
K8="(2^63+2^34)^8+1"; K4="(2^64-2^50)^4+1"
for i in $(seq 1 ${ROUNDS:-2}); do
  for S in every ends; do
    B=./.gpu/srgfn; [ $S = every ] && B=./.gpu/srgfn-every
    $B bench --prime "$K8" --min-log 12 --max-log 24 --default-variant --reps 20 --no-baselines --json $R/k8-$S-$i.json > /dev/null 2>&1
    $B bench --prime "$K4" --min-log 12 --max-log 20 --default-variant --reps 20 --no-baselines --json $R/k4-$S-$i.json > /dev/null 2>&1
  done
done
for S in every ends; do
  B=./.gpu/srgfn; [ $S = every ] && B=./.gpu/srgfn-every
  $B bench --prime "$K8" --min-log 14 --max-log 24 --small-primes-only --reps 20 --json $R/sp-$S-1.json > /dev/null 2>&1
done
python3 scripts/gpu/rounds_table.py $R 'k*.json' side > $R/summary.txt
python3 - $R <<'PY'
import json, glob, sys, collections, statistics
R = sys.argv[1]
rows = collections.defaultdict(list)
for f in glob.glob(R + '/sp-*.json'):
    side = f.rsplit('/', 1)[1].split('-')[1]
    for r in json.load(open(f))['records']:
        if r['variant'].endswith('s16'):
            rows[(r['log_n'], side)].append((r['median_ms'], r.get('profiled_median_ms', 0)))
with open(R + '/summary.txt', 'a') as out:
    for (n, side), v in sorted(rows.items()):
        out.write(f'small primes 2^{n} {side}: median {v[0][0]:.4f} (profiled {v[0][1]:.4f})\n')
PY
cat $R/summary.txt
