#!/bin/bash
# v40 (device machine, .gpu carried): k = 8 at 2^16 … 2^18, the default (the table variant with
# its passes in pairs at 2^16 and 2^17, emit::TABLE_PAIRS_DEFAULT_LOG_N; with --variant table, as
# the default variant chooses there) against the table
# variant unfused, the fused local variant and the small primes, each its own process,
# alternated ROUNDS times so that clock and queue drift between processes falls on all four.
set -u
K8="(2^63+2^34)^8+1"; B=./.gpu/srgfn; R=$OUT/small; mkdir -p $R
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
A="--prime $K8 --min-log ${MIN:-16} --max-log ${MAX:-18} --radix 4 --reps ${REPS:-50}"
# SIDES (default: "default unfused local sp"); "fused" is the table variant with pairs asked for
args() { case $1 in default) echo "--variant table";; unfused) echo "--variant table --fuse off";; fused) echo "--variant table --fuse on";;
  local) echo "--variant local --fuse on";; sp) echo "--small-primes-only";; esac; }
for i in $(seq 1 ${ROUNDS:-5}); do
  for S in ${SIDES:-default unfused local sp}; do
    NB=--no-baselines; [ $S = sp ] && NB=
    $B bench $A $(args $S) $NB --json $R/$S-$i.json > $R/$S-$i.txt 2>&1
  done
done
python3 - $R <<'PY' | tee $R/summary.txt
import json, glob, sys, collections, statistics
t = collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1] + '/*.json')):
    side = f.rsplit('/', 1)[1].split('-')[0]
    for r in json.load(open(f))['records']:
        if side != 'sp' or r['variant'].endswith('s16'):
            t[(r['log_n'], side)].append((r['median_ms'], r['variant']))
for key in sorted(t):
    v = [x for x, _ in t[key]]
    print(key, t[key][0][1], 'median of medians %.4f' % statistics.median(v), ' '.join('%.4f' % x for x in v))
PY
