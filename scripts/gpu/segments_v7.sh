#!/bin/bash
# Vectors in segments on the device machine (.gpu carried): srgfn check of the
# primes k = 4, 8, 16 (their "in 2 buffers" cases included), then transforms
# beyond the largest buffer: k = 8 at N = 2^29, 2^30 and k = 16 at 2^28, 2^29.
# Results under $OUT/seg; a short summary last.
set -u
B=./.gpu/srgfn; R=$OUT/seg; mkdir -p $R
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
stamp "check k = 4, 8, 16"
timeout 300 $B check --prime "(2^64-2^50)^4+1" --prime "(2^63+2^34)^8+1" --prime "(2^62+2^36)^16+1" > $R/check.txt 2> $R/check.log
stamp "check rc=$?: $(grep -c '^ok' $R/check.txt) ok, $(grep -c '^FAIL' $R/check.txt) failed; $(grep -c 'buffers' $R/check.txt) split cases"
grep -v '^ok' $R/check.txt | head; tail -1 $R/check.log
stamp "bench beyond the largest buffer"
timeout 250 $B bench --prime "(2^63+2^34)^8+1" --min-log 30 --max-log 30 --reps 3 --no-baselines --radix 2 --variant local --json $R/h200-v7-segments-k8.json > $R/bench8.txt 2> $R/bench8.log
echo "rc=$?"; grep -i "skip" $R/bench8.log; grep "^(2.*2^[23]" $R/bench8.txt
timeout 200 $B bench --prime "(2^62+2^36)^16+1" --min-log 29 --max-log 29 --reps 3 --no-baselines --radix 2 --variant table --json $R/h200-v7-segments-k16.json > $R/bench16.txt 2> $R/bench16.log
echo "rc=$?"; grep -i "skip" $R/bench16.log; grep "^(2.*2^[23]" $R/bench16.txt
stamp done
