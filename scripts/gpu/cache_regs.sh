#!/bin/bash
# Registers and spills of every kernel in srgfn program caches (device machine): each cached
# program's PTX (scripts/gpu/cache_ptx.py) through `ptxas -v` for sm_90.
#   scripts/gpu/cache_regs.sh CACHE_DIR …     one line per kernel: cache entry registers spill-bytes
set -u
PTXAS=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
for C in "$@"; do
  for f in "$C"/*.bin; do
    python3 scripts/gpu/cache_ptx.py "$f" /tmp/cache_regs.ptx || continue
    "$PTXAS" -v --gpu-name sm_90 -o /tmp/cache_regs.cubin /tmp/cache_regs.ptx 2>&1 |
      awk -v c="$(basename "$C")" '/Compiling entry function/ { k = $7; gsub(/[^A-Za-z0-9_]/, "", k) }
        /bytes spill stores/ { s = $5 } /Used [0-9]+ registers/ { print c, k, $5, s + 0 }'
  done
done
