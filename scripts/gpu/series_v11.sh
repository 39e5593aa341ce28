#!/bin/bash
# v11: f_mul_lazy's carries by a quotient series (shifts and adds) instead of split rounds
# (k = 8, 16) or the exact division (k = 2, 4).  srgfn check of the variants that use
# f_mul_lazy, then the new binary against the session's base binary in one call.
#   scripts/gpu/series_v11.sh [check] [bench] [fuse]    (bench needs .gpu/srgfn-base)
# fuse: fused against unfused launches with the new f_mul_lazy (the fusion thresholds), and the
# small-primes baseline in the same call.
set -u
B=./.gpu/srgfn
R=/tmp/v11; mkdir -p $R
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
STEPS="${*:-check bench}"
K2="(2^63+2^53)^2+1"; K4="(2^64-2^50)^4+1"; K8="(2^63+2^34)^8+1"; K16="(2^62+2^36)^16+1"
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
for S in $STEPS; do case $S in
check)
  timeout 280 $B check --prime "$K2" --prime "$K4" --prime "$K8" --variant local > $R/check-local.txt 2> $R/check-local.log
  stamp "check local rc=$?: $(grep -c '^ok' $R/check-local.txt) ok, $(grep -c '^FAIL' $R/check-local.txt) failed"; grep '^FAIL' $R/check-local.txt | head
  timeout 200 $B check --prime "$K16" --variant table > $R/check-table.txt 2> $R/check-table.log
  stamp "check table rc=$?: $(grep -c '^ok' $R/check-table.txt) ok, $(grep -c '^FAIL' $R/check-table.txt) failed"; grep '^FAIL' $R/check-table.txt | head ;;
bench)
  # the same sizes, base then new, alternating, so that clocks and temperature treat both alike
  for round in 1 2; do for V in base new; do
    BIN=$B; [ $V = base ] && BIN=$B-base
    SRGFN_CACHE_DIR=/tmp/cache-$V timeout 150 $BIN bench --prime "$K4" --prime "$K8" --prime "$K2" --min-log 16 --max-log 24 --radix 2 --variant local --reps 20 --no-baselines --json $R/b8-$V-$round.json > $R/b8-$V-$round.txt 2> $R/b8-$V-$round.log
    stamp "bench k<=8 $V round $round rc=$?"
  done; done
  for V in base new; do
    BIN=$B; [ $V = base ] && BIN=$B-base
    SRGFN_CACHE_DIR=/tmp/cache-$V timeout 100 $BIN bench --prime "$K16" --min-log 16 --max-log 22 --radix 2 --variant table --reps 10 --no-baselines --json $R/b16-$V.json > $R/b16-$V.txt 2> $R/b16-$V.log
    stamp "bench k=16 $V rc=$?"
  done ;;
fuse)
  timeout 200 $B bench --prime "$K4" --prime "$K8" --min-log 16 --max-log 22 --radix 2 --variant local --fuse on,off --reps 20 --no-baselines --json $R/bf.json > $R/bf.txt 2> $R/bf.log; stamp "fused/unfused rc=$?"
  timeout 150 $B bench --prime "$K4" --prime "$K8" --min-log 16 --max-log 24 --small-primes-only --reps 20 --json $R/bs.json > $R/bs.txt 2> $R/bs.log; stamp "small primes rc=$?"
  python3 - <<'PY'
import json
for f in ('/tmp/v11/bf.json', '/tmp/v11/bs.json'):
    try: recs = json.load(open(f))['records']
    except Exception as e: print(f, e); continue
    for r in recs: print(r['prime'][-6:], r['log_n'], r['variant'], round(r['median_ms'], 4))
PY
  ;;
esac; done
tar cf $OUT/v11.tar -C $R .
python3 - <<'PY'
import json, glob, collections
t = collections.defaultdict(dict)
for f in sorted(glob.glob('/tmp/v11/b8-*.json') + glob.glob('/tmp/v11/b16-*.json')):
    side = 'base' if '-base' in f else 'new'
    try: recs = json.load(open(f))['records']
    except Exception as e: print(f, e); continue
    for r in recs:
        if 'smallprimes' in r['variant']: continue
        key = (r['prime'][-6:], r['log_n'])
        t[key].setdefault(side, []).append(r['median_ms'])
print('prime  logN  base_ms  new_ms  new/base')
for key in sorted(t):
    b, n = t[key].get('base'), t[key].get('new')
    if b and n: print(key[0], key[1], round(min(b), 4), round(min(n), 4), round(min(n) / min(b), 3))
PY
stamp done
