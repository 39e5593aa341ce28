#!/usr/bin/env python3
"""v48: how much fewer digit products buy.  For k = 8 and k = 16 (H200, docs/perf/h200-v48), the
time of srgfn's defaults (the mean of two runs), of the same plans with a fifth of the twiddle
products' multiply-adds left out (`skipq`: 14 of 64 at k = 8, 60 of 256 at k = 16), that saving
extrapolated linearly to every multiply-add, and the plans without any twiddle product (`noprod`:
also without the splits and the twiddle loads), each divided by the small primes' time in the same
call (below 1: faster than the small primes).  Writes docs/img/v48-products.svg."""
import json, os
from ratio import over_small_primes

ROOT = os.path.join(os.path.dirname(__file__), '..', '..')
PERF = os.path.join(ROOT, 'docs', 'perf', 'h200-v48')
SKIPPED = {8: 14 / 64, 16: 60 / 256}  # the multiply-adds skipq leaves out
SERIES = [  # label, colour, dash
    ('srgfn (defaults)', '#4c78a8', ''),
    ('a fifth of the products out', '#e45756', ''),
    ('every product free (linear)', '#e45756', '5,4'),
    ('no twiddle products', '#54a24b', ''),
]


def medians(folder, run):
    records = json.load(open(os.path.join(PERF, folder, run + '.json')))['records']
    ours = {r['log_n']: r['median_ms'] for r in records if r['variant'].startswith('srgfn')}
    small = {r['log_n']: r['median_ms'] for r in records if r['variant'].startswith('baseline-smallprimes-s')
             and '-' not in r['variant'][len('baseline-smallprimes-s'):]}
    return ours, small


def ratios(k):
    base, small = medians('skipq', f'base-{k}')
    base2, _ = medians('skipq', f'base2-{k}')
    skip, _ = medians('skipq', f'skipq-{k}')
    bare, _ = medians('noprod', f'noprod-{k}')
    _, small_noprod = medians('noprod', f'base-{k}')
    logs = sorted(set(base) & set(skip) & set(bare))
    mean = {n: (base[n] + base2[n]) / 2 for n in logs}
    free = {n: mean[n] * (1 - (1 - skip[n] / mean[n]) / SKIPPED[k]) for n in logs}
    return k, logs, [
        [mean[n] / small[n] for n in logs],
        [skip[n] / small[n] for n in logs],
        [free[n] / small[n] for n in logs],
        [bare[n] / small_noprod[n] for n in logs],
    ]


def main():
    over_small_primes('Time over the small primes\' time (H200, v48; below 1: srgfn faster)', [ratios(8), ratios(16)], SERIES,
                      os.path.join(ROOT, 'docs', 'img', 'v48-products.svg'), lo=0.4, hi=1.8, legend_step=215)


if __name__ == '__main__':
    main()
