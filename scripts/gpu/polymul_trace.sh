#!/bin/bash
# polymul 2^20 + 2^20 over (2^63+2^34)^8+1 on the GPU with the phases of poly_mul (SRGFN_TRACE).
set -u
B=./.gpu/srgfn; P8="(2^63+2^34)^8+1"
export SRGFN_CACHE_DIR=/tmp/srgfn-cache
$B random --prime "$P8" --count 1048576 --seed 1 --output /tmp/a.txt; $B random --prime "$P8" --count 1048576 --seed 2 --output /tmp/b.txt
for i in 1 2; do SRGFN_TRACE=1 $B polymul --prime "$P8" /tmp/a.txt /tmp/b.txt --output /tmp/c$i.txt 2>&1 | tail -9; done
cmp /tmp/c1.txt /tmp/c2.txt && echo "runs agree"
$B polymul --prime "$P8" /tmp/a.txt /tmp/b.txt --device Portable --output /tmp/c3.txt 2>&1 | tail -1; cmp /tmp/c1.txt /tmp/c3.txt && echo "GPU = PoCL"
