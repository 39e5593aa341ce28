#!/usr/bin/env bash
# The main job on the default device: validate the catalog, find primes,
# print a root of unity and check it.
set -euo pipefail
SRGFN=${1:-./target/release/srgfn}
P="(2^63+2^34)^8+1"
echo "== catalog (Table 3.1, valuations recomputed)"
"$SRGFN" primes list
echo "== search: k = 8, r = 2^63 ± 2^u"
"$SRGFN" primes search --k 8 --w-min 63 --w-max 63
echo "== ω for N = 2^20 over $P"
"$SRGFN" roots --prime "$P" --n 2^20
