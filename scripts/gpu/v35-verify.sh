#!/bin/bash
# v35 (device machine, .gpu carried): the default plans of k = 8 end to end with --verify (random input,
# 2 random output points against the definition) at 2^16 ... 2^24, both superblock settings, and a
# product; one line per run in $OUT/verify.txt.
set -u
K8="(2^63+2^34)^8+1"; B=./.gpu/srgfn
export SRGFN_CACHE_DIR=/tmp/srgfn-verify-cache SRGFN_WISDOM=off; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
for L in 16 17 18 20 22 24; do for SB in on off; do
  out=$(timeout 120 $B fft --prime "$K8" --random 2^$L --superblocks $SB --verify --format bin --output /tmp/v.bin 2>&1 | grep -i -E 'verif|error' | head -2 | tr '\n' ' ')
  echo "fft 2^$L --superblocks $SB: rc=$? $out" | tee -a $OUT/verify.txt
done; done
$B random --prime "$K8" --count 600000 --seed 1 --output /tmp/a.txt; $B random --prime "$K8" --count 500000 --seed 2 --output /tmp/b.txt
out=$(timeout 200 $B polymul --prime "$K8" /tmp/a.txt /tmp/b.txt --output /tmp/c.txt --verify 2>&1 | grep -i -E 'verif|error' | head -2 | tr '\n' ' ')
echo "polymul 600000 x 500000: $out" | tee -a $OUT/verify.txt
