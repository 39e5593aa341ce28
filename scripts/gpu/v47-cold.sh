#!/bin/bash
# v47 (device machine, .gpu carried): cold starts (empty program cache, NVIDIA's cache off) with a
# plan that builds only its forward transform's programs, `inverse.cl` and `product.cl` apart
# (.gpu/srgfn), against v46's, which builds `pointwise.cl` whole too (.gpu/srgfn-v46), alternated
# twice: `srgfn fft --random` forward of k = 8 at 2^16, k = 16 at 2^20, k = 32 at 2^18 and k = 128
# at 2^14; the inverse (`--inverse --verify`, which builds every program through Fft::prepare)
# and `srgfn polymul --verify` (the same) of k = 32 and k = 128.  Wall time of each run, device start included;
# SRGFN_TRACE=1 logs each program's build time (v47.sh checks the binary).
set -u
R=$OUT/v47-cold; mkdir -p $R
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
for c in "k32:(2^62+2^56)^32+1:17" "k128:(2^64-2^28)^128+1:13"; do
  IFS=: read -r name P L <<< "$c"
  for s in 1 2; do ./.gpu/srgfn random --prime "$P" --count $((1 << L)) --seed $s --output /tmp/$name-$s.txt; done
done
export CUDA_CACHE_DISABLE=1 SRGFN_TRACE=1
mulrun() { # mulrun BINARY LABEL PRIME NAME: polymul of the two random files NAME-1, NAME-2
  rm -rf /tmp/cold; mkdir -p /tmp/cold; chmod 700 /tmp/cold
  local a=$(date +%s%N)
  echo "== $1 $2 2^$5" >> $R/cold.log
  SRGFN_CACHE_DIR=/tmp/cold timeout 150 ./.gpu/$1 polymul --prime "$3" /tmp/$4-1.txt /tmp/$4-2.txt --verify --output /tmp/cold-out.txt 2>> $R/cold.log
  local rc=$? b=$(date +%s%N)
  echo "$1 $2: … 2^$5 in one cache: $(( (b - a) / 1000000 )) ms rc=$rc" | tee -a $R/cold.txt
}
run() { # run BINARY LABEL PRIME EXTRA LOG_N…: one empty cache, the sizes one after another
  local B=$1 label=$2 P=$3 extra=$4; shift 4
  rm -rf /tmp/cold; mkdir -p /tmp/cold; chmod 700 /tmp/cold
  local a=$(date +%s%N) L
  for L in "$@"; do
    echo "== $B $label 2^$L" >> $R/cold.log
    SRGFN_CACHE_DIR=/tmp/cold timeout 150 ./.gpu/$B fft --prime "$P" --random 2^$L $extra --format bin --output /tmp/cold-out.bin 2>> $R/cold.log
    local rc=$? b=$(date +%s%N)
    echo "$B $label: … 2^$L in one cache: $(( (b - a) / 1000000 )) ms rc=$rc" | tee -a $R/cold.txt
  done
}
for i in 1 2; do
  for B in ${BINS:-srgfn-v46 srgfn}; do
    run $B k8 "(2^63+2^34)^8+1" "" 16
    run $B k16 "(2^62+2^36)^16+1" "" 20
    run $B k32 "(2^62+2^56)^32+1" "" 18
    run $B k128 "(2^64-2^28)^128+1" "" 14
    run $B k32inv "(2^62+2^56)^32+1" "--inverse --verify" 18
    run $B k128inv "(2^64-2^28)^128+1" "--inverse --verify" 14
    mulrun $B k32mul "(2^62+2^56)^32+1" k32 18
    mulrun $B k128mul "(2^64-2^28)^128+1" k128 14
  done
  stamp "round $i"
done
python3 scripts/gpu/cold_summary.py $R | tee $R/summary.txt
cd $R && grep -c "verified" cold.log | sed 's/^/verified runs: /'
cd $OUT && tar cf v47-cold.tar v47-cold && rm -rf v47-cold
