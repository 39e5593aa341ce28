#!/bin/bash
# Registers, stack frame and spills of every emitted kernel on sm_90, without a GPU:
# `srgfn emit --ptx --micro` for each catalog prime and radix, clang's NVPTX back end to PTX,
# then `ptxas -v` (and `cuobjdump -sass` for the SASS listings).  NVIDIA's OpenCL compiler
# makes its own PTX, so the counts are close to, not equal to, what the driver builds
# (docs/performance.md compares them).
#
#   scripts/ptxas_report.sh [OUTDIR]      (default /tmp/srgfn-ptxas)
#
# Needs: target/release/srgfn, clang (CLANG, default clang-15) with the NVPTX target, ptxas
# (PTXAS), optionally cuobjdump (CUOBJDUMP).  Writes OUTDIR/report.txt, one line per kernel:
#   prime radix file kernel registers stack_bytes spill_store_bytes spill_load_bytes
set -eu
OUT=${1:-/tmp/srgfn-ptxas}
SRGFN=${SRGFN:-target/release/srgfn}
CLANG=${CLANG:-clang-15}
PTXAS=${PTXAS:-ptxas}
CUOBJDUMP=${CUOBJDUMP:-cuobjdump}
for t in "$SRGFN" "$CLANG" "$PTXAS"; do
  command -v "$t" > /dev/null || { echo "missing: $t" >&2; exit 1; }
done
mkdir -p "$OUT"
# The OpenCL built-ins the kernels use, for clang's NVPTX target (it declares none of them)
PRELUDE=$OUT/nvprelude.h
cat > "$PRELUDE" <<'EOF'
#define get_local_id(d) ((d)==0 ? (ulong)__nvvm_read_ptx_sreg_tid_x() : (d)==1 ? (ulong)__nvvm_read_ptx_sreg_tid_y() : (ulong)__nvvm_read_ptx_sreg_tid_z())
#define get_group_id(d) ((d)==0 ? (ulong)__nvvm_read_ptx_sreg_ctaid_x() : (d)==1 ? (ulong)__nvvm_read_ptx_sreg_ctaid_y() : (ulong)__nvvm_read_ptx_sreg_ctaid_z())
#define get_local_size(d) ((d)==0 ? (ulong)__nvvm_read_ptx_sreg_ntid_x() : (d)==1 ? (ulong)__nvvm_read_ptx_sreg_ntid_y() : (ulong)__nvvm_read_ptx_sreg_ntid_z())
#define get_global_id(d) (get_group_id(d) * get_local_size(d) + get_local_id(d))
#define barrier(f) __syncthreads()
static inline ulong srgfn_mulhi(ulong a, ulong b) { ulong r; __asm__("mul.hi.u64 %0, %1, %2;" : "=l"(r) : "l"(a), "l"(b)); return r; }
#define mul_hi(a, b) srgfn_mulhi((a), (b))
void __syncthreads(void) __asm("llvm.nvvm.barrier0");
#define asm __asm__
EOF
CLFLAGS=(-include "$PRELUDE")
REPORT=$OUT/report.txt
: > "$REPORT"
PRIMES=$("$SRGFN" primes list --json 2> /dev/null | python3 -c 'import json,sys; [print(p["expr"]) for p in json.load(sys.stdin)]')
for P in $PRIMES; do
  for R in 2 4; do
    d=$OUT/$(echo "$P" | tr -c 'A-Za-z0-9\n' '_')_r$R
    rm -rf "$d"
    "$SRGFN" emit --prime "$P" --radix $R --ptx --micro --out "$d" 2> /dev/null
    for f in "$d"/*.cl; do
      [ "$(basename "$f")" = field.cl ] && continue
      b=${f%.cl}
      if ! "$CLANG" -x cl -cl-std=CL1.2 -target nvptx64-nvidia-cuda -Xclang -target-feature -Xclang +ptx75 -march=sm_80 -O3 -S \
           "${CLFLAGS[@]}" -o "$b.ptx" "$f" 2> "$b.err"; then
        echo "$P r$R $(basename "$f") - clang-failed - - -" >> "$REPORT"
        continue
      fi
      "$PTXAS" -v --gpu-name sm_90 -o "$b.cubin" "$b.ptx" 2>&1 | awk -v p="$P" -v r=$R -v f="$(basename "$f")" '
        /Compiling entry/ { k = $0; sub(/.*function ./, "", k); sub(/. for .*/, "", k) }
        /stack frame/ { st = $1; ss = $5; sl = $9 }
        /Used [0-9]+ registers/ { match($0, /Used [0-9]+/); print p, "r" r, f, k, substr($0, RSTART + 5, RLENGTH - 5), st, ss, sl }' >> "$REPORT"
      command -v "$CUOBJDUMP" > /dev/null && "$CUOBJDUMP" -sass "$b.cubin" > "$b.sass" 2> /dev/null || true
    done
  done
done
echo "$(wc -l < "$REPORT") kernels: $REPORT"
