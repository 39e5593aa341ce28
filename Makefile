# srgfn — set-up, demo and tests on a fresh Debian/Ubuntu machine (run as root).
#   make demo   installs what is missing, builds, runs a checked job on the default device
#   make test   installs what is missing, runs the whole test suite (PoCL when no GPU)

SHELL := /bin/bash
CARGO ?= cargo
APT_PACKAGES := pocl-opencl-icd ocl-icd-opencl-dev

.PHONY: deps build demo test bench doc clean

deps:
	@command -v $(CARGO) >/dev/null || { echo "error: Rust is not installed: install it with rustup (https://rustup.rs), then re-run make" >&2; exit 1; }
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

build: deps
	$(CARGO) build --release

demo: build
	./scripts/demo.sh ./target/release/srgfn

test: deps
	$(CARGO) test --workspace --no-fail-fast

bench: build
	$(CARGO) bench

doc:
	$(CARGO) doc --workspace --no-deps

clean:
	$(CARGO) clean

.PHONY: fuzz
# Fuzz every target for FUZZ_SECONDS (default 60) each; not part of CI.
fuzz:
	./scripts/fuzz.sh
