#!/bin/bash
# v26: srgfn check of the digits variant (k = 32, 64, 128) with a side binary, in the background of a bench call.
#   B=.gpu/srgfn-new scripts/gpu/v26-check.sh &   (writes $OUT/check-digits.txt)
B=${B:-./.gpu/srgfn-new}
K32="(2^62+2^56)^32+1"; K64="(2^63-2^40)^64+1"; K128="(2^64-2^28)^128+1"
mkdir -p /tmp/cache-check-digits; chmod 700 /tmp/cache-check-digits
SRGFN_CACHE_DIR=/tmp/cache-check-digits timeout 500 $B check --prime "$K32" --prime "$K64" --prime "$K128" --variant digits > $OUT/check-digits.txt 2> $OUT/check-digits.log
echo "check digits rc=$?: $(grep -c '^ok' $OUT/check-digits.txt) ok, $(grep -c '^FAIL' $OUT/check-digits.txt) failed; $(tail -n 1 $OUT/check-digits.log)" > $OUT/check-digits.summary
