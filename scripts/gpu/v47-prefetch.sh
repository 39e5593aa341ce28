#!/bin/bash
# v47 experiment (not kept; device machine, .gpu carried): the table kernels' loads of a work-item's
# second element issued before its first element's product.  .gpu/srgfn is a336f9f built with
# docs/perf/h200-v47/prefetch/prefetch.patch (-DSRGFN_EXP_PREFETCH at build time turns it on):
# k = 8's and 16's defaults with and without it, two alternated rounds, a summary last.
set -u
R=$OUT/pf; mkdir -p $R
K8="(2^63+2^34)^8+1"; K16="(2^62+2^36)^16+1"
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
for i in 1 2; do
  for c in "none|" "pf|-DSRGFN_EXP_PREFETCH"; do
    name=${c%%|*}; o=${c#*|}
    for k in 8 16; do
      if [ $k = 8 ]; then P="$K8"; M=24; else P="$K16"; M=22; fi
      mkdir -p /tmp/c-$name; chmod 700 /tmp/c-$name
      SRGFN_WISDOM=off SRGFN_CACHE_DIR=/tmp/c-$name SRGFN_CL_OPTIONS="$o" timeout 200 ./.gpu/srgfn bench --prime "$P" --min-log 16 --max-log $M --default-variant --reps 20 --no-baselines --json $R/k$k-$name-$i.json > /dev/null 2>&1
      stamp "k$k-$name-$i rc=$?"
    done
  done
done
for k in 8 16; do echo "== k$k"; python3 scripts/gpu/rounds_table.py $R "k$k-*.json" side | sed 's/ (srgfn-[^)]*)//'; done
