#!/bin/bash
# After a change of the digits template: srgfn check of the digits variant of every catalog prime
# (k = 2 ... 128, both radices), split so that each part stays within one call's time.
#   scripts/gpu/digits_check_v9.sh [small|large]
set -u
R=/tmp/v9d; mkdir -p $R
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
case "${1:-small}" in
small) PRIMES=("(2^63+2^53)^2+1" "(2^64-2^50)^4+1" "(2^63+2^34)^8+1" "(2^62+2^36)^16+1" "(2^62+2^56)^32+1") ;;
large) PRIMES=("(2^63-2^40)^64+1" "(2^64-2^28)^128+1") ;;
esac
ARGS=(); for P in "${PRIMES[@]}"; do ARGS+=(--prime "$P"); done
timeout 560 ./.gpu/srgfn check "${ARGS[@]}" --variant digits > $R/check-digits-${1:-small}.txt 2> $R/check-digits-${1:-small}.log
stamp "check rc=$?: $(grep -c '^ok' $R/check-digits-${1:-small}.txt) ok, $(grep -c '^FAIL' $R/check-digits-${1:-small}.txt) failed"
grep '^FAIL' $R/check-digits-${1:-small}.txt | head; tail -1 $R/check-digits-${1:-small}.log
tar cf $OUT/v9d.tar -C $R .
