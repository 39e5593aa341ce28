#!/bin/bash
# v45 (device machine, .gpu carried): the host's launch cost and the chain in quarters.
#   check8:  srgfn check of k = 8's every variant with .gpu/srgfn (chain cases in halves and quarters)
#   check24: srgfn check of k = 2's and 4's table variant with .gpu/srgfn
#   checkq:  the prototype's: k = 8's, 4's and 2's table variant with .gpu/srgfn-q and SRGFN_QUARTERS=1
#   bench:   k = 8 defaults MINLOG … MAXLOG (16 … 21) for each of SIDES, each its own process,
#            alternated ROUNDS (3) times; a side is NAME:BIN:ENV:OPTS (ENV and OPTS comma-separated)
#   onoff:   .gpu/srgfn with --chain on,off,quarters,halves in one process, 2^19 … 2^22
#   final:   .gpu/srgfn's k = 8 defaults 2^16 … 2^24 with both baselines (f8.json)
# STEPS (default "check8 checkq bench") picks steps.  Details under $OUT/v45.tar; a short table last.
set -u
STEPS=" ${STEPS:-check8 checkq bench} "; has() { [[ $STEPS == *" $1 "* ]]; }
R=$OUT/v45; mkdir -p $R
K8="(2^63+2^34)^8+1"
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
if has check8; then
  mkdir -p /tmp/cache-check8; chmod 700 /tmp/cache-check8
  SRGFN_WISDOM=off SRGFN_CACHE_DIR=/tmp/cache-check8 timeout 500 ./.gpu/srgfn check --prime "$K8" > $R/check8.txt 2> $R/check8.log
  echo "check8 rc=$?: $(grep -c '^ok' $R/check8.txt) ok, $(grep -c '^FAIL' $R/check8.txt) failed, $(grep -c ' chain ' $R/check8.txt) chain cases, $(grep -c 'chain quarters' $R/check8.txt) in quarters; $(tail -n 1 $R/check8.log)"
  stamp check8
fi
if has check24; then
  mkdir -p /tmp/cache-check24; chmod 700 /tmp/cache-check24
  SRGFN_WISDOM=off SRGFN_CACHE_DIR=/tmp/cache-check24 timeout 300 ./.gpu/srgfn check --prime "(2^63+2^53)^2+1" --prime "(2^64-2^50)^4+1" --variant table > $R/check24.txt 2> $R/check24.log
  echo "check24 rc=$?: $(grep -c '^ok' $R/check24.txt) ok, $(grep -c '^FAIL' $R/check24.txt) failed, $(grep -c ' chain ' $R/check24.txt) chain cases, $(grep -c 'chain quarters' $R/check24.txt) in quarters; $(tail -n 1 $R/check24.log)"
  stamp check24
fi
if has checkq; then
  mkdir -p /tmp/cache-checkq; chmod 700 /tmp/cache-checkq
  SRGFN_QUARTERS=1 SRGFN_WISDOM=off SRGFN_CACHE_DIR=/tmp/cache-checkq timeout 400 ./.gpu/srgfn-q check --prime "$K8" --prime "(2^63+2^53)^2+1" --prime "(2^64-2^50)^4+1" --variant table > $R/checkq.txt 2> $R/checkq.log
  echo "checkq rc=$?: $(grep -c '^ok' $R/checkq.txt) ok, $(grep -c '^FAIL' $R/checkq.txt) failed, $(grep -c ' chain ' $R/checkq.txt) chain cases; $(tail -n 1 $R/checkq.log)"
  stamp checkq
fi
if has bench; then
  SIDES=${SIDES:-"v44:srgfn-v44:: new:srgfn::"}
  for i in $(seq 1 ${ROUNDS:-3}); do
    for S in $SIDES; do
      IFS=: read -r name bin envs opts <<< "$S"
      env ${envs//,/ } ./.gpu/$bin bench --prime "$K8" --min-log ${MINLOG:-16} --max-log ${MAXLOG:-21} --default-variant ${opts//,/ } --reps 20 --no-baselines --json $R/k8-$name-$i.json > $R/k8-$name-$i.txt 2>&1
    done
    stamp "round $i"
  done
  python3 scripts/gpu/rounds_table.py $R 'k8-*.json' side | tee $R/summary.txt
  python3 - $R <<'PY' | tee $R/enqueue.txt
import json, glob, os, sys, collections, statistics
rows = collections.defaultdict(list)
for f in sorted(glob.glob(os.path.join(sys.argv[1], 'k8-*.json'))):
    side = os.path.basename(f).split('-')[1]
    for r in json.load(open(f))['records']:
        rows[(r['log_n'], side)].append(r['enqueue_ms'])
for (n, side), v in sorted(rows.items()):
    print(f'enqueue 2^{n} {side:8} median {statistics.median(v)*1e3:.1f} us')
PY
fi
has onoff && ./.gpu/srgfn bench --prime "$K8" --min-log 19 --max-log 22 --default-variant --chain on,off,quarters,halves --reps 20 --no-baselines --json $R/onoff.json > $R/onoff.txt 2>&1 && stamp onoff
has final && ./.gpu/srgfn bench --prime "$K8" --min-log 16 --max-log 24 --default-variant --reps 20 --json $R/f8.json > $R/f8.txt 2>&1 && stamp final
has onoff && python3 scripts/gpu/rounds_table.py $R 'onoff.json' | tee $R/onoff-summary.txt
has final && grep -h "srgfn-\|smallprimes-s16 " $R/f8.txt | tail -n 20
cd $OUT && tar cf v45.tar v45 && rm -rf v45
