#!/bin/bash
# v41 (device machine, .gpu carried): k = 8, 32 and 16 defaults with --halves on,off; each
# record holds every kernel's start (kernel_start_ms), drawn by scripts/plots/timeline.py
set -u
B=./.gpu/srgfn
export SRGFN_CACHE_DIR=/tmp/srgfn-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
K8="(2^63+2^34)^8+1"; K32="(2^62+2^56)^32+1"; K16="(2^62+2^36)^16+1"
$B bench --prime "$K8" --min-log 16 --max-log 22 --default-variant --radix 4 --halves on,off --reps 20 --no-baselines --json $OUT/k8.json > $OUT/k8.txt 2> $OUT/k8.log
$B bench --prime "$K32" --min-log 16 --max-log 20 --default-variant --halves on,off --reps 10 --no-baselines --json $OUT/k32.json > $OUT/k32.txt 2> $OUT/k32.log
$B bench --prime "$K16" --min-log 18 --max-log 22 --default-variant --halves on,off --reps 10 --no-baselines --json $OUT/k16.json > $OUT/k16.txt 2> $OUT/k16.log
grep -h "srgfn-" $OUT/k8.txt $OUT/k32.txt $OUT/k16.txt
