#!/bin/bash
# v8a: f_mul loop form in tiles of T coefficients (SRGFN_MUL_TILE, 1 = the v7 loop) at k = 32, 64, 128.
set -u
B=./.gpu/srgfn
R=$OUT/tile; mkdir -p $R
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
for T in 1 8 4; do
  export SRGFN_MUL_TILE=$T
  timeout 100 $B bench --prime "(2^62+2^56)^32+1" --prime "(2^63-2^40)^64+1" --micro-only --reps 3 --json $R/micro-t$T.json > $R/micro-t$T.txt 2> $R/micro-t$T.log
  stamp "micro T=$T rc=$?"
  timeout 100 $B bench --prime "(2^62+2^56)^32+1" --min-log 18 --max-log 20 --radix 2 --variant table --reps 5 --no-baselines --json $R/b32-t$T.json > $R/b32-t$T.txt 2> $R/b32-t$T.log
  stamp "k32 T=$T rc=$?"
  timeout 100 $B bench --prime "(2^63-2^40)^64+1" --prime "(2^64-2^28)^128+1" --min-log 16 --max-log 16 --radix 2 --reps 3 --no-baselines --json $R/b64-t$T.json > $R/b64-t$T.txt 2> $R/b64-t$T.log
  stamp "k64/128 T=$T rc=$?"
done
python3 - <<'PY'
import json,os,glob
R=os.environ['OUT']+'/tile'
for T in (1,8,4):
  for f in (f'{R}/micro-t{T}.json',):
    try:
      d=json.load(open(f))
      for m in d.get('micro',[]) : print('T',T,'micro',m['k'],m['kernel'],m['mul'],m['ptx'],round(m['rate_g'],4),m['agrees'])
    except Exception as e: print('T',T,f,e)
  for f in (f'{R}/b32-t{T}.json',f'{R}/b64-t{T}.json'):
    try:
      for r in json.load(open(f))['records']: print('T',T,r['prime'],r['log_n'],r['variant'],round(r['median_ms'],3),[round(x,3) for x in r['kernel_ms']])
    except Exception as e: print('T',T,f,e)
PY
