#!/bin/bash
# v36 (device machine, .gpu carried): the default plans whose last two passes run as one launch (emit::tail2),
# end to end with --verify (random input, 2 random output points against the definition): k = 8 at 2^17 ... 2^23
# (N = K^e s), once with --superblocks off, k = 16 at 2^21 ... 2^23, and a product (N = 2^21); one line per run in
# $OUT/verify.txt.
set -u
K8="(2^63+2^34)^8+1"; K16="(2^62+2^36)^16+1"; B=./.gpu/srgfn
export SRGFN_CACHE_DIR=/tmp/srgfn-verify-cache SRGFN_WISDOM=off; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
run() { local what=$1; shift; out=$(timeout 120 $B fft "$@" --verify --format bin --output /tmp/v.bin 2>&1 | grep -i -E 'verif|error' | tail -1); echo "$what: rc=$? $out" | tee -a $OUT/verify.txt; }
for L in 17 18 19 21 22 23; do run "k=8 fft 2^$L" --prime "$K8" --random 2^$L; done
run "k=8 fft 2^22 --superblocks off" --prime "$K8" --random 2^22 --superblocks off
for L in 21 22 23; do run "k=16 fft 2^$L" --prime "$K16" --random 2^$L; done
$B random --prime "$K8" --count 600000 --seed 1 --output /tmp/a.txt; $B random --prime "$K8" --count 500000 --seed 2 --output /tmp/b.txt
out=$(timeout 200 $B polymul --prime "$K8" /tmp/a.txt /tmp/b.txt --output /tmp/c.txt --verify 2>&1 | grep -i -E 'verif|error' | tail -1)
echo "k=8 polymul 600000 x 500000: $out" | tee -a $OUT/verify.txt
