#!/bin/bash
# v42 (device machine, .gpu carried): k = 8's radix per size (emit::plan_radix: radix 2 for the
# table plans from 2^17, radix 4 below).
#   1. srgfn check of every variant with the new binary (scripts/gpu/v20.sh checks)
#   2. cold builds: one empty cache, `fft` 2^16 then 2^20 (the new binary builds both radices'
#      kernels), each binary, twice
#   3. k = 8 defaults 2^16 … 2^24: BASE (default "v41 new": v41's binary .gpu/srgfn-v41 with
#      --radix 4, and the new one .gpu/srgfn, each size's radix) and SIDES' others
#      (.gpu/srgfn-NAME; "halves": the new binary with --halves on), each its own process,
#      alternated ROUNDS times
#   4. the new binary's k = 8 defaults with both baselines
#   5. NVIDIA's registers of the k = 8 table programs the new binary built (ptxas -v)
# STEPS (default "check cold bench") picks steps: check = 1, cold = 2, bench = 3 to 5.
# Details under $OUT/v42.tar; a short table last.
set -u
STEPS=" ${STEPS:-check cold bench} "; has() { [[ $STEPS == *" $1 "* ]]; }
R=$OUT/v42; mkdir -p $R
K8="(2^63+2^34)^8+1"
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
if has check; then
  SRGFN_WISDOM=off bash scripts/gpu/v20.sh checks > $R/checks.txt 2>&1
  cp -r /tmp/v20-checks $R/checks; tail -n 12 $R/checks.txt
fi
has cold && (
  export CUDA_CACHE_DISABLE=1
  for i in 1 2; do
    for B in srgfn-v41 srgfn; do
      rm -rf /tmp/cold; mkdir -p /tmp/cold; chmod 700 /tmp/cold
      a=$(date +%s%N)
      for L in 16 20; do
        SRGFN_CACHE_DIR=/tmp/cold timeout 120 ./.gpu/$B fft --prime "$K8" --random 2^$L --format bin --output /tmp/cold-out.bin 2>> $R/cold.log
        rc=$?; b=$(date +%s%N)
        echo "$B cold: 2^16 … 2^$L in one cache: $(( (b - a) / 1000000 )) ms rc=$rc" | tee -a $R/cold.txt
      done
    done
  done
)
stamp "cold done"
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
has bench && for i in $(seq 1 ${ROUNDS:-3}); do
  for S in ${BASE:-v41 new} ${SIDES:-}; do
    case $S in
      new) B=./.gpu/srgfn; A="";;
      v41) B=./.gpu/srgfn-v41; A="--radix 4";;
      halves) B=./.gpu/srgfn; A="--halves on";;
      *) B=./.gpu/srgfn-$S; A="";;
    esac
    $B bench --prime "$K8" --min-log 16 --max-log 24 --default-variant $A --reps 20 --no-baselines --json $R/k8-$S-$i.json > $R/k8-$S-$i.txt 2>&1
  done
done
has bench && ./.gpu/srgfn bench --prime "$K8" --min-log 16 --max-log 24 --default-variant --reps 20 --json $R/f8.json > $R/f8.txt 2>&1
has bench && for f in $SRGFN_CACHE_DIR/*; do
  python3 scripts/gpu/cache_ptx.py "$f" /tmp/p.ptx 2>/dev/null || continue
  grep -q "table" /tmp/p.ptx || continue
  echo "== $(basename $f) $(head -c 300 $f | tr '\n' ' ' | cut -c1-200)" >> $R/regs.txt
  ptxas -v --gpu-name sm_90 /tmp/p.ptx -o /tmp/p.cubin 2>&1 | grep -E "Compiling entry|registers" >> $R/regs.txt
done
stamp done
has cold && cat $R/cold.txt
if has bench; then
  grep -h "srgfn-\|smallprimes-s16 " $R/f8.txt | tail -n 20
  python3 scripts/gpu/rounds_table.py $R 'k8-*.json' side | tee $R/summary.txt
fi
cd $OUT && tar cf v42.tar v42 && rm -rf v42
