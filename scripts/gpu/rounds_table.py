# python3 scripts/gpu/rounds_table.py DIR GLOB [side]: the srgfn records of several rounds (the files
# DIR/GLOB, one process each), one row per (k, log2 N, variant): the median of the rounds' medians
# (ms), each round's, and the row's ratio to the fastest variant of its size.  With "side", rows are
# per binary instead of per variant: the side is the file name's second dash-separated field
# (k8-new-1.json: "new"), and the variant the side's records ran is printed after it.
import json, glob, os, sys, collections, statistics
by_side = len(sys.argv) > 3 and sys.argv[3] == 'side'
rows = collections.defaultdict(list)
ran = collections.defaultdict(set)
for f in sorted(glob.glob(os.path.join(sys.argv[1], sys.argv[2]))):
    side = os.path.basename(f).split('-')[1] if by_side else None
    for r in json.load(open(f))['records']:
        if r['variant'].startswith('srgfn'):
            key = (r['k'], r['log_n'], side if by_side else r['variant'])
            rows[key].append(r['median_ms'])
            ran[key].add(r['variant'])
best = collections.defaultdict(lambda: float('inf'))
for (k, n, _), v in rows.items():
    best[(k, n)] = min(best[(k, n)], statistics.median(v))
for (k, n, var), v in sorted(rows.items()):
    m = statistics.median(v)
    what = f'{var} ({",".join(sorted(ran[(k, n, var)]))})' if by_side else var
    print(f'k = {k} 2^{n} {what:60} median {m:.4f}  x{m / best[(k, n)]:.3f}  rounds ' + ' '.join(f'{x:.4f}' for x in v))
