# python3 scripts/gpu/rounds_table.py DIR GLOB: the srgfn records of several rounds (the files
# DIR/GLOB, one process each), one row per (k, log2 N, variant): the median of the rounds' medians
# (ms), each round's, and the row's ratio to the fastest variant of its size.
import json, glob, os, sys, collections, statistics
rows = collections.defaultdict(list)
for f in sorted(glob.glob(os.path.join(sys.argv[1], sys.argv[2]))):
    for r in json.load(open(f))['records']:
        if r['variant'].startswith('srgfn'):
            rows[(r['k'], r['log_n'], r['variant'])].append(r['median_ms'])
best = collections.defaultdict(lambda: float('inf'))
for (k, n, _), v in rows.items():
    best[(k, n)] = min(best[(k, n)], statistics.median(v))
for (k, n, var), v in sorted(rows.items()):
    m = statistics.median(v)
    print(f'k = {k} 2^{n} {var:40} median {m:.4f}  x{m / best[(k, n)]:.3f}  rounds ' + ' '.join(f'{x:.4f}' for x in v))
