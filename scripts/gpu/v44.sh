#!/bin/bash
# v44 (device machine, .gpu carried): the table plans' first launch and the chain after it in halves
# (plan::Chain, emit::first2::plan_chain).
#   check8: srgfn check of k = 8's every variant with .gpu/srgfn (its chain cases included)
#   check24: srgfn check of k = 2's and 4's table variant (their chain cases at the large sizes)
#   bench:  k = 8 defaults 2^19 … 2^24 for each of SIDES (default "v43 new": .gpu/srgfn-v43 and
#           .gpu/srgfn), each its own process, alternated ROUNDS (3) times
#   onoff:  .gpu/srgfn with --chain on,off in one process, 2^19 … 2^24
#   final:  .gpu/srgfn's k = 8 defaults 2^16 … 2^24 with both baselines (f8.json)
# STEPS (default "check8 bench onoff final") picks steps.  Details under $OUT/v44.tar; a short table last.
set -u
STEPS=" ${STEPS:-check8 bench onoff final} "; has() { [[ $STEPS == *" $1 "* ]]; }
R=$OUT/v44; mkdir -p $R
K8="(2^63+2^34)^8+1"
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
bin() { case $1 in new) echo ./.gpu/srgfn;; *) echo ./.gpu/srgfn-$1;; esac; }
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
if has check8; then
  mkdir -p /tmp/cache-check8; chmod 700 /tmp/cache-check8
  SRGFN_WISDOM=off SRGFN_CACHE_DIR=/tmp/cache-check8 timeout 500 ./.gpu/srgfn check --prime "$K8" > $R/check8.txt 2> $R/check8.log
  echo "check8 rc=$?: $(grep -c '^ok' $R/check8.txt) ok, $(grep -c '^FAIL' $R/check8.txt) failed, $(grep -c ' chain ' $R/check8.txt) chain cases; $(tail -n 1 $R/check8.log)"
  stamp check8
fi
if has check24; then
  mkdir -p /tmp/cache-check24; chmod 700 /tmp/cache-check24
  SRGFN_WISDOM=off SRGFN_CACHE_DIR=/tmp/cache-check24 timeout 300 ./.gpu/srgfn check --prime "(2^63+2^53)^2+1" --prime "(2^64-2^50)^4+1" --variant table > $R/check24.txt 2> $R/check24.log
  echo "check24 rc=$?: $(grep -c '^ok' $R/check24.txt) ok, $(grep -c '^FAIL' $R/check24.txt) failed, $(grep -c ' chain ' $R/check24.txt) chain cases; $(tail -n 1 $R/check24.log)"
  stamp check24
fi
if has bench; then
  for i in $(seq 1 ${ROUNDS:-3}); do
    for S in ${SIDES:-v43 new}; do
      $(bin $S) bench --prime "$K8" --min-log 19 --max-log 24 --default-variant --reps 20 --no-baselines --json $R/k8-$S-$i.json > $R/k8-$S-$i.txt 2>&1
    done
    stamp "round $i"
  done
fi
has onoff && ./.gpu/srgfn bench --prime "$K8" --min-log 19 --max-log 24 --default-variant --chain on,off --reps 20 --no-baselines --json $R/onoff.json > $R/onoff.txt 2>&1 && stamp onoff
has final && ./.gpu/srgfn bench --prime "$K8" --min-log 16 --max-log 24 --default-variant --reps 20 --json $R/f8.json > $R/f8.txt 2>&1 && stamp final
has bench && python3 scripts/gpu/rounds_table.py $R 'k8-*.json' side | tee $R/summary.txt
has onoff && python3 scripts/gpu/rounds_table.py $R 'onoff.json' | tee $R/onoff-summary.txt
has final && grep -h "srgfn-\|smallprimes-s16 " $R/f8.txt | tail -n 20
cd $OUT && tar cf v44.tar v44 && rm -rf v44
