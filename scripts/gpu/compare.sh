#!/bin/bash
# A kernel change on the GPU: srgfn check of the variants it touches, then the new binary
# (.gpu/srgfn) against the session's base binary (.gpu/srgfn-base) in one call, alternating.
#   scripts/gpu/compare.sh TAG [STEP ...]     (default steps: check bench)
# check        the local variant of k = 2, 4, 8 and the table variant of k = 16
# checkwg      the workgroup variant of k = 8 and 16
# checktable   the table variant of k = 2 ... 32
# checkdigits  the digits variant of k = 32, 64 and 128
# bench        k = 2, 4, 8 (local) twice and k = 16 (table), base and new
# benchlocal   k = 2, 4, 8 (local) twice
# benchdefault k = 4 (local, radix 2) and k = 8 (local, radix 4), their default kernels, twice
# bench16      k = 16 (table) alone, twice
# benchdigits  the digits variant of k = 32, 64 and 128, base and new
# benchvariants k = 8 (local, table, digits) and k = 16 (table, digits) at radix 2 and 4, every side
# fuse         fused against unfused launches and the small-primes baseline, new binary only
# cold         a cold build (empty caches, NVIDIA's too) of one transform's kernels per catalog
#              prime with the new binary, wall time of `srgfn fft --random`
# ptx          the registers, spills and SASS instruction counts of every kernel each side's
#              benchmarks built: NVIDIA's program binaries (PTX) from the side's program cache,
#              through ptxas -v and cuobjdump (run it after a bench step)
# The benchmarks pin one radix (RADIX, default 2) so that every binary runs kernels of the same
# shape whatever its default radix.  SIDES (default "base new") names the binaries: new is
# .gpu/srgfn, any other side X is .gpu/srgfn-X.  Everything lands in $OUT/TAG.tar; a table of
# each side against base is printed last.
set -u
TAG=$1; shift
B=./.gpu/srgfn
R=/tmp/$TAG; mkdir -p $R
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
STEPS="${*:-check bench}"
SIDES=${SIDES:-base new}; RADIX=${RADIX:-2}
K2="(2^63+2^53)^2+1"; K4="(2^64-2^50)^4+1"; K8="(2^63+2^34)^8+1"; K16="(2^62+2^36)^16+1"
K32="(2^62+2^56)^32+1"; K64="(2^63-2^40)^64+1"; K128="(2^64-2^28)^128+1"
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
# bench_side SIDE NAME TIMEOUT ARGS...: one benchmark of one side's binary (own cache) into $R/NAME.*
bench_side() {
  local V=$1 NAME=$2 T=$3 BIN=$B; shift 3; [ $V = new ] || BIN=$B-$V
  SRGFN_CACHE_DIR=/tmp/cache-$V timeout $T $BIN bench "$@" --no-baselines --json $R/$NAME.json > $R/$NAME.txt 2> $R/$NAME.log
  stamp "bench $NAME rc=$?"
}
# k = 2, 4, 8 (local), every side, twice
bench_local() {
  for round in 1 2; do for V in $SIDES; do
    bench_side $V b8-$V-$round 150 --prime "$K4" --prime "$K8" --prime "$K2" --min-log 16 --max-log 24 --radix $RADIX --variant local --reps 20
  done; done
}
checked() { stamp "check $1 rc=$2: $(grep -c '^ok' $R/check-$1.txt) ok, $(grep -c '^FAIL' $R/check-$1.txt) failed"; grep '^FAIL' $R/check-$1.txt | head; }
for S in $STEPS; do case $S in
check)
  timeout 280 $B check --prime "$K2" --prime "$K4" --prime "$K8" --variant local > $R/check-local.txt 2> $R/check-local.log; checked local $?
  timeout 200 $B check --prime "$K16" --variant table > $R/check-table.txt 2> $R/check-table.log; checked table $? ;;
checkwg)
  timeout 200 $B check --prime "$K8" --prime "$K16" --variant workgroup > $R/check-wg.txt 2> $R/check-wg.log; checked wg $? ;;
checktable)
  timeout 300 $B check --prime "$K2" --prime "$K4" --prime "$K8" --prime "$K16" --prime "$K32" --variant table > $R/check-tables.txt 2> $R/check-tables.log; checked tables $? ;;
checkdigits)
  timeout 300 $B check --prime "$K32" --prime "$K64" --prime "$K128" --variant digits > $R/check-digits.txt 2> $R/check-digits.log; checked digits $? ;;
benchdigits)
  for V in $SIDES; do
    for KL in "$K32:20" "$K64:18" "$K128:16"; do
      P=${KL%:*}; L=${KL##*:}
      bench_side $V bd-$V-k$(echo "$P" | sed 's/.*)^\([0-9]*\)+1/\1/') 120 --prime "$P" --min-log 14 --max-log $L --radix $RADIX --variant digits --reps 5
    done
  done ;;
bench16)
  for round in 1 2; do for V in $SIDES; do bench_side $V b16-$V-$round 100 --prime "$K16" --min-log 16 --max-log 22 --radix $RADIX --variant table --reps 10; done; done ;;
