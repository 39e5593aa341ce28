#!/bin/bash
# v11b (the carry into each coefficient as one PTX chain, in f_mul and f_mul_lazy): srgfn check
# of the variants whose f_mul changed beyond k <= 16's local/table (compare.sh's check step covers those):
# k = 16's workgroup variant and the digits variant (pointwise products, field operations) of k >= 32.
set -u
R=/tmp/v11c; mkdir -p $R
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
timeout 200 ./.gpu/srgfn check --prime "(2^62+2^36)^16+1" --prime "(2^62+2^56)^32+1" --variant workgroup,digits > $R/check-k16-k32.txt 2> $R/check-k16-k32.log
stamp "k16/k32 rc=$?: $(grep -c '^ok' $R/check-k16-k32.txt) ok, $(grep -c '^FAIL' $R/check-k16-k32.txt) failed"; grep '^FAIL' $R/check-k16-k32.txt | head
timeout 330 ./.gpu/srgfn check --prime "(2^63-2^40)^64+1" --prime "(2^64-2^28)^128+1" --variant digits > $R/check-k64-k128.txt 2> $R/check-k64-k128.log
stamp "k64/k128 rc=$?: $(grep -c '^ok' $R/check-k64-k128.txt) ok, $(grep -c '^FAIL' $R/check-k64-k128.txt) failed"; grep '^FAIL' $R/check-k64-k128.txt | head
tail -n 3 $R/*.log
tar cf $OUT/v11c.tar -C $R .
