#!/bin/bash
# v31's calls, with .gpu/srgfn (the new binary) and .gpu/srgfn-v30 (the session's base, a2b9d71):
#   scripts/gpu/v31.sh vote   the digits store phase's vote of the work-group (scripts/gpu/v31-vote.runs:
#                             k = 128 and k = 16's digits variant, both binaries in one call, twice for
#                             k = 128), NVIDIA's registers and SASS counts of the digits programs, then
#                             srgfn check of every variant with the new binary ($OUT/checks.txt)
#   scripts/gpu/v31.sh final  the final binary against v30 (v31-final.runs; v31-noptx.runs with
#                             SRGFN_PTX=0) and its srgfn check of every variant
#   scripts/gpu/v31.sh barriers  ablations of the stage barriers (v31-barriers.runs; timings only)
#   scripts/gpu/v31.sh rot    v31b's rotated reads (.gpu/srgfn) against v31 (.gpu/srgfn-v31), srgfn check
#   scripts/gpu/v31.sh defaults  srgfn check of the final binary and its defaults (v31-defaults.runs)
set -u
case $1 in
vote)
  rm -rf /tmp/v20-bench /tmp/cache-srgfn-*
  CACHE_PER_RUN=1 PTX=1 PTX_SHOW='r4_digits$' bash scripts/gpu/v20.sh bench scripts/gpu/v31-vote.runs > $OUT/bench.txt 2>&1
  bash scripts/gpu/v20.sh checks > $OUT/checks.txt 2>&1; grep "check " $OUT/checks.txt
  tail -40 $OUT/bench.txt ;;
final)
  # the vote chosen in Rust (k <= 64): the final binary against v30 with PTX (k = 8, 16 digits, k = 128
  # unchanged) and without it (SRGFN_PTX=0: every k's store phase through local memory; k = 32, 64
  # with the vote, 128 without), srgfn check of every variant
  rm -rf /tmp/v20-bench /tmp/cache-srgfn-*
  CACHE_PER_RUN=1 PTX=1 PTX_SHOW='dft(32|64)_r4_digits$' bash scripts/gpu/v20.sh bench scripts/gpu/v31-final.runs > $OUT/bench.txt 2>&1
  mv /tmp/v20-bench /tmp/v20-bench-ptx; tar cf $OUT/v20-bench-ptx.tar -C /tmp/v20-bench-ptx .
  rm -rf /tmp/cache-srgfn-*
  SRGFN_PTX=0 CACHE_PER_RUN=1 bash scripts/gpu/v20.sh bench scripts/gpu/v31-noptx.runs > $OUT/bench-noptx.txt 2>&1
  bash scripts/gpu/v20.sh checks > $OUT/checks.txt 2>&1; grep "check " $OUT/checks.txt
  grep -E "^[a-z0-9]+ " $OUT/bench.txt | tail -30; grep -E "^[a-z0-9]+ " $OUT/bench-noptx.txt | tail -30 ;;
rot)
  # v31b: the rotated reads of the table and digits variants' stages (ROT_GET) with the sign as a mask,
  # against v31 (.gpu/srgfn-v31) in one call, NVIDIA's registers and SASS counts, srgfn check of every variant
  rm -rf /tmp/v20-bench /tmp/cache-srgfn-*
  CACHE_PER_RUN=1 PTX=1 PTX_SHOW='dft(32|64)_r[24]_(table|digits)$' bash scripts/gpu/v20.sh bench scripts/gpu/v31-rot.runs > $OUT/bench.txt 2>&1
  bash scripts/gpu/v20.sh checks > $OUT/checks.txt 2>&1; grep "check " $OUT/checks.txt
  grep -E "^[a-z0-9]+ " $OUT/bench.txt | tail -40 ;;
defaults)
  # the final binary: srgfn check of every variant, then its defaults (v31-defaults.runs; k = 8 and 16
  # with both baselines)
  bash scripts/gpu/v20.sh checks > $OUT/checks.txt 2>&1; grep "check " $OUT/checks.txt
  rm -rf /tmp/v20-bench /tmp/cache-srgfn-*
  CACHE_PER_RUN=1 bash scripts/gpu/v20.sh bench scripts/gpu/v31-defaults.runs > $OUT/bench.txt 2>&1
  grep -E "^[a-z0-9]+ " $OUT/bench.txt | grep -v "ntt\|recombine" | tail -45 ;;
barriers)
  # what the stage barriers of the table (k = 16) and local (k = 8) variants cost: ablations
  # (-DSRGFN_ABLATE_STAGE_BARRIERS, -DSRGFN_ABLATE_STAGES, -DSRGFN_ABLATE_PRODUCTS; wrong results)
  rm -rf /tmp/v20-bench /tmp/cache-srgfn-*
  CACHE_PER_RUN=1 bash scripts/gpu/v20.sh bench scripts/gpu/v31-barriers.runs > $OUT/bench.txt 2>&1
  grep -E "^[a-z0-9-]+ " $OUT/bench.txt | tail -40 ;;
esac
