#!/bin/bash
# v46 (device machine, .gpu carried): the landed main on the GPU after v45's last commits, cold
# builds with v45's `_q` kernels, and fresh defaults of k = 8 and k = 16 with both baselines.
#   check8:  srgfn check of k = 8's every variant with .gpu/srgfn
#   check24: srgfn check of k = 2's and 4's table variant
#   check16: srgfn check of k = 16's every variant
#   cold:    an empty program cache and NVIDIA's cache off: `fft` 2^16, then 2^20, then 2^24 in one
#            cache, for each binary of COLD (default "srgfn-v44 srgfn"), twice
#   final8:  k = 8 defaults 2^16 … 2^24 with both baselines (f8.json)
#   final16: k = 16 defaults 2^16 … 2^22 with both baselines (f16.json)
#   variants: every variant and radix of k = 16 at 2^16 … 2^19 and of k = 8 at 2^17 … 2^19, one
#            process each, twice (var16-*.json, var8-*.json)
# STEPS picks steps.  Details under $OUT/v46.tar; a short table last.
set -u
STEPS=" ${STEPS:-check8 check24 check16 cold final8 final16} "; has() { [[ $STEPS == *" $1 "* ]]; }
R=$OUT/v46; mkdir -p $R
K8="(2^63+2^34)^8+1"; K16="(2^62+2^36)^16+1"
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
check() { # check NAME TIMEOUT ARGS…
  local name=$1 limit=$2; shift 2
  mkdir -p /tmp/cache-$name; chmod 700 /tmp/cache-$name
  SRGFN_WISDOM=off SRGFN_CACHE_DIR=/tmp/cache-$name timeout $limit ./.gpu/srgfn check "$@" > $R/$name.txt 2> $R/$name.log
  echo "$name rc=$?: $(grep -c '^ok' $R/$name.txt) ok, $(grep -c '^FAIL' $R/$name.txt) failed, $(grep -c ' chain ' $R/$name.txt) chain cases, $(grep -c 'chain quarters' $R/$name.txt) in quarters; $(tail -n 1 $R/$name.log)" | tee -a $R/checks.txt
  stamp $name
}
has check8 && check check8 500 --prime "$K8"
has check24 && check check24 300 --prime "(2^63+2^53)^2+1" --prime "(2^64-2^50)^4+1" --variant table
has check16 && check check16 400 --prime "$K16"
has cold && (
  export CUDA_CACHE_DISABLE=1
  for i in 1 2; do
    for B in ${COLD:-srgfn-v44 srgfn}; do
      rm -rf /tmp/cold; mkdir -p /tmp/cold; chmod 700 /tmp/cold
      a=$(date +%s%N)
      for L in 16 20 24; do
        SRGFN_CACHE_DIR=/tmp/cold timeout 120 ./.gpu/$B fft --prime "$K8" --random 2^$L --format bin --output /tmp/cold-out.bin 2>> $R/cold.log
        rc=$?; b=$(date +%s%N)
        echo "$B cold: 2^16 … 2^$L in one cache: $(( (b - a) / 1000000 )) ms rc=$rc" | tee -a $R/cold.txt
      done
    done
  done
  stamp cold
)
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
has final8 && ./.gpu/srgfn bench --prime "$K8" --min-log 16 --max-log 24 --default-variant --reps 20 --json $R/f8.json > $R/f8.txt 2>&1 && stamp final8
has final16 && ./.gpu/srgfn bench --prime "$K16" --min-log 16 --max-log 22 --default-variant --reps 20 --json $R/f16.json > $R/f16.txt 2>&1 && stamp final16
if has variants; then
  for i in 1 2; do
    ./.gpu/srgfn bench --prime "$K16" --min-log 16 --max-log 19 --variant table,workgroup,digits --radix 2,4 --reps 20 --no-baselines --json $R/var16-$i.json > $R/var16-$i.txt 2>&1
    ./.gpu/srgfn bench --prime "$K8" --min-log 17 --max-log 19 --variant local,table,workgroup,digits --radix 2,4 --reps 20 --no-baselines --json $R/var8-$i.json > $R/var8-$i.txt 2>&1
    stamp "variants round $i"
  done
  python3 scripts/gpu/rounds_table.py $R 'var*.json' | tee $R/variants-summary.txt
fi
cat $R/checks.txt 2>/dev/null
for f in f8 f16; do [ -f $R/$f.txt ] && grep -v "^\[" $R/$f.txt | awk '$3 ~ /^srgfn-|^baseline-smallprimes-s[0-9]+$/ { print $1, $2, $3, $4 }'; done
cd $OUT && tar cf v46.tar v46 && rm -rf v46
