#!/bin/bash
# v9: two Stockham levels per launch (local variant, k <= 8): srgfn check of the local variant
# (fused and one pass per launch), cold builds, and fused against unfused in one process.
#   scripts/gpu/fused_v9.sh [cold] [check] [bench] [diag]   (diag needs .gpu/srgfn-diagA/B, see the step)
set -u
B=./.gpu/srgfn
R=/tmp/v9; mkdir -p $R
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
STEPS="${*:-cold check bench}"
K2="(2^63+2^53)^2+1"; K4="(2^64-2^50)^4+1"; K8="(2^63+2^34)^8+1"
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
for S in $STEPS; do case $S in
check)
  timeout 300 $B check --prime "$K2" --prime "$K4" --prime "$K8" --variant local > $R/check.txt 2> $R/check.log
  stamp "check rc=$?: $(grep -c '^ok' $R/check.txt) ok, $(grep -c '^FAIL' $R/check.txt) failed"; grep '^FAIL' $R/check.txt | head; tail -1 $R/check.txt ;;
cold)
  # NVIDIA's driver caches compiled programs itself: off, so that every build is cold
  for PN in "$K2:2^20" "$K4:2^18" "$K4:2^20" "$K8:2^16" "$K8:2^20"; do
    P=${PN%%:*}; N=${PN##*:}
    rm -rf /tmp/cold; mkdir -p /tmp/cold; chmod 700 /tmp/cold
    a=$(date +%s%N)
    CUDA_CACHE_DISABLE=1 SRGFN_CACHE_DIR=/tmp/cold timeout 100 $B fft --prime "$P" --random $N --output /tmp/cold_out.txt 2>> $R/cold.log
    b=$(date +%s%N)
    echo "cold build + fft $N $P: $(( (b - a) / 1000000 )) ms" | tee -a $R/cold.txt
  done ;;
diag)
  # diagnostic builds of the fused kernel (results not checked): A reads the twiddle table at
  # tt & 255 (cache-resident), B skips the twiddle products
  for D in A B; do
    SRGFN_CACHE_DIR=/tmp/diag$D timeout 100 ./.gpu/srgfn-diag$D bench --prime "$K4" --prime "$K8" --min-log 18 --max-log 24 --radix 2 --variant local --fuse on --reps 10 --no-baselines --json $R/diag$D.json > /dev/null 2> $R/diag$D.log; stamp "diag $D rc=$?"
  done ;;
bench)
  timeout 200 $B bench --prime "$K4" --prime "$K8" --prime "$K2" --min-log 14 --max-log 24 --radix 2 --variant local --fuse on,off --reps 10 --no-baselines --json $R/bf.json > $R/bf.txt 2> $R/bf.log; stamp "fused/unfused rc=$?"
  timeout 200 $B bench --prime "$K4" --prime "$K8" --prime "$K2" --min-log 14 --max-log 24 --radix 2 --variant local --reps 10 --no-baselines --json $R/bd.json > $R/bd.txt 2> $R/bd.log; stamp "default rc=$?"
  timeout 120 $B bench --prime "$K4" --prime "$K8" --min-log 16 --max-log 24 --small-primes-only --reps 10 --json $R/bs.json > $R/bs.txt 2> $R/bs.log; stamp "small primes rc=$?" ;;
esac; done
tar cf $OUT/v9.tar -C $R .
python3 - <<'PY'
import json,glob
for f in sorted(glob.glob('/tmp/v9/b*.json')+glob.glob('/tmp/v9/diag*.json')):
    try: recs=json.load(open(f))['records']
    except Exception as e: print(f,e); continue
    for r in recs:
        v=r['variant'].replace('srgfn-','').replace('-wide64-ptx','')
        if r['log_n'] in (16,18,20,22,24) and 'smallprimes' not in v:
            print(r['prime'][-6:],r['log_n'],v,round(r['median_ms'],3),[round(x,3) for x in r.get('kernel_ms') or []][:8])
PY
stamp done
