#!/bin/bash
# v42 (device machine, .gpu carried): the halves' threshold (emit::HALVES_MIN_DIGITS = 2^22 digits a
# launch) with k = 8's radix 2: the defaults against --halves off where the default runs halves
# at its smallest sizes (k = 8 2^19-2^20, k = 4 2^20-2^21, k = 16 2^18-2^19), three alternated
# rounds of one process each; a table last (scripts/gpu/rounds_table.py, by variant).
set -u
R=$OUT/halves; mkdir -p $R
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
run() { # run NAME PRIME MIN MAX ROUND
  ./.gpu/srgfn bench --prime "$2" --min-log $3 --max-log $4 --default-variant --halves on,off --reps 20 --no-baselines --json $R/$1-x-$5.json > /dev/null 2>&1
}
for i in 1 2 3; do
  run k8 "(2^63+2^34)^8+1" 19 20 $i
  run k4 "(2^64-2^50)^4+1" 20 21 $i
  run k16 "(2^62+2^36)^16+1" 18 19 $i
done
python3 scripts/gpu/rounds_table.py $R '*.json' | tee $R/summary.txt
