#!/usr/bin/env python3
"""v47: what bounds the small-primes target.  For k = 8 and k = 16 (H200, docs/perf/h200-v47/final),
the time of srgfn's defaults, of the same plans without twiddle products, and of the latter plus
the product-core floor, each divided by the small primes' time in the same process (below 1:
faster than the small primes).  Writes docs/img/v47-bound.svg."""
import json, os
from ratio import axes, line

ROOT = os.path.join(os.path.dirname(__file__), '..', '..')
FOLDER = os.path.join(ROOT, 'docs', 'perf', 'h200-v47', 'final')
SERIES = [  # label, colour, dash
    ('srgfn (defaults)', '#4c78a8', ''),
    ('without twiddle products', '#54a24b', ''),
    ('without products + the product-core floor', '#f58518', '5,4'),
]


def times(k):
    full = json.load(open(os.path.join(FOLDER, f'f{k}.json')))['records']
    bare = json.load(open(os.path.join(FOLDER, f'n{k}.json')))['records']
    ours = {r['log_n']: r for r in full if r['variant'].startswith('srgfn')}
    small = {r['log_n']: r['median_ms'] for r in full if r['variant'].startswith('baseline-smallprimes-s') and '-' not in r['variant'][len('baseline-smallprimes-s'):]}
    without = {r['log_n']: r['median_ms'] for r in bare if r['variant'].startswith('srgfn')}
    logs = sorted(set(ours) & set(small) & set(without))
    return logs, [
        [ours[n]['median_ms'] / small[n] for n in logs],
        [without[n] / small[n] for n in logs],
        [(without[n] + ours[n]['core_floor_ms']) / small[n] for n in logs],
    ]


def main():
    w, h, top, bottom, pw, gap, left = 900, 390, 46, 70, 330, 60, 60
    lo, hi = 0.4, 1.8
    ticks = [0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8]
    ys = lambda v: top + (hi - v) * (h - top - bottom) / (hi - lo)
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
           f'<text x="{left}" y="16" font-size="13">Time over the small primes\' time (H200, v47; below 1: srgfn faster)</text>']
    for p, k in enumerate((8, 16)):
        logs, series = times(k)
        x0 = left + p * (pw + gap)
        xs = lambda n: x0 + (n - logs[0]) * pw / (logs[-1] - logs[0])
        svg.append(f'<text x="{x0 + pw / 2:.1f}" y="{top - 10}" text-anchor="middle">k = {k}</text>')
        axes(svg, x0, x0 + pw, ys, ticks, xs, logs, h - bottom + 18, '.1f')
        svg.append(f'<text x="{x0 + pw / 2:.1f}" y="{h - bottom + 36}" text-anchor="middle">N</text>')
        for (label, colour, dash), vals in zip(SERIES, series):
            line(svg, list(zip(logs, vals)), xs, ys, colour, dash)
    for i, (label, colour, _) in enumerate(SERIES):
        lx = left + i * 270
        svg.append(f'<rect x="{lx}" y="{h - 17}" width="12" height="3" fill="{colour}"/>')
        svg.append(f'<text x="{lx + 18}" y="{h - 11}">{label}</text>')
    svg.append('</svg>')
    open(os.path.join(ROOT, 'docs', 'img', 'v47-bound.svg'), 'w').write('\n'.join(svg) + '\n')


if __name__ == '__main__':
    main()
