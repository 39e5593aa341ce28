#!/usr/bin/env python3
"""v47: what bounds the small-primes target.  For k = 8 and k = 16 (H200, docs/perf/h200-v47/final),
the time of srgfn's defaults, of the same plans without twiddle products, and of the latter plus
the product-core floor, each divided by the small primes' time in the same process (below 1:
faster than the small primes).  Writes docs/img/v47-bound.svg."""
import json, os
from ratio import over_small_primes

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
    panels = [(k, *times(k)) for k in (8, 16)]
    over_small_primes('Time over the small primes\' time (H200, v47; below 1: srgfn faster)', panels, SERIES,
                      os.path.join(ROOT, 'docs', 'img', 'v47-bound.svg'))


if __name__ == '__main__':
    main()
