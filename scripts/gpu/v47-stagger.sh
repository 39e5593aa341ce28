#!/bin/bash
# v47 experiment (not kept; device machine, .gpu carried): do the twiddled table passes lose to
# their work-groups running their phases in step?  .gpu/srgfn-st is b38f383 built with
# docs/perf/h100-v47/stagger/stagger.patch: with -DSRGFN_EXP_STAGGER=D the first wave's
# work-groups whose slot is not 0 mod MOD start D * (slot mod MOD) cycles late.  CONFIGS: words
# NAME|OPTIONS, options separated by commas; STEPS: k8 (defaults), k8flat (table radix 2, no
# halves or chain), k16.  A summary per step last.
set -u
R=$OUT/stagger; mkdir -p $R
K8="(2^63+2^34)^8+1"; K16="(2^62+2^36)^16+1"
ROUNDS=${ROUNDS:-1}
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
run() { # run FILE OPTS ARGS...
  local f=$1 o=$2; shift 2
  mkdir -p /tmp/c-${f%-*}; chmod 700 /tmp/c-${f%-*}
  SRGFN_WISDOM=off SRGFN_CACHE_DIR=/tmp/c-${f%-*} SRGFN_CL_OPTIONS="$o" timeout 200 ./.gpu/srgfn-st bench "$@" --reps 20 --no-baselines --json $R/$f.json > $R/$f.txt 2>&1
  stamp "$f rc=$?"
}
S="-DSRGFN_EXP_SMS=132 -DSRGFN_EXP_SLOTS=${SLOTS:-6}"
for i in $(seq 1 $ROUNDS); do
  for c in ${CONFIGS:-none| d8k|-DSRGFN_EXP_STAGGER=8000,-DSRGFN_EXP_MOD=2 d16k|-DSRGFN_EXP_STAGGER=16000,-DSRGFN_EXP_MOD=2 t6k|-DSRGFN_EXP_STAGGER=6000,-DSRGFN_EXP_MOD=3}; do
    name=${c%%|*}; o=${c#*|}; o=${o//,/ }; [ -n "$o" ] && o="$o $S"
    has() { [[ " ${STEPS:-k8 k8flat k16} " == *" $1 "* ]]; }
    has k8 && run k8-$name-$i "$o" --prime "$K8" --min-log ${MIN8:-18} --max-log ${MAX8:-24} --default-variant
    has k8flat && run k8flat-$name-$i "$o" --prime "$K8" --min-log 20 --max-log 24 --variant table --radix 2 --halves off --chain off
    has k16 && run k16-$name-$i "$o" --prime "$K16" --min-log 18 --max-log 22 --default-variant
  done
done
for g in k8 k8flat k16; do python3 scripts/gpu/rounds_table.py $R "$g-*.json" side > $R/sum-$g.txt 2>/dev/null; echo "== $g"; sed 's/ (srgfn-[^)]*)//' $R/sum-$g.txt; done
