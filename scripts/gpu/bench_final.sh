#!/bin/bash
# Final v5 run (device machine, .gpu and .whl carried): FLINT against `srgfn polymul`,
# then the default suite (local variant, radix 2 and 4, both baselines) prime by prime.
# Results (JSON, SVG, logs) in $OUT/results.tar; merge with scripts/gpu/merge_json.py.
set -u
B=./.gpu/srgfn
R=/tmp/results; mkdir -p $R
export SRGFN_CACHE_DIR=/tmp/srgfn-cache
if [ -z "${NO_FLINT:-}" ]; then
  python3 -m zipfile -e .whl/*.whl /tmp/pf
  PYTHONPATH=/tmp/pf OUT=$R timeout 150 python3 scripts/gpu/flint_bench.py 20 > $R/flint.txt 2>&1
  grep -E "FLINT|poly_mul|product of" $R/flint.txt | tail -8; grep -E "equal|speedup" $R/flint.txt
  tar cf $OUT/results.tar -C $R .
fi
run() {
  timeout $5 $B bench --prime "$2" --min-log $3 --max-log $4 --variants local --radices 2,4 --reps 20 --json $R/$1.json --plot $R/$1.svg > $R/$1.txt 2> $R/$1.log
  echo "$1 rc=$?"
  tar cf $OUT/results.tar -C $R .
}
run k8 "(2^63+2^34)^8+1" 16 24 120
run k4 "(2^64-2^50)^4+1" 16 24 100
run k16 "(2^62+2^36)^16+1" 16 22 120
run k32 "(2^62+2^56)^32+1" 14 20 150
for f in k8 k4 k16 k32; do grep -v '^prime' $R/$f.txt | awk '$4 ~ /^[0-9.]+$/ {printf "%-17s %-5s %-28s %9s %6s\n", $1, $2, $3, $4, $8}'; done
