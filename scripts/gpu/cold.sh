#!/bin/bash
# Sourced by the cold-build scripts (v21-cold.sh, v37-cold.sh): `cold BINARY PRIME LOG_N` times one
# cold build, an empty program cache and NVIDIA's cache off, as the wall time of
# `.gpu/BINARY fft --prime PRIME --random 2^LOG_N --format bin`, device start included; a line
# in $OUT/cold.txt, the log in $OUT/cold.log.
export CUDA_CACHE_DISABLE=1
cold() { # cold BINARY PRIME LOG_N
  rm -rf /tmp/cold; mkdir -p /tmp/cold; chmod 700 /tmp/cold
  local a=$(date +%s%N); SRGFN_CACHE_DIR=/tmp/cold timeout 120 ./.gpu/$1 fft --prime "$2" --random 2^$3 --format bin --output /tmp/cold-out.bin 2>> $OUT/cold.log
  local rc=$? b=$(date +%s%N)
  echo "$1 cold build + fft 2^$3 $2: $(( (b - a) / 1000000 )) ms rc=$rc" | tee -a $OUT/cold.txt
}
