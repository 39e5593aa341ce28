#!/bin/bash
# Issue 13 (several GPUs of a host) and issue 12 (polymul of text files) on the
# device machine, .gpu carried.  Steps (default all):
#   batch - `srgfn batch --devices all`: batches of transforms and products,
#           all GPUs against the first alone, results compared word for word
#   poly  - scripts/gpu/polymul_text.sh on 16 cores (taskset), as issue 12 states
#   regs  - bench k = 8 and 4 under NVIDIA register caps (occupancy against spills)
#   check - srgfn check on the first GPU, every catalog prime
# Results under $OUT/multi (JSON, logs); a short summary last.
set -u
B=./.gpu/srgfn
R=$OUT/multi; mkdir -p $R
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
STEPS="${*:-batch poly regs check}"
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=index,name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
$B devices > $R/devices.txt 2>&1; cat $R/devices.txt
for S in $STEPS; do case $S in
batch)
  P4="(2^64-2^50)^4+1"; P8="(2^63+2^34)^8+1"; P16="(2^62+2^36)^16+1"
  while read -r name prime n batch extra; do
    stamp "batch $name"
    timeout 150 $B batch --prime "$prime" --n $n --batch $batch --reps 10 $extra --json $R/batch_$name.json > $R/batch_$name.txt 2> $R/batch_$name.log
    echo "rc=$?"; cat $R/batch_$name.txt
  done <<LIST
k8_2e20_b16 $P8 2^20 16
k8_2e16_b64 $P8 2^16 64
k8_2e24_b4 $P8 2^24 4
k4_2e20_b16 $P4 2^20 16
k16_2e20_b8 $P16 2^20 8
k8_prod_2e20_b8 $P8 2^20 8 --products
k8_prod_2e22_b4 $P8 2^22 4 --products
LIST
  ;;
poly)
  stamp "polymul of text files on 16 cores"
  taskset -c 0-15 timeout 240 scripts/gpu/polymul_text.sh > $R/polymul_text.txt 2>&1
  echo "rc=$?"; tail -30 $R/polymul_text.txt ;;
regs)
  # NVIDIA register cap against occupancy: k = 8 passes use 98 registers (16 warps per SM)
  for cap in 0 80 64; do
    opt=""; [ $cap -gt 0 ] && opt="-cl-nv-maxrregcount=$cap"
    stamp "bench with SRGFN_CL_OPTIONS='$opt'"
    SRGFN_CL_OPTIONS="$opt" timeout 150 $B bench --prime "(2^63+2^34)^8+1" --prime "(2^64-2^50)^4+1" --min-log 20 --max-log 24 --radix 2 --variant local --reps 10 --no-baselines --json $R/regs_$cap.json > $R/regs_$cap.txt 2> $R/regs_$cap.log
    echo "rc=$?"; grep -E "^\(2" $R/regs_$cap.txt | head -12
  done ;;
check)
  stamp "check, every catalog prime, first GPU"
  timeout 540 $B check > $R/check.txt 2> $R/check.log
  stamp "check rc=$?: $(grep -c '^ok' $R/check.txt) ok, $(grep -c '^FAIL' $R/check.txt) failed"; tail -2 $R/check.log
  grep -v '^ok' $R/check.txt | head -20 ;;
esac; done
stamp "summary"
for f in $R/batch_*.json; do
  [ -f "$f" ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); o=d["one"] or {}; print("%-5s %-18s N=%-8d B=%-3d 1 GPU %9s ms  all %9.3f ms  x%.2f identical=%s verified=%s" % (d["operation"][:4], d["prime"], d["n"], d["batch"], o.get("median_ms","-"), d["all"]["median_ms"], d["speedup"], d["identical"], d["verified"]))' "$f"
done
