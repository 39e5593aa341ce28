#!/bin/bash
# v32's calls, with .gpu/srgfn (the new binary) and .gpu/srgfn-v31 (the session's base, 2a0a0d8):
#   scripts/gpu/v32.sh warp   the table variant's stages in registers through the warp (v32-warp.runs: k = 16
#                             radix 2 and 4, k = 8 and 4 radix 4, both binaries in one call; k = 8's default
#                             local variant beside them; k = 16 without stages), NVIDIA's registers and SASS
#                             counts of the table programs, then srgfn check of every variant with the new binary
#   scripts/gpu/v32.sh layout  v32b: the warp stages' layout from the bank model, outputs in natural order and
#                             the stores of output runs (p < G), against v32a (.gpu/srgfn-w1) for the table
#                             variant at k = 2 … 16, the default local variant beside it (v32-layout.runs),
#                             then srgfn check of every variant with the new binary
#   scripts/gpu/v32.sh rows   v32c: the twiddled kernels back to v32a's compact rows, the first kernels keep v32b's
#                             searched layout; against v32b (.gpu/srgfn-w2), k = 8's local variant beside them
#                             (v32-rows.runs), then srgfn check of every variant with the new binary
#   scripts/gpu/v32.sh twiddled  v32d: the output runs' store only in the kernels whose p can be below G (the first
#                             pass; twiddled ones for k <= 4); against v32a (.gpu/srgfn-w1), k = 8's local
#                             variant beside them (v32-twiddled.runs), then srgfn check of every variant
#   scripts/gpu/v32.sh defaults  the final binary: srgfn check of every variant, then each prime's per-size default
#                             (--default-variant; k = 8 and 16 with both baselines) against v31's defaults for
#                             k = 8 and 16 (v32-defaults.runs)
set -u
# bench RUNS [PTX_SHOW]: the runs file on a fresh program cache (NVIDIA's registers and SASS counts of
# the kernels PTX_SHOW names, if given), its records kept as $OUT/v20-bench.tar
bench() {
  rm -rf /tmp/v20-bench /tmp/cache-srgfn-*
  if [ -n "${2:-}" ]; then
    CACHE_PER_RUN=1 PTX=1 PTX_SHOW="$2" bash scripts/gpu/v20.sh bench "$1" > $OUT/bench.txt 2>&1
  else
    CACHE_PER_RUN=1 bash scripts/gpu/v20.sh bench "$1" > $OUT/bench.txt 2>&1
  fi
  tar cf $OUT/v20-bench.tar -C /tmp/v20-bench .
}
# srgfn check of every variant with the new binary
checks() { bash scripts/gpu/v20.sh checks > $OUT/checks.txt 2>&1; grep "check " $OUT/checks.txt; }
table() { grep -E "^[a-z0-9-]+ " $OUT/bench.txt | grep -v "ntt\|recombine" | tail -70; }
case $1 in
warp) bench scripts/gpu/v32-warp.runs 'dft(8|16|32)_r[24]_table$'; checks; table ;;
layout) bench scripts/gpu/v32-layout.runs 'dft(4|8|16|32)_r[24]_table$'; checks; table ;;
rows) bench scripts/gpu/v32-rows.runs 'dft(8|16|32)_r[24]_table(_first)?$'; checks; table ;;
twiddled) bench scripts/gpu/v32-twiddled.runs 'dft(8|16|32)_r[24]_table(_first)?$'; checks; table ;;
defaults) checks; bench scripts/gpu/v32-defaults.runs; table ;;
esac
