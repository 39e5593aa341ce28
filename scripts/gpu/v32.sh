#!/bin/bash
# v32's calls, with .gpu/srgfn (the new binary) and .gpu/srgfn-v31 (the session's base, 2a0a0d8):
#   scripts/gpu/v32.sh warp   the table variant's stages in registers through the warp (v32-warp.runs: k = 16
#                             radix 2 and 4, k = 8 and 4 radix 4, both binaries in one call; k = 8's default
#                             local variant beside them; k = 16 without stages), NVIDIA's registers and SASS
#                             counts of the table programs, then srgfn check of every variant with the new binary
set -u
case $1 in
warp)
  rm -rf /tmp/v20-bench /tmp/cache-srgfn-*
  CACHE_PER_RUN=1 PTX=1 PTX_SHOW='dft(8|16|32)_r[24]_table$' bash scripts/gpu/v20.sh bench scripts/gpu/v32-warp.runs > $OUT/bench.txt 2>&1
  tar cf $OUT/v20-bench.tar -C /tmp/v20-bench .
  bash scripts/gpu/v20.sh checks > $OUT/checks.txt 2>&1; grep "check " $OUT/checks.txt
  grep -E "^[a-z0-9-]+ " $OUT/bench.txt | tail -50 ;;
esac
