#!/bin/bash
# v24 experiment (device machine, .gpu carried): f_mul's unrolled products with PAIRS coefficients
# accumulated side by side (SRGFN_EXP_PAIRS, read when the kernels are emitted), P = 1 (as built), 2, 4.
# Kernels of every run built side by side first; timed runs one after another; registers from ptxas.
set -u
B=./.gpu/srgfn-exp; R=/tmp/v24-pairs; mkdir -p $R
K4="(2^64-2^50)^4+1"; K8="(2^63+2^34)^8+1"; K16="(2^62+2^36)^16+1"
RUNS=("k16|$K16|--min-log 18 --max-log 22 --radix 2 --variant table" "k8|$K8|--min-log 18 --max-log 24 --radix 4 --variant local" "k4|$K4|--min-log 20 --max-log 24 --radix 4 --variant local")
for P in ${PAIRS:-1 2 4}; do
  C=/tmp/cache-exp-$P; mkdir -p $C; chmod 700 $C
  for run in "${RUNS[@]}"; do IFS='|' read -r N K A <<< "$run"
    W=$(echo "$A" | sed -E 's/--(min-log|max-log) [0-9]+//g')
    ( SRGFN_EXP_PAIRS=$P SRGFN_CACHE_DIR=$C timeout 300 $B bench --prime "$K" $W --min-log 16 --max-log 16 --reps 1 --no-baselines > $R/warm-$N-$P.log 2>&1 ) &
  done
done; wait; echo "built"
for run in "${RUNS[@]}"; do IFS='|' read -r N K A <<< "$run"
  for P in ${PAIRS:-1 2 4}; do
    SRGFN_EXP_PAIRS=$P SRGFN_CACHE_DIR=/tmp/cache-exp-$P timeout 200 $B bench --prime "$K" $A --reps 10 --no-baselines --json $R/$N-$P.json > $R/$N-$P.txt 2> $R/$N-$P.log
    echo "$N P=$P rc=$?"; head -4 $R/$N-$P.txt | tail -3
  done
done
PTXAS=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
for P in ${PAIRS:-1 2 4}; do for f in $(find /tmp/cache-exp-$P -name "*.bin"); do
  b=/tmp/ptx-$P-$(basename $f .bin | cut -c1-12)
  python3 scripts/gpu/cache_ptx.py $f $b.ptx
  $PTXAS -v --gpu-name sm_90 -o $b.cubin $b.ptx > $b.txt 2>&1
  awk -v v=$P '/Compiling entry function/ { k = $7 } /Used [0-9]+ registers/ { print "P=" v, k, $5, $6, $0 ~ /spill/ ? "" : "" } /spill stores/ { print "P=" v, k, $0 }' $b.txt >> $R/regs.txt
done; done
sort -u $R/regs.txt | grep -E "dft(16_r4_local|32_r2_table|8_r4_local|16_r4_local_fused|8_r4_local_fused)|mb_core|mb_mul" | grep -v "bytes spill stores, 0 bytes spill loads" | head -60
tar cf $OUT/v24-pairs.tar -C $R .
python3 scripts/gpu/median_table.py $R
