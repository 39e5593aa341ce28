#!/bin/bash
# Nsight Compute on one Stockham pass kernel (device machine, .gpu carried; v33).  NVIDIA's OpenCL
# cannot be profiled by ncu, but its program binary is PTX: the kernels are built by srgfn into a
# program cache, the pass's PTX is taken from it (its %envreg work offsets replaced by 0) and
# launched through the CUDA driver API by scripts/gpu/ncu_pass.c with arbitrary digits (timing only).
#   scripts/gpu/ncu_pass.sh TAG PRIME VARIANT RADIX LOG_N P
# VARIANT local, table or digits (one level per launch; local with --fuse off), or fused (the
# local variant's two levels per launch, --fuse on); P the pass's p (1: the first pass, its own kernel
# where it has one).  Writes $OUT/ncu-TAG.txt (sections: speed of light,
# occupancy, warp states, schedulers, pipes, memory, instructions, launch), $OUT/ncu-TAG-stalls.txt
# (stall reasons per issued instruction, each pipe's share of its peak), and
# prints the launch's plain time (5 runs) and a summary.
set -u
TAG=$1; PRIME=$2; V=$3; RX=$4; L=$5; P=$6
B=./.gpu/srgfn; export PATH=/usr/local/cuda/bin:$PATH
C=/tmp/ncu-cache-$TAG; E=/tmp/ncu-emit-$TAG; rm -rf $C $E; mkdir -p $C; chmod 700 $C
FUSE=""; BV=$V; FA=""
[ $V = local ] && FUSE="--fuse off"
[ $V = fused ] && { FUSE="--fuse on"; BV=local; FA=fused; }
# the table kernels take `layout` before count too (v43): the digits pass's argument order
[ $V = digits -o $V = table ] && FA=digits
SRGFN_CACHE_DIR=$C $B bench --prime "$PRIME" --variant $BV --radix $RX $FUSE --min-log $L --max-log $L --reps 1 --no-baselines > /dev/null 2>&1
$B emit --prime "$PRIME" --radix $RX --ptx --out $E > /dev/null
# the entry, its work-group (THREADS work-items, G blocks) and K from the manifest
read -r K NAME THREADS G <<< "$(python3 - $E/manifest.json $V $P <<'PY'
import json, re, sys
m = json.load(open(sys.argv[1])); v, p = sys.argv[2], int(sys.argv[3])
fused = v == 'fused'
# the largest radix's pass (plans may mix in a smaller radix)
radix = lambda kern: int(re.match(r'dft(\d+)_', kern['name']).group(1)) if kern['name'].startswith('dft') else 0
for kern in sorted(m['kernels'], key=lambda kern: -radix(kern)):
    if fused and kern['name'].endswith('_fused') or not fused and kern.get('variant') == v and kern['name'].endswith('_first') == (p == 1) and 'fused' not in kern['name']:
        g, t = re.match(r'ceil\(count / (\d+)\) \* (\d+)', kern['global_work_size']).groups()
        print(m['base_size'], kern['name'], t, g); break
PY
)"
[ -n "${NAME:-}" ] || { echo "no $V pass kernel in the manifest"; exit 1; }
for f in $C/*.bin; do
  python3 scripts/gpu/cache_ptx.py $f /tmp/ncu-x.ptx
  grep -q "entry $NAME(" /tmp/ncu-x.ptx && cp /tmp/ncu-x.ptx /tmp/ncu-$TAG.ptx
done
sed -i -E "s/%envreg[0-9]+/0/g" /tmp/ncu-$TAG.ptx
gcc -O2 -I/usr/local/cuda/include -o /tmp/ncu_pass scripts/gpu/ncu_pass.c -L/usr/local/cuda/lib64 -lcuda || exit 1
# the pass's radix R from the entry's name (the digits variant of k = 64 runs DFT_64 blocks, K = 128);
# the table has N/K entries (w^(N/K) = r), the exponents are (t (i mod p)) << log2(N / (R p))
R=$(echo $NAME | sed -E 's/^dft([0-9]+)_.*/\1/')
LK=$(python3 -c "print(($K).bit_length() - 1)"); LR=$(python3 -c "print(($R).bit_length() - 1)"); LP=$(python3 -c "print(($P).bit_length() - 1)")
LOGT=$((L - LK)); TWS=$((L - LR - LP)); k=$((K / 2))
ARGS="/tmp/ncu-$TAG.ptx $NAME $THREADS $G $L $P $LOGT $TWS"
echo "$TAG: $NAME, N = 2^$L, p = $P, $THREADS work-items of $G blocks"
/tmp/ncu_pass $ARGS 5 $k $R $FA | tail -2
SEC="--section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section InstructionStats --section LaunchStats"
timeout 240 ncu $SEC --launch-skip 2 --launch-count 1 /tmp/ncu_pass $ARGS 3 $k $R $FA > $OUT/ncu-$TAG.txt 2>&1
M="regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,regex:sm__pipe_.*_cycles_active\.avg\.pct_of_peak_sustained_active,regex:sm__inst_executed_pipe_.*\.avg\.pct_of_peak_sustained_active"
timeout 240 ncu --metrics "$M" --launch-skip 2 --launch-count 1 /tmp/ncu_pass $ARGS 3 $k $R $FA > $OUT/ncu-$TAG-stalls.txt 2>&1
grep -E "SM Frequency|Duration|Issue Slots Busy|Registers Per|Achieved Active Warps|Eligible Warps" $OUT/ncu-$TAG.txt
grep -E "stalled|sm__pipe_(alu|fma|fmaheavy|lsu)_cycles" $OUT/ncu-$TAG-stalls.txt | awk '$NF+0 >= 0.1 { sub(/smsp__average_warps_issue_stalled_/, "stall "); sub(/_per_issue_active.ratio/, ""); print "  " $1, $2, $NF }'
