#!/bin/bash
# (Older: the v2 suite.) Usage (device machine): cargo build --release; mkdir -p .gpu; cp target/release/srgfn .gpu/; then run
# this script there with .gpu carried; results land in $OUT/results.tar (JSON, SVG, tables).
set -u
B=./.gpu/srgfn
R=/tmp/results; mkdir -p $R
export SRGFN_CACHE_DIR=/tmp/srgfn-cache
run() {
  timeout $6 $B bench --prime "$2" --min-log $3 --max-log $4 --variants $5 --radices 2 --reps 20 --no-baselines --json $R/$1.json --plot $R/$1.svg > $R/$1.txt 2> $R/$1.log
  echo "$1 rc=$?"; grep -v '^prime' $R/$1.txt | awk '{printf "%-18s %-5s %-26s %10s %6s\n", $1, $2, $3, $4, $8}'
  tar cf $OUT/results.tar -C $R .
}
run k8 "(2^63+2^34)^8+1" 16 24 local 80
run k4 "(2^64-2^50)^4+1" 20 24 local 60
run k16 "(2^62+2^36)^16+1" 20 22 local 70
run k32 "(2^62+2^56)^32+1" 20 20 local 150
