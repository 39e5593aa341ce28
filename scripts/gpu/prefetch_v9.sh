#!/bin/bash
# v9c (experiment, not kept): a binary whose local and fused load loops issue the next
# element's load before this element's product (.gpu/srgfn) against the v9 binary
# (.gpu/srgfn-v9) in the same session, then srgfn check of the local variant.  Any two
# binaries can be compared this way; results in docs/perf/h200-v9/prefetch/.
#   scripts/gpu/prefetch_v9.sh [bench] [check]
set -u
R=/tmp/v9c; mkdir -p $R
STEPS="${*:-bench check}"
K2="(2^63+2^53)^2+1"; K4="(2^64-2^50)^4+1"; K8="(2^63+2^34)^8+1"
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
for S in $STEPS; do case $S in
bench)
  for B in srgfn-v9 srgfn; do
    export SRGFN_CACHE_DIR=/tmp/cache-$B; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
    timeout 150 ./.gpu/$B bench --prime "$K4" --prime "$K8" --min-log 16 --max-log 24 --radix 2 --variant local --fuse off,on --reps 10 --no-baselines --json $R/$B.json > /dev/null 2> $R/$B.log; stamp "$B rc=$?"
  done ;;
check)
  SRGFN_CACHE_DIR=/tmp/cache-srgfn timeout 300 ./.gpu/srgfn check --prime "$K2" --prime "$K4" --prime "$K8" --variant local > $R/check.txt 2> $R/check.log
  stamp "check rc=$?: $(grep -c '^ok' $R/check.txt) ok, $(grep -c '^FAIL' $R/check.txt) failed"; grep '^FAIL' $R/check.txt | head ;;
esac; done
tar cf $OUT/v9c.tar -C $R .
python3 - <<'PY'
import json,os
rows={}
for b in ('srgfn-v9','srgfn'):
    f='/tmp/v9c/%s.json'%b
    if not os.path.exists(f): continue
    for r in json.load(open(f))['records']:
        rows.setdefault((r['prime'][-6:],r['log_n'],r['variant'].replace('srgfn-','').replace('-wide64-ptx','')),{})[b]=(r['median_ms'],[round(x,3) for x in r['kernel_ms']])
for k,v in sorted(rows.items()):
    a=v.get('srgfn-v9',(0,[])); b=v.get('srgfn',(0,[]))
    print(*k, 'v9', round(a[0],3), 'new', round(b[0],3), a[1][:6], b[1][:6])
PY
stamp done
