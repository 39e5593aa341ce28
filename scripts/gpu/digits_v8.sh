#!/bin/bash
# v8b: the digits variant against the defaults (device machine, .gpu carried).
# Steps (default all): check - srgfn check of the digits variant, every catalog prime
#                      bench - digits against local/table/workgroup, radix 2 (and 4 at k <= 16)
# Results: $OUT/v8b.tar; a short table last.
set -u
B=./.gpu/srgfn
R=/tmp/v8b; mkdir -p $R
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
STEPS="${*:-check bench}"
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
for S in $STEPS; do case $S in
check)
  timeout 180 $B check --variant digits > $R/check.txt 2> $R/check.log
  stamp "check rc=$?: $(grep -c '^ok' $R/check.txt) ok, $(grep -c '^FAIL' $R/check.txt) failed"; grep '^FAIL' $R/check.txt | head; tail -1 $R/check.txt ;;
bench)
  timeout 90 $B bench --prime "(2^64-2^50)^4+1" --prime "(2^63+2^34)^8+1" --min-log 16 --max-log 24 --radix 2 --variant local,digits --reps 10 --no-baselines --json $R/b48.json > $R/b48.txt 2> $R/b48.log; stamp "k4/8 rc=$?"
  timeout 80 $B bench --prime "(2^62+2^36)^16+1" --min-log 16 --max-log 22 --radix 2,4 --variant table,digits --reps 10 --no-baselines --json $R/b16.json > $R/b16.txt 2> $R/b16.log; stamp "k16 rc=$?"
  timeout 80 $B bench --prime "(2^62+2^56)^32+1" --min-log 16 --max-log 20 --radix 2 --variant table,digits --reps 5 --no-baselines --json $R/b32.json > $R/b32.txt 2> $R/b32.log; stamp "k32 rc=$?"
  timeout 120 $B bench --prime "(2^63-2^40)^64+1" --prime "(2^64-2^28)^128+1" --min-log 14 --max-log 18 --radix 2 --variant digits,workgroup --reps 3 --no-baselines --json $R/b64.json > $R/b64.txt 2> $R/b64.log; stamp "k64/128 rc=$?" ;;
esac; done
tar cf $OUT/v8b.tar -C $R .
python3 - <<'PY'
import json,glob
for f in sorted(glob.glob('/tmp/v8b/b*.json')):
    try: recs=json.load(open(f))['records']
    except Exception as e: print(f,e); continue
    for r in recs:
        if r['log_n'] in (16,18,20,22,24) and r['variant'].startswith('srgfn'):
            print(r['prime'],r['log_n'],r['variant'].replace('srgfn-','').replace('-wide64-ptx',''),round(r['median_ms'],3),[round(x,3) for x in r['kernel_ms']])
PY
stamp done
