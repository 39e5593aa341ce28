#!/bin/bash
# v46 (device machine, .gpu carried): cold builds (empty program cache, NVIDIA's cache off) with
# the plan's program files built side by side (.gpu/srgfn) against one after another
# (.gpu/srgfn-v45), alternated twice: k = 8 `fft` 2^16, then 2^20, then 2^24 in one cache; k = 16
# at 2^20; k = 32 at 2^18; k = 128 at 2^14.  Wall time of each `srgfn fft --random`, device start
# included; SRGFN_TRACE=1 logs each program's build time (the new binary prints them) in cold.log.
# CHECK=1 first runs `srgfn check` of k = 8 and k = 16 (every variant) with .gpu/srgfn.
set -u
R=$OUT/v46-cold; mkdir -p $R
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
if [ "${CHECK:-0}" = 1 ]; then
  for c in "check8:(2^63+2^34)^8+1" "check16:(2^62+2^36)^16+1"; do
    name=${c%%:*}; P=${c#*:}
    mkdir -p /tmp/cache-$name; chmod 700 /tmp/cache-$name
    SRGFN_WISDOM=off SRGFN_CACHE_DIR=/tmp/cache-$name timeout 300 ./.gpu/srgfn check --prime "$P" > $R/$name.txt 2> $R/$name.log
    echo "$name rc=$?: $(grep -c '^ok' $R/$name.txt) ok, $(grep -c '^FAIL' $R/$name.txt) failed; $(tail -n 1 $R/$name.log)" | tee -a $R/checks.txt
    stamp $name
  done
fi
export CUDA_CACHE_DISABLE=1 SRGFN_TRACE=1
run() { # run BINARY LABEL PRIME LOG_N…: one empty cache, the sizes one after another
  local B=$1 label=$2 P=$3; shift 3
  rm -rf /tmp/cold; mkdir -p /tmp/cold; chmod 700 /tmp/cold
  local a=$(date +%s%N) L
  for L in "$@"; do
    echo "== $B $label 2^$L" >> $R/cold.log
    SRGFN_CACHE_DIR=/tmp/cold timeout 150 ./.gpu/$B fft --prime "$P" --random 2^$L --format bin --output /tmp/cold-out.bin 2>> $R/cold.log
    local rc=$? b=$(date +%s%N)
    echo "$B $label: … 2^$L in one cache: $(( (b - a) / 1000000 )) ms rc=$rc" | tee -a $R/cold.txt
  done
}
for i in 1 2; do
  for B in srgfn-v45 srgfn; do
    run $B k8 "(2^63+2^34)^8+1" 16 20 24
    run $B k16 "(2^62+2^36)^16+1" 20
    run $B k32 "(2^62+2^56)^32+1" 18
    run $B k128 "(2^64-2^28)^128+1" 14
  done
  stamp "round $i"
done
python3 scripts/gpu/cold_summary.py $R | tee $R/summary.txt
cd $OUT && tar cf v46-cold.tar v46-cold && rm -rf v46-cold
