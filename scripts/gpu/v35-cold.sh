#!/bin/bash
# v35 (device machine, .gpu carried): cold builds (empty program cache, NVIDIA's cache off) of k = 8's
# kernels at 2^20 (the table variant, with the first-two-passes kernel in its file since v35) with
# .gpu/srgfn-base and .gpu/srgfn, twice each; wall time of `srgfn fft --random 2^20`, device start included.
set -u
K8="(2^63+2^34)^8+1"
export CUDA_CACHE_DISABLE=1
cold() { # cold BINARY LOG
  rm -rf /tmp/cold; mkdir -p /tmp/cold; chmod 700 /tmp/cold
  local a=$(date +%s%N); SRGFN_CACHE_DIR=/tmp/cold timeout 120 ./.gpu/$1 fft --prime "$K8" --random 2^$2 --format bin --output /tmp/cold-out.bin 2>> $OUT/cold.log
  local rc=$? b=$(date +%s%N)
  echo "$1 cold build + fft 2^$2 $K8: $(( (b - a) / 1000000 )) ms rc=$rc" | tee -a $OUT/cold.txt
}
for i in 1 2; do cold srgfn-base 20; cold srgfn 20; done
