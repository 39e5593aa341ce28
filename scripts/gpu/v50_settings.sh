#!/bin/bash
# v50 (device machine, .gpu carried): one binary's plan settings against its defaults, one process
# per setting, alternated, the first with both baselines.
#   SETTINGS: "name:flags[:binary[:VAR=value,…]] …" with the flags' spaces as commas, e.g.
#     "fuse:--fuse,on chain:--chain,on", the binary under .gpu (default $BIN), the environment its
#     process gets (e.g. SRGFN_CL_OPTIONS=-DX); each setting its own program cache
#   PRIME, LOGS ("lo hi"), REPS (default 30), TAG (the folder under $OUT), BIN (default srgfn)
# Details under $OUT/$TAG; a short table last.
set -u
TAG=${TAG:-v50}; R=$OUT/$TAG; mkdir -p $R
read -r lo hi <<< "${LOGS:-18 20}"
extra=""
for s in $SETTINGS; do
  IFS=: read -r name flags bin envs <<< "$s"
  cache=/tmp/cache-$name; mkdir -p $cache; chmod 700 $cache
  env ${envs//,/ } SRGFN_CACHE_DIR=$cache timeout 200 ./.gpu/${bin:-${BIN:-srgfn}} bench --prime "$PRIME" --min-log $lo --max-log $hi --default-variant ${flags//,/ } $extra \
    --reps ${REPS:-30} --json $R/$name.json > $R/$name.txt 2>&1
  echo "$name rc=$?"
  extra="--no-baselines"
done
python3 - "$R" <<'PY'
import json, sys, os, glob
R = sys.argv[1]
rows = {}
for f in sorted(glob.glob(os.path.join(R, '*.json')), key=os.path.getmtime):
    name = os.path.basename(f)[:-5]
    for r in json.load(open(f))['records']:
        v = r['variant']
        rows.setdefault(name if v.startswith('srgfn') else v, {})[r['log_n']] = r['median_ms']
logs = sorted({n for row in rows.values() for n in row})
print('ms' + ' ' * 23 + ' '.join(f'2^{n:<7}' for n in logs))
for key, row in rows.items():
    print(f'{key[:24]:24} ' + ' '.join(f'{row.get(n, float("nan")):<9.4f}' for n in logs))
PY
cd $OUT && tar cf $TAG.tar $TAG && rm -rf $TAG
