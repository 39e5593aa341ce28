#!/bin/bash
# v37 (device machine, .gpu carried): cold builds (empty program cache, NVIDIA's cache off) of the
# kernels k = 4 needs at 2^20 and 2^24 and k = 8 at 2^16 (fused local launches: with launch tables
# since v37 the fused kernel is built twice, for the plan's table and for launch tables), with
# .gpu/srgfn-init (ACC_INIT, one fused build) and .gpu/srgfn, twice each; wall time of
# `srgfn fft --random 2^L`, device start included.
set -u
K4="(2^64-2^50)^4+1"; K8="(2^63+2^34)^8+1"
. "$(dirname "$0")/cold.sh"
for i in 1 2; do
  for B in srgfn-init srgfn; do cold $B "$K4" 20; cold $B "$K4" 24; cold $B "$K8" 16; done
done
