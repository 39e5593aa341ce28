#!/bin/bash
# v41e (device machine, .gpu carried): k = 8's table variant at 2^16-2^18, radix 2 against radix 4,
# with its passes in pairs (--fuse on) and one per launch (--fuse off), three rounds of one process
# each: does radix 2 hold up where radix 4 pairs its passes by default?  A table last.
set -u
R=$OUT/v41e; mkdir -p $R
K8="(2^63+2^34)^8+1"
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
for i in 1 2 3; do
  ./.gpu/srgfn bench --prime "$K8" --min-log 16 --max-log 18 --variant table --radix 2,4 --fuse on,off --reps 50 --no-baselines --json $R/p-$i.json > $R/p-$i.txt 2>&1
done
python3 scripts/gpu/rounds_table.py $R 'p-*.json' | tee $R/summary.txt
cd $OUT && tar cf v41e.tar v41e && rm -rf v41e
