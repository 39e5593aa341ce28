#!/bin/bash
# v48 (device machine, .gpu carried): build options of one binary against each other, k = 8's and
# k = 16's defaults, one process per configuration, the first with both baselines.
#   CONFIGS: "name:options[:binary[:VAR=value,…]] …", the binary under .gpu (default srgfn), the
#     environment its process gets besides SRGFN_CL_OPTIONS=options (v49: SRGFN_REGISTER_CAPS=0);
#     default configs: base, a quarter of the products left out, no products
#     v48's first call: CONFIGS="base: pf384:-DSRGFN_EXP_L2PF=384 pf1024:-DSRGFN_EXP_L2PF=1024"
#   TAG: the folder under $OUT (default v48); KS: the primes' k (default "8 16");
#   LOGS8, LOGS16: the first and last log2 N (default "18 24", "18 22")
# Details under $OUT/$TAG; a short table last.
set -u
CONFIGS=${CONFIGS:-base: skipq:-DSRGFN_EXP_SKIP_QUARTER noprod:-DSRGFN_ABLATE_PRODUCTS base2:}
TAG=${TAG:-v48}; R=$OUT/$TAG; mkdir -p $R
K8="(2^63+2^34)^8+1"; K16="(2^62+2^36)^16+1"
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
for k in ${KS:-8 16}; do
  read -r lo hi <<< "${LOGS8:-18 24}"; P=$K8
  [ $k = 16 ] && { read -r lo hi <<< "${LOGS16:-18 22}"; P=$K16; }
  L="--min-log $lo --max-log $hi"
  extra=""
  for c in $CONFIGS; do
    IFS=: read -r name o bin envs <<< "$c"
    cache=/tmp/cache-$name; mkdir -p $cache; chmod 700 $cache
    env ${envs//,/ } SRGFN_CACHE_DIR=$cache SRGFN_CL_OPTIONS="$o" timeout 280 ./.gpu/${bin:-srgfn} bench --prime "$P" $L --default-variant $extra \
      --reps 20 --json $R/$name-$k.json > $R/$name-$k.txt 2>&1
    stamp "$name-$k rc=$?"
    extra="--no-baselines"
  done
done
python3 - "$R" <<'PY'
import json, sys, os, glob
R = sys.argv[1]
rows = {}
for f in sorted(glob.glob(os.path.join(R, '*.json')), key=os.path.getmtime):
    name = os.path.basename(f)[:-5].rsplit('-', 1)[0]
    for r in json.load(open(f))['records']:
        v = r['variant']
        rows.setdefault((r['k'], name if v.startswith('srgfn') else v), {})[r['log_n']] = r['median_ms']
for k in (8, 16):
    keys = [key for key in rows if key[0] == k]
    logs = sorted({n for key in keys for n in rows[key]})
    print(f'k = {k} ms  ' + ' '.join(f'2^{n:<7}' for n in logs))
    for key in keys:
        print(f'{key[1][:24]:24} ' + ' '.join(f'{rows[key].get(n, float("nan")):<9.4f}' for n in logs))
PY
cd $OUT && tar cf $TAG.tar $TAG && rm -rf $TAG
