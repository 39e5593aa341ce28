#!/bin/bash
# v43 (device machine, .gpu carried): f_mul_lazy's quotient series with fewer terms where the lazy
# digits' high parts take two bytes (emit::lazy::MulSplit, SH as short).
#   bench: k = 8 defaults 2^16 … 2^24 for each of SIDES (default "v42 new": .gpu/srgfn-v42 and
#          .gpu/srgfn), each its own process, alternated ROUNDS (2) times; k = 4 and k = 16 once
#          each side (2^16 … 2^24 and 2^16 … 2^22); NVIDIA's registers of the new k = 8 table programs
#          (OTHERS=0: k = 8 only)
#   final: the new binary's k = 8 defaults with both baselines (f8.json)
#   check: srgfn check of every variant with .gpu/srgfn (scripts/gpu/v20.sh checks); check8: k = 8's only
# STEPS (default "bench") picks steps.  Details under $OUT/v43.tar; a short table last.
set -u
export PATH=/usr/local/cuda/bin:$PATH
STEPS=" ${STEPS:-bench} "; has() { [[ $STEPS == *" $1 "* ]]; }
R=$OUT/v43; mkdir -p $R
K4="(2^64-2^50)^4+1"; K8="(2^63+2^34)^8+1"; K16="(2^62+2^36)^16+1"
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
bin() { case $1 in new) echo ./.gpu/srgfn;; *) echo ./.gpu/srgfn-$1;; esac; }
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
if has bench; then
  for i in $(seq 1 ${ROUNDS:-2}); do
    for S in ${SIDES:-v42 new}; do
      $(bin $S) bench --prime "$K8" --min-log 16 --max-log 24 --default-variant --reps 20 --no-baselines --json $R/k8-$S-$i.json > $R/k8-$S-$i.txt 2>&1
    done
    stamp "k = 8 round $i"
  done
  [ "${OTHERS:-1}" = 1 ] && for S in ${SIDES:-v42 new}; do
    $(bin $S) bench --prime "$K4" --min-log 16 --max-log 24 --default-variant --reps 20 --no-baselines --json $R/k4-$S-1.json > $R/k4-$S-1.txt 2>&1
    $(bin $S) bench --prime "$K16" --min-log 16 --max-log 22 --default-variant --reps 20 --no-baselines --json $R/k16-$S-1.json > $R/k16-$S-1.txt 2>&1
  done
  stamp "k = 4, 16"
  for f in $SRGFN_CACHE_DIR/*; do
    python3 scripts/gpu/cache_ptx.py "$f" /tmp/p.ptx 2>/dev/null || continue
    grep -q "table" /tmp/p.ptx || continue
    echo "== $(basename $f)" >> $R/regs.txt
    ptxas -v --gpu-name sm_90 /tmp/p.ptx -o /tmp/p.cubin 2>&1 | grep -E "Compiling entry|registers" >> $R/regs.txt
  done
fi
# final: the new binary's k = 8 defaults with both baselines, one process
has final && ./.gpu/srgfn bench --prime "$K8" --min-log 16 --max-log 24 --default-variant --reps 20 --json $R/f8.json > $R/f8.txt 2>&1
# check8: srgfn check of k = 8's every variant only (a change to k = 8's kernels alone)
has check8 && { mkdir -p /tmp/cache-check8; chmod 700 /tmp/cache-check8; SRGFN_WISDOM=off SRGFN_CACHE_DIR=/tmp/cache-check8 timeout 500 ./.gpu/srgfn check --prime "$K8" > $R/check8.txt 2> $R/check8.log; echo "check8 rc=$?: $(grep -c '^ok' $R/check8.txt) ok, $(grep -c '^FAIL' $R/check8.txt) failed; $(tail -n 1 $R/check8.log)"; }
if has check; then
  SRGFN_WISDOM=off bash scripts/gpu/v20.sh checks > $R/checks.txt 2>&1
  cp -r /tmp/v20-checks $R/checks 2>/dev/null; tail -n 12 $R/checks.txt
fi
stamp done
if has bench; then
  for K in 8 4 16; do python3 scripts/gpu/rounds_table.py $R "k$K-*.json" side; done | tee $R/summary.txt
fi
if has final; then
  grep -h "srgfn-\|smallprimes-s16 " $R/f8.txt | tail -n 20
fi
cd $OUT && tar cf v43.tar v43 && rm -rf v43
