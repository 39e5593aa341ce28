#!/bin/bash
# Issue 13: one transform or product split over the GPUs of a host by the
# four-step decomposition (srgfn split), and products larger than one GPU
# streamed through host memory.  Run on nvidia-h200-x2 with .gpu carried.
# Steps (default: check small):
#   check - srgfn check of k = 8 (local variant) on the first GPU: the split's cases included
#   small - srgfn split: a 2^24 transform and 2^26, 2^28 products, both GPUs vs the first alone
#   large - the 2^30 product of k = 8 (does not fit one H200 whole): all GPUs vs the first
#           alone (streamed); needs ~200 GiB of host memory (nvidia-h200-x4)
#   pair  - on a larger machine: the 2^28 product on GPUs 0,1 and on all, phases of the
#           first GPU's whole product traced (SRGFN_TRACE)
# Results under $OUT/split (JSON, logs); a short summary last.
set -u
B=./.gpu/srgfn
R=$OUT/split; mkdir -p $R
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
STEPS="${*:-check small}"
P8="(2^63+2^34)^8+1"; P4="(2^64-2^50)^4+1"
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader; free -g | head -2; nproc
for S in $STEPS; do case $S in
check)
  stamp "check k = 8 local"
  timeout 240 $B check --prime "$P8" --variant local > $R/check.txt 2>&1; echo "rc=$?"
  grep -E "four-step|FAIL" $R/check.txt; tail -1 $R/check.txt ;;
small|large|pair)
  case $S in
  small) LIST="t24 $P8 2^24 5 all -|p26 $P8 2^26 3 all --products|p28 $P8 2^28 3 all --products|p28k4 $P4 2^28 3 all --products" ;;
  large) LIST="p30 $P8 2^30 1 all --products" ;;
  pair) LIST="p28pair $P8 2^28 3 0,1 --products|p28all $P8 2^28 3 all --products" ;;
  esac
  IFS='|'; for line in $LIST; do IFS=' ' read -r name prime n reps devs extra <<< "$line"; [ "$extra" = - ] && extra=
    stamp "split $name"
    SRGFN_TRACE=1 timeout 400 $B split --prime "$prime" --n $n --devices $devs --reps $reps $extra --json $R/$name.json > $R/$name.txt 2> $R/$name.log
    echo "rc=$?"; cat $R/$name.txt; tail -2 $R/$name.log
  done; IFS=' ' ;;
esac; done
stamp done
# one archive comes back whole (the device tool returns a few files only)
tar czf $OUT/split-$(echo $STEPS | tr ' ' '-').tgz -C $OUT split && rm -rf $R
