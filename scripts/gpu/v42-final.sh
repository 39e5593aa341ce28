#!/bin/bash
# v42's final binary (device machine, .gpu carried): srgfn check of every variant
# (scripts/gpu/v20.sh checks), then k = 8, 4 and 16 defaults with both baselines (medians timed by
# their ends since v42); details under $OUT/v42-final.tar, a short table last.
set -u
R=$OUT/v42-final; mkdir -p $R
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
SRGFN_WISDOM=off bash scripts/gpu/v20.sh checks > $R/checks.txt 2>&1
cp -r /tmp/v20-checks $R/checks; tail -n 5 $R/checks.txt
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
./.gpu/srgfn bench --prime "(2^63+2^34)^8+1" --min-log 16 --max-log 24 --default-variant --reps 20 --json $R/f8.json > $R/f8.txt 2>&1
./.gpu/srgfn bench --prime "(2^64-2^50)^4+1" --min-log 16 --max-log 24 --default-variant --reps 20 --json $R/f4.json > $R/f4.txt 2>&1
./.gpu/srgfn bench --prime "(2^62+2^36)^16+1" --min-log 16 --max-log 22 --default-variant --reps 10 --json $R/f16.json > $R/f16.txt 2>&1
stamp done
python3 - $R <<'PY'
import json, sys
R = sys.argv[1]
for f in ('f8', 'f4', 'f16'):
    for r in json.load(open(f'{R}/{f}.json'))['records']:
        if r['variant'].startswith('srgfn') or r['variant'].endswith('s16') or r['variant'].endswith('s8') or r['variant'].endswith('s32'):
            print(f"k={r['k']:2} 2^{r['log_n']} {r['variant']:36} {r['median_ms']:.4f} (profiled {r.get('profiled_median_ms', 0):.4f})")
PY
cd $OUT && tar cf v42-final.tar v42-final && rm -rf v42-final
