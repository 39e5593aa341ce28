# srgfn — set-up, demo and tests on a fresh Debian/Ubuntu machine (run as root).
#   make install  installs what is missing, builds, copies srgfn to BINDIR
#   make demo     installs what is missing, builds, runs a checked job on the default device
#   make test     installs what is missing, runs the whole test suite (PoCL when no GPU)
#   make lint     cargo fmt --check, clippy and rustdoc with warnings as errors (CI runs it)

SHELL := /bin/bash
CARGO ?= cargo
APT_PACKAGES := pocl-opencl-icd ocl-icd-opencl-dev
# Where `make install` puts srgfn: /usr/local/bin as root, else ~/.cargo/bin (on PATH with rustup).
BINDIR ?= $(if $(filter 0,$(shell id -u)),/usr/local/bin,$(HOME)/.cargo/bin)

.PHONY: deps build install demo test lint bench doc clean

deps:
	@command -v $(CARGO) >/dev/null || { echo "error: Rust is not installed: install it with rustup (https://rustup.rs), then re-run make" >&2; exit 1; }
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

build: deps
	$(CARGO) build --release --locked

install: build
	install -D -m 0755 target/release/srgfn $(DESTDIR)$(BINDIR)/srgfn
	@echo "installed $(DESTDIR)$(BINDIR)/srgfn"
	@case ":$$PATH:" in *":$(BINDIR):"*) ;; *) echo "note: $(BINDIR) is not on PATH: add it, or run make install BINDIR=DIR" >&2 ;; esac

demo: build
	./scripts/demo.sh ./target/release/srgfn

# SRGFN_WISDOM=off: the tests run the built-in per-size defaults, whatever `srgfn tune` recorded here
test: deps
	SRGFN_WISDOM=off $(CARGO) test --workspace --no-fail-fast

# rustfmt and clippy come with rustup's default profile; the minimal profile lacks them
lint: deps
	@if command -v rustup >/dev/null; then for c in rustfmt clippy; do rustup component list --installed | grep -q "^$$c" || rustup component add $$c; done; fi
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps --locked

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
