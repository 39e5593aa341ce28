#!/bin/bash
# v41d (device machine, .gpu carried): k = 8's default variant at radix 2 against radix 4, 2^19-2^24,
# with v41's plans (halves, the fork on an event), two rounds of one process each; a table last.
set -u
R=$OUT/v41d; mkdir -p $R
K8="(2^63+2^34)^8+1"
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
for i in 1 2; do
  ./.gpu/srgfn bench --prime "$K8" --min-log 19 --max-log 24 --default-variant --radix 2,4 --reps 20 --no-baselines --json $R/r-$i.json > $R/r-$i.txt 2>&1
done
python3 - $R <<'PY' | tee $R/summary.txt
import json, glob, sys, collections
t = collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1] + '/r-*.json')):
    for r in json.load(open(f))['records']:
        t[(r['log_n'], r['variant'])].append(r['median_ms'])
for n in sorted(set(k[0] for k in t)):
    v = {var: x for (m, var), x in t.items() if m == n}
    r2 = [x for var, x in v.items() if '-r2-' in var][0]; r4 = [x for var, x in v.items() if '-r4-' in var][0]
    print('2^%d r2 %s r4 %s  r2/r4 %.3f' % (n, ' '.join('%.4f' % x for x in r2), ' '.join('%.4f' % x for x in r4), min(r2) / min(r4)))
PY
cd $OUT && tar cf v41d.tar v41d && rm -rf v41d
