#!/bin/bash
# v39 side experiment (device machine): read-only pass pointers marked restrict (SRGFN_EXP_RESTRICT=1) against
# none, one binary, alternated.  .gpu/srgfn-restrict is built with docs/perf/h200-v39/restrict/restrict.patch
# applied (not kept: level, docs/performance-versions.md "v39").
set -u
B=./.gpu/srgfn-restrict; R=$OUT/restrict; mkdir -p $R
K4="(2^64-2^50)^4+1"; K8="(2^63+2^34)^8+1"; K16="(2^62+2^36)^16+1"
for side in off on; do mkdir -p /tmp/c-$side; chmod 700 /tmp/c-$side; done
run() { # side tag args...
  local side=$1 tag=$2; shift 2
  if [ $side = on ]; then export SRGFN_EXP_RESTRICT=1; else unset SRGFN_EXP_RESTRICT; fi
  SRGFN_CACHE_DIR=/tmp/c-$side SRGFN_WISDOM=off timeout 200 $B bench "$@" --default-variant --reps 20 --no-baselines --json $R/$tag-$side.json > $R/$tag-$side.txt 2>&1
}
for i in 1 2; do for side in off on; do
  run $side k8-$i --prime "$K8" --min-log 18 --max-log 24 --radix 4
  run $side k4-$i --prime "$K4" --min-log 20 --max-log 24 --radix 4
  run $side k16-$i --prime "$K16" --min-log 20 --max-log 20 --radix 2
done; done
unset SRGFN_EXP_RESTRICT
SRGFN_EXP_RESTRICT=1 SRGFN_CACHE_DIR=/tmp/c-on SRGFN_WISDOM=off timeout 300 $B check --prime "$K8" --variant table > $R/check-table-on.txt 2>&1; echo "check rc=$?: $(tail -n1 $R/check-table-on.txt)"
python3 - $R <<'PY'
import json, glob, sys, collections
t = collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1] + '/k*.json')):
    tag, side = f.rsplit('/', 1)[1][:-5].rsplit('-', 1)
    pr = tag.split('-')[0]
    for r in json.load(open(f))['records']:
        t[(pr, r['log_n'], side)].append(r['median_ms'])
keys = sorted({(a, b) for a, b, _ in t})
for a, b in keys:
    off, on = t[(a, b, 'off')], t[(a, b, 'on')]
    print(a, '2^%d' % b, 'off', ' '.join('%.4f' % x for x in off), ' on', ' '.join('%.4f' % x for x in on), ' on/off %.3f' % (sum(on) / sum(off)))
PY
tar cf $OUT/restrict.tar -C $R .
