#!/usr/bin/env bash
# The main job on the default device (first GPU, else PoCL on the CPU): a real
# polynomial product of 100 000 × 100 000 coefficients over (2^63+2^34)^8+1,
# checked at random points, plus the catalog and a root of unity.
set -euo pipefail
SRGFN=${1:-./target/release/srgfn}
P="(2^63+2^34)^8+1"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
echo "== devices"
"$SRGFN" devices
echo "== catalog (thesis Table 3.1, each prime re-validated, valuations recomputed)"
"$SRGFN" primes list
echo "== ω for N = 2^20 over $P"
"$SRGFN" roots --prime "$P" --n 2^20
echo "== polynomial product over $P: 100000 × 100000 random coefficients"
"$SRGFN" random --prime "$P" --count 100000 --seed 1 --output "$WORK/a.txt"
"$SRGFN" random --prime "$P" --count 100000 --seed 2 --output "$WORK/b.txt"
"$SRGFN" polymul --prime "$P" "$WORK/a.txt" "$WORK/b.txt" --output "$WORK/c.txt" --verify
lines=$(wc -l < "$WORK/c.txt")
[ "$lines" -eq 199999 ] || { echo "demo: expected 199999 coefficients, got $lines" >&2; exit 1; }
echo "== demo passed: 199999 product coefficients, verified"
