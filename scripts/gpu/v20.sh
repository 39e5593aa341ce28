#!/bin/bash
# v20 session (device machine, .gpu carried).  Two modes, each one call:
#   scripts/gpu/v20.sh checks   srgfn check of every variant, the four runs side by side (each
#                               is bound by NVIDIA's compiler on one core; the GPU work is small)
#   scripts/gpu/v20.sh bench    the kernels of every benchmark built first, side by side, into the
#                               program cache; then the timed runs one after another:
#                               defaults with both baselines, k = 8 and 16 variants at radix 2
#                               and 4, and ablations (SRGFN_CL_OPTIONS) of the fused kernel and of
#                               k = 8's twiddled passes
# Details under $OUT/v20-MODE.tar; a short table last.  Options of bench (environment):
#   CHECK="variant ..."  srgfn check of .gpu/srgfn beside the builds (K2 … K16: keep it short)
#   PTX=1                NVIDIA's registers and SASS counts of the programs this call built
#                        (a warm machine's cache hides the others: rm -rf /tmp/cache-* first)
#   PTX_SHOW=REGEX       the entries printed from them; SASS=REGEX keeps their PTX and SASS
#   CACHE_PER_RUN=1      a program cache per run, so that PTX=1 tells the runs' kernels apart
set -u
MODE=$1; B=./.gpu/srgfn; R=/tmp/v20-$MODE; mkdir -p $R
K2="(2^63+2^53)^2+1"; K4="(2^64-2^50)^4+1"; K8="(2^63+2^34)^8+1"; K16="(2^62+2^36)^16+1"
K32="(2^62+2^56)^32+1"; K64="(2^63-2^40)^64+1"; K128="(2^64-2^28)^128+1"
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
case $MODE in
checks)
  chk() { local N=$1; shift; SRGFN_CACHE_DIR=/tmp/cache-$N timeout 560 $B check "$@" > $R/check-$N.txt 2> $R/check-$N.log; echo $? > $R/rc-$N; }
  for N in local table wg digits; do mkdir -p /tmp/cache-$N; chmod 700 /tmp/cache-$N; done
  chk local --prime "$K2" --prime "$K4" --prime "$K8" --variant local &
  chk table --prime "$K2" --prime "$K4" --prime "$K8" --prime "$K16" --prime "$K32" --variant table &
  chk wg --prime "$K8" --prime "$K16" --variant workgroup &
  chk digits --prime "$K32" --prime "$K64" --prime "$K128" --variant digits &
  wait
  for N in local table wg digits; do
    stamp "check $N rc=$(cat $R/rc-$N): $(grep -c '^ok' $R/check-$N.txt) ok, $(grep -c '^FAIL' $R/check-$N.txt) failed; $(tail -n 1 $R/check-$N.log)"
    grep '^FAIL' $R/check-$N.txt | head -5
  done ;;
bench)
  # name|timeout|SRGFN_CL_OPTIONS|bench arguments (eval'd); a second argument names another
  # runs file (scripts/gpu/v20-*.runs), whose lines may start with "side:" for .gpu/srgfn-side
  if [ -n "${2:-}" ]; then
    sed -e "s|\$K2|$K2|g; s|\$K4|$K4|g; s|\$K8|$K8|g; s|\$K16|$K16|g; s|\$K32|$K32|g; s|\$K64|$K64|g; s|\$K128|$K128|g" $2 > $R/runs
  else cat > $R/runs <<RUNS
