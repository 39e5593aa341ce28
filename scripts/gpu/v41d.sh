#!/bin/bash
# v41d (device machine, .gpu carried): k = 8's default variant at radix 2 against radix 4, 2^19-2^24,
# with v41's plans (halves, the fork on an event), two rounds of one process each; a table last.
set -u
R=$OUT/v41d; mkdir -p $R
K8="(2^63+2^34)^8+1"
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
for i in 1 2; do
  ./.gpu/srgfn bench --prime "$K8" --min-log 19 --max-log 24 --default-variant --radix 2,4 --reps 20 --no-baselines --json $R/r-$i.json > $R/r-$i.txt 2>&1
done
python3 scripts/gpu/rounds_table.py $R 'r-*.json' | tee $R/summary.txt
cd $OUT && tar cf v41d.tar v41d && rm -rf v41d
