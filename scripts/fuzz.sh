#!/usr/bin/env bash
# Runs every cargo-fuzz target for a bounded time (default 60 s each; FUZZ_SECONDS overrides).
# Needs cargo-fuzz (installed here if missing) and libFuzzer's -Z flags: a nightly
# toolchain when rustup has one, else stable with RUSTC_BOOTSTRAP=1 and no sanitizer.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
SECONDS_EACH=${FUZZ_SECONDS:-60}
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  FUZZ="cargo +nightly fuzz"; SAN=()
else
  export RUSTC_BOOTSTRAP=1; FUZZ="cargo fuzz"; SAN=(--sanitizer none)
fi
for target in prime_parser element_reader field_arith; do
  # run on a scratch copy of the committed seed corpus (fuzz/corpus stays small)
  work=target/corpus/$target
  mkdir -p "$work" && cp corpus/$target/* "$work"/
  echo "== $target: ${SECONDS_EACH}s"
  $FUZZ run "${SAN[@]}" $target "$work" -- -max_total_time=$SECONDS_EACH -max_len=4096 2>&1 | grep -E "Done|SUMMARY|panicked|crash-" || true
  if ls artifacts/$target/crash-* >/dev/null 2>&1; then echo "FINDINGS in fuzz/artifacts/$target"; exit 1; fi
done
