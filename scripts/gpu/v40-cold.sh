#!/bin/bash
# v40 (device machine, .gpu carried): cold builds (empty program cache, NVIDIA's cache off) of the
# kernels k = 8 needs at 2^16 (since v40 the table variant with its passes in pairs: the table
# file holds the pair kernel too), 2^20 and 2^24, with .gpu/srgfn-v39 and .gpu/srgfn, twice each;
# wall time of `srgfn fft --random 2^L`, device start included.
set -u
K8="(2^63+2^34)^8+1"
. "$(dirname "$0")/cold.sh"
for i in 1 2; do
  for B in srgfn-v39 srgfn; do cold $B "$K8" 16; cold $B "$K8" 20; cold $B "$K8" 24; done
done
