#!/bin/bash
# v44 experiment: first2 and the launches after it in halves by a superblock bit (SRGFN_EXP_THROUGH)
set -u
R=$OUT/v44; mkdir -p $R
K8="(2^63+2^34)^8+1"
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
run() { # side round
  case $1 in
    base) ./.gpu/srgfn bench --prime "$K8" --min-log ${MINL:-18} --max-log ${MAXL:-24} --default-variant --reps 20 --no-baselines --json $R/k8-$1-$2.json > $R/k8-$1-$2.txt 2>&1;;
    thr)  SRGFN_EXP_THROUGH=3 ./.gpu/srgfn-thr bench --prime "$K8" --min-log ${MINL:-18} --max-log ${MAXL:-24} --default-variant --reps 20 --no-baselines --json $R/k8-$1-$2.json > $R/k8-$1-$2.txt 2>&1;;
    c1)  SRGFN_EXP_THROUGH=3 SRGFN_EXP_CHAIN=1 ./.gpu/srgfn-thr bench --prime "$K8" --min-log ${MINL:-18} --max-log ${MAXL:-24} --default-variant --reps 20 --no-baselines --json $R/k8-$1-$2.json > $R/k8-$1-$2.txt 2>&1;;
    tw)  SRGFN_EXP_THROUGH=3 SRGFN_EXP_TAIL=0 ./.gpu/srgfn-thr bench --prime "$K8" --min-log ${MINL:-18} --max-log ${MAXL:-24} --default-variant --reps 20 --no-baselines --json $R/k8-$1-$2.json > $R/k8-$1-$2.txt 2>&1;;
  esac
}
if [ "${CHECK:-1}" = 1 ]; then
  mkdir -p /tmp/cc; chmod 700 /tmp/cc
  SRGFN_EXP_THROUGH=3 SRGFN_EXP_DEBUG=1 SRGFN_WISDOM=off SRGFN_CACHE_DIR=/tmp/cc timeout 300 ./.gpu/srgfn-thr check --prime "$K8" --variant table > $R/check-thr.txt 2> $R/check-thr.log
  echo "check thr rc=$?: $(grep -c '^ok' $R/check-thr.txt) ok, $(grep -c '^FAIL' $R/check-thr.txt) failed; through runs: $(grep -c through: $R/check-thr.log)"
  stamp check
fi
for i in $(seq 1 ${ROUNDS:-3}); do
  for S in ${SIDES:-base thr}; do run $S $i; done
  stamp "round $i"
done
python3 scripts/gpu/rounds_table.py $R 'k8-*.json' side | tee $R/summary.txt
python3 - <<'PY' | tee $R/kernels.txt
import json,glob,os
R=os.environ['OUT']+'/v44'
for f in sorted(glob.glob(R+'/k8-*-1.json')):
    d=json.load(open(f))
    for r in d['records']:
        if r['log_n'] in (19,20):
            print(os.path.basename(f), r['log_n'], r['median_ms'], [round(x,4) for x in r['kernel_ms']], [round(x,4) for x in r['kernel_start_ms']])
PY
cd $OUT && tar cf v44.tar v44 && rm -rf v44
