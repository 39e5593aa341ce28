#!/usr/bin/env bash
# Runs cargo-fuzz targets for a bounded time each (default 60 s; FUZZ_SECONDS
# overrides), one after the other: the targets named as arguments, else all.
# Needs cargo-fuzz (installed here if missing) and libFuzzer's -Z flags: a nightly
# toolchain when rustup has one, else stable with RUSTC_BOOTSTRAP=1 and no sanitizer.
# api_sequence drives the OpenCL runtime (PoCL): it runs without a sanitizer
# (the driver is not instrumented) and with a larger memory limit.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
SECONDS_EACH=${FUZZ_SECONDS:-60}
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  FUZZ="cargo +nightly fuzz"; SAN=()
else
  export RUSTC_BOOTSTRAP=1; FUZZ="cargo fuzz"; SAN=(--sanitizer none)
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(prime_parser element_reader field_arith api_sequence)
for target in "${targets[@]}"; do
  san=("${SAN[@]}"); opts=(-max_len=4096)
  if [ "$target" = api_sequence ]; then san=(--sanitizer none); opts=(-max_len=512 -rss_limit_mb=4096 -timeout=900); fi
  # run on a scratch copy of the committed seed corpus (fuzz/corpus stays small)
  work=target/corpus/$target
  mkdir -p "$work" && cp corpus/$target/* "$work"/
  echo "== $target: ${SECONDS_EACH}s"
  $FUZZ run "${san[@]}" $target "$work" -- -max_total_time=$SECONDS_EACH "${opts[@]}" 2>&1 | grep -E "Done|SUMMARY|panicked|crash-" || true
  if ls artifacts/$target/crash-* >/dev/null 2>&1; then echo "FINDINGS in fuzz/artifacts/$target"; exit 1; fi
done
