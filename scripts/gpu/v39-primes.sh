#!/bin/bash
# v39 (device machine, .gpu carried): `srgfn check` of every variant on primes outside the
# catalog (found by `srgfn primes search`), so that the NVIDIA-only paths (PTX carry chains,
# the series splits, the shift-and-add divisions, warp stages, register caps, launch tables)
# run for radices r = 2^w ± 2^u other than the catalog's.  One process per prime, side by side
# (each is bound by NVIDIA's compiler on one core).  Details in $OUT/primes.tar.
set -u
B=./.gpu/srgfn; R=/tmp/v39-primes; rm -rf $R; mkdir -p $R
t0=$(date +%s)
i=0
for P in "$@"; do i=$((i+1))
  ( C=/tmp/cache-p$i; mkdir -p $C; chmod 700 $C
    SRGFN_CACHE_DIR=$C timeout ${LIMIT:-540} $B check --prime "$P" > $R/check-$i.txt 2> $R/check-$i.log; echo $? > $R/rc-$i
    echo "$P" > $R/prime-$i ) &
done
wait
for j in $(seq 1 $i); do
  echo "[$(( $(date +%s) - t0 )) s] $(cat $R/prime-$j) rc=$(cat $R/rc-$j): $(grep -c '^ok' $R/check-$j.txt) ok, $(grep -c '^FAIL' $R/check-$j.txt) failed; $(tail -n 1 $R/check-$j.txt)"
  grep '^FAIL' $R/check-$j.txt | head -3
done
tar cf $OUT/primes.tar -C $R .