def4|150||--prime "$K4" --min-log 16 --max-log 24 --reps 20
def8|200||--prime "$K8" --min-log 16 --max-log 24 --reps 20
def16|150||--prime "$K16" --min-log 16 --max-log 22 --reps 10
var8|150||--prime "$K8" --min-log 18 --max-log 22 --radix 2,4 --variant local,table --reps 10 --no-baselines
var16|150||--prime "$K16" --min-log 18 --max-log 22 --radix 2,4 --variant table,digits --reps 10 --no-baselines
fuse4|120||--prime "$K4" --min-log 20 --max-log 24 --radix 2 --variant local --fuse on,off --reps 10 --no-baselines
fuse4-noprod|120|-DSRGFN_ABLATE_PRODUCTS|--prime "$K4" --min-log 20 --max-log 24 --radix 2 --variant local --fuse on,off --reps 10 --no-baselines
fuse4-nostage|120|-DSRGFN_ABLATE_STAGES|--prime "$K4" --min-log 20 --max-log 24 --radix 2 --variant local --fuse on,off --reps 10 --no-baselines
k8-noprod|120|-DSRGFN_ABLATE_PRODUCTS|--prime "$K8" --min-log 20 --max-log 24 --radix 4 --variant local --reps 10 --no-baselines
k8-nostage|120|-DSRGFN_ABLATE_STAGES|--prime "$K8" --min-log 20 --max-log 24 --radix 4 --variant local --reps 10 --no-baselines
k16-noprod|120|-DSRGFN_ABLATE_PRODUCTS|--prime "$K16" --min-log 20 --max-log 22 --radix 2 --variant table --reps 10 --no-baselines
k16-nostage|120|-DSRGFN_ABLATE_STAGES|--prime "$K16" --min-log 20 --max-log 22 --radix 2 --variant table --reps 10 --no-baselines
RUNS
  fi
  ONLY=${ONLY:-}
  # a line "side:x" runs .gpu/srgfn-side and is named side-x (its logs, cache and JSON beside x's)
  binary_of() { BIN=$B; case $N in *:*) BIN=$B-${N%%:*}; N=${N%%:*}-${N#*:};; esac; }
  # warm-up: every run's kernels built side by side at the smallest size (a wrong result is
  # expected for the ablations: bench does not verify)
  while IFS='|' read -r N T O A; do
    [ -n "$ONLY" ] && ! echo " $ONLY " | grep -q " $N " && continue
    binary_of
    # CACHE_PER_RUN=1: a program cache per run, so that PTX=1 tells the runs' kernels apart
    C=/tmp/cache-${BIN##*/}${CACHE_PER_RUN:+-$N}; mkdir -p $C; chmod 700 $C
    W=$(echo "$A" | sed -E 's/--(min-log|max-log|reps) [0-9]+//g; s/--no-baselines//g')
    ( eval "SRGFN_CACHE_DIR=$C SRGFN_CL_OPTIONS='$O' timeout 300 $BIN bench $W --reps 1 --max-log 16 --min-log 16 --no-baselines" > $R/warm-$N.log 2>&1 ) &
  done < $R/runs
  # CHECK="variant ..." (optional): srgfn check of the new binary, side by side with the builds
  for V in ${CHECK:-}; do
    ( mkdir -p /tmp/cache-check-$V; chmod 700 /tmp/cache-check-$V
      SRGFN_CACHE_DIR=/tmp/cache-check-$V timeout 400 $B check --prime "$K2" --prime "$K4" --prime "$K8" --prime "$K16" --variant $V > $R/check-$V.txt 2> $R/check-$V.log ) &
  done
  wait; stamp "kernels built"
  for V in ${CHECK:-}; do stamp "check $V: $(grep -c '^ok' $R/check-$V.txt) ok, $(grep -c '^FAIL' $R/check-$V.txt) failed; $(tail -n 1 $R/check-$V.log)"; grep '^FAIL' $R/check-$V.txt | head -5; done
  while IFS='|' read -r N T O A; do
    [ -n "$ONLY" ] && ! echo " $ONLY " | grep -q " $N " && continue
    binary_of
    C=/tmp/cache-${BIN##*/}${CACHE_PER_RUN:+-$N}
    eval "SRGFN_CACHE_DIR=$C SRGFN_CL_OPTIONS='$O' timeout $T $BIN bench $A --json $R/$N.json" > $R/$N.txt 2> $R/$N.log
    stamp "bench $N rc=$?"
    tar cf $OUT/v20-$MODE.tar -C $R .
  done < $R/runs
  # PTX=1: NVIDIA's registers and SASS counts of every program each binary built
  if [ -n "${PTX:-}" ]; then
    PTXAS=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas); CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
    for C in /tmp/cache-srgfn /tmp/cache-srgfn-*; do [ -d $C ] || continue; V=${C#/tmp/cache-}; for f in $(find $C -name "*.bin" -newer $R/runs); do  # only this call's builds
      b=/tmp/ptx-$V-$(basename $f .bin | cut -c1-12)
      python3 scripts/gpu/cache_ptx.py $f $b.ptx
      $PTXAS -v --gpu-name sm_90 -o $b.cubin $b.ptx > $b.txt 2>&1
      $CUOBJ -sass $b.cubin > $b.sass 2>/dev/null
      # SASS="REGEX": keep the PTX and SASS of the programs whose entries match
      if [ -n "${SASS:-}" ] && grep -qE "$SASS" $b.txt; then mkdir -p $R/sass; cp $b.ptx $R/sass/$V-$(basename $b).ptx; cp $b.sass $R/sass/$V-$(basename $b).sass; fi
      awk -v v=$V '/Compiling entry function/ { k = $7 } /Used [0-9]+ registers/ { print v, k, $5, $6 }' $b.txt >> $R/regs.txt
      awk -v v=$V '/Function :/ { if (k) print v, k, n; k = $3; n = 0 } /^ +\/\*[0-9a-f]+\*\// && !/NOP/ { n++ } END { if (k) print v, k, n }' $b.sass | sed 's/^/SASS /' >> $R/regs.txt
    done; done
    sort -u $R/regs.txt | grep -E "${PTX_SHOW:-dft(4|8|16)_r[24]_local}" | sort -k2,2 -k1,1
  fi
  python3 - $R <<'PY'
import json, glob, os, sys
R = sys.argv[1]
for f in sorted(glob.glob(R + '/*.json')):
    try: recs = json.load(open(f))['records']
    except Exception as e: print(f, e); continue
    for r in recs:
        print(os.path.basename(f)[:-5].ljust(13), r['prime'][-6:], str(r['log_n']).rjust(2), r['variant'][:34].ljust(34), round(r['median_ms'], 4))
PY
  ;;
esac
tar cf $OUT/v20-$MODE.tar -C $R .
stamp done