benchdefault)
  for round in 1 2; do for V in $SIDES; do
    bench_side $V b8-$V-$round-k4 120 --prime "$K4" --min-log 16 --max-log 24 --radix 2 --variant local --reps 20
    bench_side $V b8-$V-$round-k8 120 --prime "$K8" --min-log 16 --max-log 24 --radix 4 --variant local --reps 20
  done; done ;;
benchlocal)
  bench_local ;;
benchvariants)
  for V in $SIDES; do
    bench_side $V bv-$V-k8 150 --prime "$K8" --min-log 16 --max-log 22 --radix 2,4 --variant local,table,digits --reps 10
    bench_side $V bv-$V-k16 150 --prime "$K16" --min-log 16 --max-log 22 --radix 2,4 --variant table,digits --reps 10
  done ;;
bench)
  bench_local
  for V in $SIDES; do bench_side $V b16-$V 100 --prime "$K16" --min-log 16 --max-log 22 --radix $RADIX --variant table --reps 10; done ;;
fuse)
  timeout 200 $B bench --prime "$K4" --prime "$K8" --min-log 16 --max-log 22 --radix $RADIX --variant local --fuse on,off --reps 20 --no-baselines --json $R/bf.json > $R/bf.txt 2> $R/bf.log; stamp "fused/unfused rc=$?"
  timeout 150 $B bench --prime "$K4" --prime "$K8" --min-log 16 --max-log 24 --small-primes-only --reps 20 --json $R/bs.json > $R/bs.txt 2> $R/bs.log; stamp "small primes rc=$?" ;;
cold)
  export CUDA_CACHE_DISABLE=1
  for PL in "$K2:20" "$K4:20" "$K8:16" "$K8:20" "$K16:20" "$K32:18" "$K64:16" "$K128:16"; do
    P=${PL%:*}; L=${PL##*:}; rm -rf /tmp/cold; mkdir -p /tmp/cold; chmod 700 /tmp/cold
    a=$(date +%s%N); SRGFN_CACHE_DIR=/tmp/cold timeout 120 $B fft --prime "$P" --random 2^$L --format bin --output /tmp/cold-out.bin 2>> $R/cold.log; rc=$?; b=$(date +%s%N)
    echo "cold build + fft 2^$L $P: $(( (b - a) / 1000000 )) ms rc=$rc" | tee -a $R/cold.txt
  done
  unset CUDA_CACHE_DISABLE ;;
ptx)
  PTXAS=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas); CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
  $PTXAS --version | tail -1
  mkdir -p $R/ptx
  for V in $SIDES; do for f in /tmp/cache-$V/*.bin; do
    b=$R/ptx/$V-$(basename $f .bin | cut -c1-12)
    python3 scripts/gpu/cache_ptx.py $f $b.ptx
    $PTXAS -v --gpu-name sm_90 -o $b.cubin $b.ptx > $b.txt 2>&1
    $CUOBJ -sass $b.cubin > $b.sass 2>/dev/null
    awk -v v=$V '/Compiling entry function/ { k = $7 } /Used [0-9]+ registers/ { print v, k, $0 }' $b.txt >> $R/ptx.txt
    awk -v v=$V '/Function :/ { if (k) print v, k, n; k = $3; n = 0 } /^ +\/\*[0-9a-f]+\*\// && !/NOP/ { n++ } END { if (k) print v, k, n }' $b.sass | sed 's/^/SASS /' >> $R/ptx.txt
    rm -f $b.cubin $b.sass; gzip -f $b.ptx
  done; done
  stamp "ptx: $(grep -c registers $R/ptx.txt) kernels"; grep "dft" $R/ptx.txt | sort | uniq | head -60 ;;
esac; done
tar cf $OUT/$TAG.tar -C $R .
R=$R SIDES="$SIDES" python3 - <<'PY'
import json, glob, collections, os
R = os.environ['R']
for f in (R + '/bf.json', R + '/bs.json'):
    if not os.path.exists(f): continue
    try: recs = json.load(open(f))['records']
    except Exception as e: print(f, e); continue
    for r in recs: print(r['prime'][-6:], r['log_n'], r['variant'], round(r['median_ms'], 4))
t = collections.defaultdict(dict)
sides = os.environ.get('SIDES', 'base new').split()
for f in sorted(glob.glob(R + '/b8-*.json') + glob.glob(R + '/b16-*.json') + glob.glob(R + '/bd-*.json') + glob.glob(R + '/bv-*.json')):
    side = os.path.basename(f).split('-')[1]
    try: recs = json.load(open(f))['records']
    except Exception as e: print(f, e); continue
    for r in recs:
        if 'smallprimes' in r['variant']: continue
        t[(r['prime'][-6:], r['log_n'], r['variant'] if '/bv-' in f else '')].setdefault(side, []).append(r['median_ms'])
if t: print('prime  logN  ' + '  '.join(s + '_ms' for s in sides) + '  ' + '  '.join(s + '/base' for s in sides if s != 'base'))
for key in sorted(t):
    ms = [min(t[key][s]) if t[key].get(s) else None for s in sides]
    b = t[key].get('base')
    ratios = [round(m / min(b), 3) if (m and b) else '-' for s, m in zip(sides, ms) if s != 'base']
    print(key[0], key[1], key[2], *[round(m, 4) if m else '-' for m in ms], *ratios)
PY
stamp done
