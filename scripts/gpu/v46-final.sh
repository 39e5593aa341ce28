#!/bin/bash
# v46 (device machine, .gpu carried): the final binary's checks beside v46-cold.sh's (k = 8 and 16,
# every variant): `srgfn check` of k = 2's and 4's table variant and of k = 32's digits variant,
# and a k = 128 product of random polynomials verified against the host, in binary format.
set -u
R=$OUT/v46-final; mkdir -p $R
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
export SRGFN_WISDOM=off SRGFN_CACHE_DIR=/tmp/cache-final; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
ck() { # ck NAME TIMEOUT ARGS…
  local name=$1 limit=$2; shift 2
  timeout $limit ./.gpu/srgfn check "$@" > $R/$name.txt 2> $R/$name.log
  echo "$name rc=$?: $(grep -c '^ok' $R/$name.txt) ok, $(grep -c '^FAIL' $R/$name.txt) failed; $(tail -n 1 $R/$name.log)" | tee -a $R/checks.txt
  stamp $name
}
ck check24 120 --prime "(2^63+2^53)^2+1" --prime "(2^64-2^50)^4+1" --variant table
ck check32 100 --prime "(2^62+2^56)^32+1" --variant digits
P="(2^64-2^28)^128+1"
./.gpu/srgfn random --prime "$P" --count 600 --seed 1 --output /tmp/a.txt 2>/dev/null
./.gpu/srgfn random --prime "$P" --count 500 --seed 2 --output /tmp/b.txt 2>/dev/null
SRGFN_TRACE=1 timeout 60 ./.gpu/srgfn polymul --prime "$P" /tmp/a.txt /tmp/b.txt --output /tmp/c.txt --verify > $R/polymul128.txt 2>&1
echo "polymul128 rc=$?: $(grep -c 'built' $R/polymul128.txt) programs built; $(grep -i 'verif' $R/polymul128.txt | tail -n 1)" | tee -a $R/checks.txt
stamp polymul128
cd $OUT && tar cf v46-final.tar v46-final && rm -rf v46-final
