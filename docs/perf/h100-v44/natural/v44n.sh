#!/bin/bash
# v44 natural-order chains (experiment): checks of k = 16's and 8's table variant, --chain on,off
set -u
R=$OUT/v44n; mkdir -p $R
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
B=./.gpu/srgfn-nat
mkdir -p /tmp/cc; chmod 700 /tmp/cc
SRGFN_WISDOM=off SRGFN_CACHE_DIR=/tmp/cc timeout 300 $B check --prime "(2^62+2^36)^16+1" --prime "(2^63+2^34)^8+1" --variant table > $R/check.txt 2> $R/check.log
echo "check rc=$?: $(grep -c '^ok' $R/check.txt) ok, $(grep -c '^FAIL' $R/check.txt) failed, $(grep -c ' chain ' $R/check.txt) chain cases; $(tail -n 1 $R/check.log)"
stamp check
for i in 1 2; do
  $B bench --prime "(2^62+2^36)^16+1" --min-log 18 --max-log 22 --default-variant --chain on,off --reps 20 --no-baselines --json $R/k16-$i.json > $R/k16-$i.txt 2>&1
  $B bench --prime "(2^63+2^34)^8+1" --min-log 19 --max-log 24 --default-variant --superblocks off --chain on,off --reps 20 --no-baselines --json $R/k8n-$i.json > $R/k8n-$i.txt 2>&1
  stamp "round $i"
done
python3 scripts/gpu/rounds_table.py $R 'k16-*.json' | tee $R/k16-summary.txt
python3 scripts/gpu/rounds_table.py $R 'k8n-*.json' | tee $R/k8n-summary.txt
cd $OUT && tar cf v44n.tar v44n && rm -rf v44n
