#!/bin/bash
# v47 (device machine, .gpu carried): the final binary on the GPU, and what bounds the small-primes
# target: k = 8's and k = 16's defaults with both baselines in one process, and the same plans
# with every twiddle product left out (-DSRGFN_ABLATE_PRODUCTS: wrong results, timing only).
#   check:   srgfn check of k = 8's table variant and k = 32's digits variant (the element-wise
#            kernels from their new files among them)
#   f8, f16: defaults with both baselines (f8.json, f16.json)
#   n8, n16: the same plans without twiddle products, no baselines (n8.json, n16.json)
# STEPS picks steps.  Details under $OUT/v47; a short table last.
set -u
STEPS=" ${STEPS:-check f8 n8 f16 n16} "; has() { [[ $STEPS == *" $1 "* ]]; }
R=$OUT/v47; mkdir -p $R
K8="(2^63+2^34)^8+1"; K16="(2^62+2^36)^16+1"
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
if has check; then
  for c in "check8:$K8:table" "check32:(2^62+2^56)^32+1:digits"; do
    IFS=: read -r name P V <<< "$c"
    mkdir -p /tmp/cache-$name; chmod 700 /tmp/cache-$name
    SRGFN_WISDOM=off SRGFN_CACHE_DIR=/tmp/cache-$name timeout 300 ./.gpu/srgfn check --prime "$P" --variant $V > $R/$name.txt 2> $R/$name.log
    echo "$name rc=$?: $(grep -c '^ok' $R/$name.txt) ok, $(grep -c '^FAIL' $R/$name.txt) failed; $(tail -n 1 $R/$name.log)" | tee -a $R/checks.txt
    stamp $name
  done
fi
bench() { # bench NAME OPTIONS ARGS…
  local name=$1 o=$2; shift 2
  mkdir -p /tmp/cache-$name; chmod 700 /tmp/cache-$name
  SRGFN_CACHE_DIR=/tmp/cache-$name SRGFN_CL_OPTIONS="$o" timeout 280 ./.gpu/srgfn bench "$@" --reps 20 --json $R/$name.json > $R/$name.txt 2>&1
  stamp "$name rc=$?"
}
has f8 && bench f8 "" --prime "$K8" --min-log 16 --max-log 24 --default-variant
has n8 && bench n8 "-DSRGFN_ABLATE_PRODUCTS" --prime "$K8" --min-log 16 --max-log 24 --default-variant --no-baselines
has f16 && bench f16 "" --prime "$K16" --min-log 16 --max-log 22 --default-variant
has n16 && bench n16 "-DSRGFN_ABLATE_PRODUCTS" --prime "$K16" --min-log 16 --max-log 22 --default-variant --no-baselines
cat $R/checks.txt 2>/dev/null
python3 - "$R" <<'PY'
import json, sys, os
R = sys.argv[1]
for k in (8, 16):
    rows = {}
    for tag in ('f', 'n'):
        f = os.path.join(R, f'{tag}{k}.json')
        if not os.path.exists(f): continue
        for r in json.load(open(f))['records']:
            v = r['variant']
            key = 'srgfn' if v.startswith('srgfn') else v
            if tag == 'n' and key == 'srgfn': key = 'no products'
            rows.setdefault(key, {})[r['log_n']] = r['median_ms']
    logs = sorted({n for v in rows.values() for n in v})
    print(f'k = {k} ms  ' + ' '.join(f'2^{n:<7}' for n in logs))
    for key in ('srgfn', 'no products', 'baseline-smallprimes-s16', 'baseline-smallprimes-s32'):
        if key in rows: print(f'{key[:24]:24} ' + ' '.join(f'{rows[key].get(n, float("nan")):<9.4f}' for n in logs))
PY
cd $OUT && tar cf v47.tar v47 && rm -rf v47
