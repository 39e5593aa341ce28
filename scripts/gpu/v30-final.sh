#!/bin/bash
# v30's final calls, with .gpu/srgfn (the final binary) and .gpu/srgfn-v29 (v29's):
#   scripts/gpu/v30-final.sh checks   srgfn check of every variant, then cold builds (NVIDIA's cache
#                                     off) of k = 32's kernels with both binaries ($OUT/cold.txt)
#   scripts/gpu/v30-final.sh bench    the final binary against v29's (scripts/gpu/v30-final.runs)
set -u
case $1 in
checks)
  bash scripts/gpu/v20.sh checks > $OUT/checks.txt 2>&1; grep "check " $OUT/checks.txt
  export CUDA_CACHE_DISABLE=1
  K32="(2^62+2^56)^32+1"
  for b in srgfn-v29 srgfn srgfn-v29 srgfn; do
    rm -rf /tmp/cold; mkdir -p /tmp/cold; chmod 700 /tmp/cold
    a=$(date +%s%N); SRGFN_CACHE_DIR=/tmp/cold timeout 120 ./.gpu/$b fft --prime "$K32" --random 2^18 --format bin --output /tmp/cold-out.bin 2>> $OUT/cold.log
    rc=$?; z=$(date +%s%N); echo "$b cold build + fft 2^18 $K32: $(( (z - a) / 1000000 )) ms rc=$rc" | tee -a $OUT/cold.txt
  done ;;
bench)
  rm -rf /tmp/v20-bench /tmp/cache-srgfn-*
  CACHE_PER_RUN=1 PTX=1 PTX_SHOW='r4_digits$' bash scripts/gpu/v20.sh bench scripts/gpu/v30-final.runs > $OUT/bench.txt 2>&1
  tail -45 $OUT/bench.txt ;;
esac
