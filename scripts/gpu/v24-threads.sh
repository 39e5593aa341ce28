#!/bin/bash
# v24 experiment (device machine, .gpu carried): the table variant's work-groups of T work-items
# (SRGFN_EXP_TABLE_THREADS, read when the kernels are emitted; 128 as built: G = 8 blocks at k = 16,
# 64: G = 4, 32: G = 2), k = 16 radix 2, with and without products.
set -u
B=./.gpu/srgfn-exp; R=/tmp/v24-threads; mkdir -p $R
K16="(2^62+2^36)^16+1"
for T in 32 64 128; do for O in "" "-DSRGFN_ABLATE_PRODUCTS"; do
  C=/tmp/cache-thr-$T; mkdir -p $C; chmod 700 $C
  ( SRGFN_EXP_TABLE_THREADS=$T SRGFN_CL_OPTIONS="$O" SRGFN_CACHE_DIR=$C timeout 300 $B bench --prime "$K16" --radix 2 --variant table --min-log 16 --max-log 16 --reps 1 --no-baselines > $R/warm-$T$O.log 2>&1 ) &
done; done; wait; echo built
for T in 128 64 32; do for O in "" "-DSRGFN_ABLATE_PRODUCTS"; do
  N=t$T${O:+-noprod}
  SRGFN_EXP_TABLE_THREADS=$T SRGFN_CL_OPTIONS="$O" SRGFN_CACHE_DIR=/tmp/cache-thr-$T timeout 200 $B bench --prime "$K16" --radix 2 --variant table --min-log 18 --max-log 22 --reps 10 --no-baselines --json $R/$N.json > $R/$N.txt 2> $R/$N.log
  echo "$N rc=$?"
done; done
tar cf $OUT/v24-threads.tar -C $R .
python3 scripts/gpu/median_table.py $R
