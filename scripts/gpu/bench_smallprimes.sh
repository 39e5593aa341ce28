#!/bin/bash
# The small-primes baseline alone (thesis ch. 7; srgfn bench --small-primes-only) on the device
# machine, with the release binary at ./.gpu/srgfn: s = 2k NTTs over 32-bit primes and the Garner
# recombination for k = 4 and 8 (N = 2^16 ... 2^24) and k = 16 (N = 2^16 ... 2^23, the limit of its
# 32 primes).  Prints, last, one line per (k, N): NTT ms, recombination ms, total ms (each the
# median of its own span over 20 runs), then every pass's ms, GB/s (s*N*4 bytes read + as many
# written; the twiddle tables, read from the caches, would add under 4% at N = 2^16 and under 1%
# from 2^18 on) and % of the copy bandwidth measured in the same run.
# JSON, tables and logs go to $OUT/smallprimes (or /tmp/smallprimes).  MIN_LOG / MAX_LOG narrow the
# sizes (a dry run on PoCL: MIN_LOG=10 MAX_LOG=11).
set -u
B=./.gpu/srgfn
R=${OUT:-/tmp}/smallprimes
mkdir -p "$R"
export SRGFN_CACHE_DIR=/tmp/srgfn-cache
run() {
  timeout "$4" $B bench --small-primes-only --prime "$2" --min-log "${MIN_LOG:-16}" --max-log "${MAX_LOG:-$3}" --reps 20 \
    --json "$R/$1.json" > "$R/$1.txt" 2> "$R/$1.log"
  echo "$1 rc=$?"
}
run k4 "(2^64-2^50)^4+1" 24 140
run k8 "(2^63+2^34)^8+1" 24 180
run k16 "(2^62+2^36)^16+1" 23 240
python3 - "$R" <<'EOF'
import json, os, sys
print(f"{'k':>3} {'N':>5} {'ntt ms':>8} {'recomb ms':>9} {'total ms':>9} {'rec GB/s':>8}  passes: ms GB/s %copy")
for k in ["k4", "k8", "k16"]:
    path = os.path.join(sys.argv[1], k + ".json")
    if not os.path.exists(path):
        print(f"{k}: no results ({path})")
        continue
    d = json.load(open(path))
    copy = d["roofline"]["copy_gbs"]
    print(f"{k}: {d['device']}, copy bandwidth {copy:.0f} GB/s")
    by_size = {}
    for r in d["records"]:
        part = r["variant"].rsplit("-", 1)[-1]  # "ntt", "recombine" or "s16" (both)
        by_size.setdefault(r["log_n"], {})["total" if part.startswith("s") else part] = r
    for log_n, parts in sorted(by_size.items()):
        if len(parts) < 3:
            continue
        ntt, rec, tot = parts["ntt"], parts["recombine"], parts["total"]
        data = 8 * 2 * ntt["k"] * ntt["n"]  # bytes of one pass: s*N words read and written
        passes = "  ".join(f"{t:.4f} {data / t / 1e6:.0f} {100 * data / t / 1e6 / copy:.0f}%" for t in ntt["kernel_ms"])
        print(f"{ntt['k']:>3} 2^{log_n:<3} {ntt['median_ms']:>8.4f} {rec['median_ms']:>9.4f} {tot['median_ms']:>9.4f} {rec['gbs']:>8.0f}  {passes}")
EOF
