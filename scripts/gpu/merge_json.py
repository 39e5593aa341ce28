"""Merge the per-prime JSON of scripts/gpu/bench_final.sh into one file.

Usage: python3 scripts/gpu/merge_json.py RESULTS_DIR OUT.json [VERSION]
(RESULTS_DIR holds k4.json, k8.json, k16.json, k32.json from the results tar)."""
import json, os, sys

src, dst = sys.argv[1], sys.argv[2]
version = sys.argv[3] if len(sys.argv) > 3 else None
records, device, roofline = [], None, None
for name in ["k4", "k8", "k16", "k32"]:
    path = os.path.join(src, name + ".json")
    if not os.path.exists(path):
        print(f"missing {path}", file=sys.stderr)
        continue
    d = json.load(open(path))
    device, roofline = d["device"], d["roofline"]
    records += d["records"]
out = {"device": device, "roofline": roofline, "records": records}
if version:
    out["version"] = version
json.dump(out, open(dst, "w"), indent=1)
print(f"{len(records)} records -> {dst}")
