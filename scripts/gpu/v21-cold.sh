#!/bin/bash
# Cold builds (empty program cache, NVIDIA's cache off) of one transform's kernels: the wall time
# of `srgfn fft --random 2^L --format bin`, device start included.  Every catalog prime with
# .gpu/srgfn, and the local-variant cases with .gpu/srgfn-base beside them.  Output in
# $OUT/cold.txt.
set -u
K2="(2^63+2^53)^2+1"; K4="(2^64-2^50)^4+1"; K8="(2^63+2^34)^8+1"; K16="(2^62+2^36)^16+1"
K32="(2^62+2^56)^32+1"; K64="(2^63-2^40)^64+1"; K128="(2^64-2^28)^128+1"
. "$(dirname "$0")/cold.sh"
for PL in "$K2:20" "$K4:20" "$K8:16" "$K8:20"; do cold srgfn-base "${PL%:*}" "${PL##*:}"; cold srgfn "${PL%:*}" "${PL##*:}"; done
for PL in "$K16:20" "$K32:18" "$K64:16" "$K128:16"; do cold srgfn "${PL%:*}" "${PL##*:}"; done
