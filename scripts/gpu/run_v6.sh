#!/bin/bash
# v6 device run (.gpu carried): arithmetic micro-benchmarks of every f_mul form
# (with and without PTX), transforms of the new local variant against the table
# variant, `srgfn check`, and ptxas register/spill reports of every kernel built.
# Usage: scripts/gpu/run_v6.sh STEP...  (micro, fft, check, ptxas; default: all)
# Results: $OUT/results.tar; a short table last.
set -u
export PATH=$PATH:/usr/local/cuda/bin
B=./.gpu/srgfn
R=/tmp/results; mkdir -p $R
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
P4="(2^64-2^50)^4+1"; P8="(2^63+2^34)^8+1"; P16="(2^62+2^36)^16+1"; P32="(2^62+2^56)^32+1"
STEPS="${*:-micro fft check ptxas}"
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
$B devices 2>&1 | head -4
for S in $STEPS; do case $S in
micro)
  for P in "$P8" "$P4" "$P16" "$P32"; do
    stamp "micro $P"
    timeout 240 $B bench --prime "$P" --micro-only --micro --reps 10 > $R/micro.txt 2> $R/micro.log
    grep -v '^prime' $R/micro.txt | tee -a $R/micro-all.txt; grep -i 'build\|error' $R/micro.log | head -5
  done ;;
fft)
  stamp "fft k=8: local vs table, r2 and r4 (PTX)"
  timeout 300 $B bench --prime "$P8" --min-log 16 --max-log 24 --radices 2,4 --variants local,table --no-baselines --reps 10 --json $R/fft-k8.json > $R/fft-k8.txt 2> $R/fft-k8.log
  grep micro $R/fft-k8.log
  stamp "rc=$?"; grep -v '^prime' $R/fft-k8.txt
  stamp "fft k=4 local r2; k=16, k=32 table r2"
  timeout 150 $B bench --prime "$P4" --min-log 20 --max-log 24 --radices 2 --variants local,table --no-baselines --reps 10 --json $R/fft-k4.json > $R/fft-k4.txt 2> $R/fft-k4.log
  grep -v '^prime' $R/fft-k4.txt | awk '$2 ~ /2\^(20|24)/'
  timeout 150 $B bench --prime "$P16" --min-log 20 --max-log 20 --radices 2,4 --variants table --no-baselines --reps 10 --json $R/fft-k16.json > $R/fft-k16.txt 2> $R/fft-k16.log
  grep -v '^prime' $R/fft-k16.txt
  timeout 150 $B bench --prime "$P32" --min-log 18 --max-log 18 --radices 2 --variants table --no-baselines --reps 5 --json $R/fft-k32.json > $R/fft-k32.txt 2> $R/fft-k32.log
  grep -v '^prime' $R/fft-k32.txt ;;
check)
  stamp "check k = 4, 8, 16"
  timeout 300 $B check --prime "$P4" --prime "$P8" --prime "$P16" > $R/check.txt 2> $R/check.log
  stamp "check rc=$?"; grep -c '^ok' $R/check.txt; grep -v '^ok' $R/check.txt | head; tail -2 $R/check.log ;;
ptxas)
  stamp "ptxas -v on every cached program"
  for f in $SRGFN_CACHE_DIR/*.bin; do
    tail -n +4 $f | tr -d "\000" > /tmp/p.ptx
    grep -q '^\.version' /tmp/p.ptx || continue
    echo "== $(grep -m3 '^\.visible \.entry\|^\.entry' /tmp/p.ptx | sed 's/(.*//' | tr '\n' ' ')" >> $R/ptxas.txt
    ptxas -v --gpu-name sm_90 -o /tmp/p.cubin /tmp/p.ptx 2>&1 | grep -E 'Compiling|registers|spill' >> $R/ptxas.txt
    if grep -q 'mb_mul' /tmp/p.ptx; then
      cuobjdump -sass /tmp/p.cubin > /tmp/p.sass
      awk '/Function :/{f=$3} /^ +\/\*[0-9a-f]{4}\*\/ +[A-Z@]/{n[f]++} END {for (x in n) print "SASS", x, n[x]}' /tmp/p.sass >> $R/ptxas.txt
      cp /tmp/p.sass $R/mb-$(basename $f .bin | cut -c1-8).sass
    fi
  done
  grep -c Compiling $R/ptxas.txt; grep -B1 'spill' $R/ptxas.txt | grep -v '0 bytes spill stores' | grep spill | head ;;
sp)
  stamp "small-primes baseline"
  MIN_LOG=18 OUT=$R timeout 300 bash scripts/gpu/bench_smallprimes.sh 2>&1 | tail -20 ;;
large)
  P64="(2^63-2^40)^64+1"; P128="(2^64-2^28)^128+1"
  for P in "$P32" "$P64" "$P128"; do
    rm -rf /tmp/cold; mkdir -p /tmp/cold; chmod 700 /tmp/cold
    t=$(date +%s.%N); SRGFN_CACHE_DIR=/tmp/cold timeout 300 $B fft --prime "$P" --random 2^12 --variant workgroup > /dev/null 2>> $R/large.log
    stamp "cold build + fft 2^12 $P: $(echo "$(date +%s.%N) - $t" | bc) s"
  done
  timeout 200 $B bench --prime "$P64" --min-log 16 --max-log 18 --radix 2 --variant workgroup --no-baselines --reps 3 --json $R/fft-k64.json > $R/fft-k64.txt 2> $R/fft-k64.log
  grep -v '^prime' $R/fft-k64.txt
  timeout 150 $B bench --prime "$P128" --min-log 16 --max-log 16 --radix 2 --variant workgroup --no-baselines --reps 3 --json $R/fft-k128.json > $R/fft-k128.txt 2> $R/fft-k128.log
  grep -v '^prime' $R/fft-k128.txt ;;
regs)
  for O in "" "-cl-nv-maxrregcount=64" "-cl-nv-maxrregcount=80"; do
    SRGFN_CL_OPTIONS="$O" timeout 150 $B bench --prime "$P8" --min-log 20 --max-log 20 --radix 2 --variant local,table --no-baselines --reps 10 > $R/regs.txt 2> $R/regs.log
    stamp "options '$O'"; grep -v '^prime' $R/regs.txt
  done ;;
esac; done
tar cf $OUT/results.tar -C $R .
stamp "done"
