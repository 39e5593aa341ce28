#!/usr/bin/env python3
"""v49: the products' multiply-adds measured free.  For k = 8 and k = 16 (H200), srgfn's defaults at a3c5b3f (the
mean of two runs, docs/perf/h200-v49/nomac), the same plans with every multiply-add of the twiddle
products one 3-input XOR and every first product two moves (`nomac`: the splits, differences, loads,
stages and normalisations kept), v48's linear extrapolation of its `skipq` saving to every
multiply-add, and v48's plans without any twiddle product (`noprod`), each over the small primes' time
of its own call (below 1: faster than the small primes).  Writes docs/img/v49-bound.svg."""
import json, os
from ratio import ROOT, over_small_primes
import v48_bound

NOMAC = os.path.join(ROOT, 'docs', 'perf', 'h200-v49', 'nomac')
# label, colour, dash of each line, in the order ratios() gives them
SERIES = [
    ('srgfn (a3c5b3f, same call)', '#4c78a8', ''),
    ('multiply-adds free (measured)', '#e45756', ''),
    ('free, v48 extrapolated', '#e45756', '5,4'),
    ('no twiddle products (v48)', '#54a24b', ''),
]


def run(name):
    """(srgfn's medians, the small primes' medians) by log2 N of one run of the nomac call."""
    records = json.load(open(os.path.join(NOMAC, name + '.json')))['records']
    pick = lambda want: {r['log_n']: r['median_ms'] for r in records if want(r['variant'])}
    return pick(lambda v: v.startswith('srgfn')), pick(lambda v: v.startswith('baseline-smallprimes-s') and v.count('-') == 2)


def ratios(k):
    (base, small), (base2, _), (nomac, _) = run(f'base-{k}'), run(f'base2-{k}'), run(f'nomac-{k}')
    _, v48_logs, v48 = v48_bound.ratios(k)
    logs = [n for n in sorted(base) if n in v48_logs]
    at = {n: i for i, n in enumerate(v48_logs)}
    return k, logs, [
        [(base[n] + base2[n]) / 2 / small[n] for n in logs],
        [nomac[n] / small[n] for n in logs],
        [v48[2][at[n]] for n in logs],
        [v48[3][at[n]] for n in logs],
    ]


def main():
    over_small_primes('Time over the small primes\' time (H200, v49; below 1: srgfn faster)', [ratios(8), ratios(16)], SERIES,
                      os.path.join(ROOT, 'docs', 'img', 'v49-bound.svg'), lo=0.4, hi=1.8, legend_step=215)


if __name__ == '__main__':
    main()
