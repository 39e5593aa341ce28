#!/bin/bash
# v8 final: srgfn check of every catalog prime and variant, the default variants of k = 32, 64, 128.
set -u
B=./.gpu/srgfn
R=/tmp/v8; mkdir -p $R
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
STEPS="${*:-cold check bench}"
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
for S in $STEPS; do case $S in
cold)
  for P in "(2^62+2^56)^32+1" "(2^63-2^40)^64+1" "(2^64-2^28)^128+1"; do
    rm -rf /tmp/cold; mkdir -p /tmp/cold; chmod 700 /tmp/cold
    a=$(date +%s%N)
    SRGFN_CACHE_DIR=/tmp/cold timeout 100 $B fft --prime "$P" --random 2^12 --output $R/cold_out.txt 2>> $R/cold.log
    b=$(date +%s%N)
    echo "cold build + fft 2^12 $P: $(( (b - a) / 1000000 )) ms" | tee -a $R/cold.txt
  done ;;
check)
  timeout 560 $B check > $R/check.txt 2> $R/check.log
  stamp "check rc=$?: $(grep -c '^ok' $R/check.txt) ok, $(grep -c '^FAIL' $R/check.txt) failed"; grep '^FAIL' $R/check.txt | head; tail -1 $R/check.txt ;;
bench)
  timeout 100 $B bench --prime "(2^63-2^40)^64+1" --prime "(2^64-2^28)^128+1" --min-log 14 --max-log 18 --radix 2 --variant digits --reps 3 --no-baselines --json $R/b64.json > $R/b64.txt 2> $R/b64.log; stamp "k64/128 rc=$?"
  timeout 70 $B bench --prime "(2^62+2^56)^32+1" --min-log 14 --max-log 20 --radix 2 --variant digits,table --reps 5 --no-baselines --json $R/b32.json > $R/b32.txt 2> $R/b32.log; stamp "k32 rc=$?" ;;
esac; done
tar cf $OUT/v8.tar -C $R .
python3 - <<'PY'
import json,glob
for f in sorted(glob.glob('/tmp/v8/b*.json')):
    try: recs=json.load(open(f))['records']
    except Exception as e: print(f,e); continue
    for r in recs:
        if r['variant'].startswith('srgfn'):
            print(r['prime'],r['log_n'],r['variant'].replace('srgfn-','').replace('-wide64-ptx',''),round(r['median_ms'],3),[round(x,3) for x in r['kernel_ms']],'core floor',round(r.get('core_floor_ms') or 0,3))
PY
stamp done
