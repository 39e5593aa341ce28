#!/bin/bash
# v6 measurements for docs/performance.md (device machine, .gpu carried).
# Steps (default all): cold  - cold build of one transform's kernels per catalog prime
#                      check - srgfn check on every catalog prime
#                      bench - the transforms of every catalog prime with both baselines
#                      poly  - srgfn polymul of two text files of 2^20 coefficients
# Results: $OUT/final.tar (JSON, logs); a short summary last.
set -u
export PATH=$PATH:/usr/local/cuda/bin
B=./.gpu/srgfn
R=/tmp/final; mkdir -p $R
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
STEPS="${*:-cold check bench poly}"
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
CAT=("(2^63+2^53)^2+1" "(2^64-2^50)^4+1" "(2^63+2^34)^8+1" "(2^62+2^36)^16+1" "(2^62+2^56)^32+1" "(2^63-2^40)^64+1" "(2^64-2^28)^128+1")
for S in $STEPS; do case $S in
cold)
  for P in "${CAT[@]}"; do
    rm -rf /tmp/cold; mkdir -p /tmp/cold; chmod 700 /tmp/cold
    a=$(date +%s%N)
    SRGFN_CACHE_DIR=/tmp/cold timeout 200 $B fft --prime "$P" --random 2^12 --output $R/cold_out.txt --json $R/cold.json 2>> $R/cold.log
    b=$(date +%s%N)
    echo "cold build + fft 2^12 $P: $(( (b - a) / 1000000 )) ms" | tee -a $R/cold.txt
  done ;;
check)
  stamp "check, every catalog prime"
  timeout 420 $B check > $R/check.txt 2> $R/check.log
  stamp "check rc=$?: $(grep -c '^ok' $R/check.txt) ok, $(grep -c '^FAIL' $R/check.txt) failed"; tail -1 $R/check.log ;;
bench)
  stamp "bench"
  timeout 160 $B bench --prime "(2^64-2^50)^4+1" --prime "(2^63+2^34)^8+1" --min-log 16 --max-log 24 --radix 2,4 --variant local --reps 20 --json $R/b48.json > $R/b48.txt 2> $R/b48.log
  stamp "k4/k8 rc=$?"
  timeout 140 $B bench --prime "(2^62+2^36)^16+1" --min-log 16 --max-log 22 --radix 2,4 --variant table --reps 10 --json $R/b16.json > $R/b16.txt 2> $R/b16.log
  stamp "k16 rc=$?"
  timeout 140 $B bench --prime "(2^62+2^56)^32+1" --min-log 14 --max-log 20 --radix 2 --variant table --reps 5 --json $R/b32.json > $R/b32.txt 2> $R/b32.log
  stamp "k32 rc=$?"
  timeout 140 $B bench --prime "(2^63-2^40)^64+1" --prime "(2^64-2^28)^128+1" --min-log 14 --max-log 18 --radix 2 --reps 3 --no-baselines --json $R/b64.json > $R/b64.txt 2> $R/b64.log
  stamp "k64/k128 rc=$?" ;;
poly)
  stamp "polymul text"
  timeout 200 bash scripts/gpu/polymul_text.sh > $R/poly.txt 2>&1; tail -12 $R/poly.txt ;;
esac; done
tar cf $OUT/final.tar -C $R .
cat $R/cold.txt 2>/dev/null
for f in $R/b48.txt $R/b16.txt $R/b32.txt $R/b64.txt; do [ -f $f ] && grep -E '2\^(16|20|24|18) ' $f | head -40; done
stamp done
