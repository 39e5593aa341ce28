#!/bin/bash
# v42 (device machine, .gpu carried): with medians timed by their ends, k = 8's table variant at
# 2^16-2^19, both radices, --fuse on,off, three rounds of one process each; a table last.
set -u
R=$OUT/pairs; mkdir -p $R
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
for i in 1 2 3; do
  ./.gpu/srgfn bench --prime "(2^63+2^34)^8+1" --min-log 16 --max-log 19 --variant table --radix 2,4 --fuse on,off --reps 20 --no-baselines --json $R/p-x-$i.json > /dev/null 2>&1
done
python3 scripts/gpu/rounds_table.py $R 'p-*.json' | tee $R/summary.txt
