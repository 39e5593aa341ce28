#!/usr/bin/env python3
"""docs/img/v30-against-v29.svg: the final v30 binary against v29's in one call on an H200
(docs/perf/h200-v30/final/), as the ratio of medians v30 / v29 per prime and N; k = 8 with its
default (local, radix 4)."""
import os, sys
from ratio import ROOT, SERIES, plot

if __name__ == '__main__':
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, 'docs', 'img', 'v30-against-v29.svg')
    series = [('k = 8 (local, radix 4)', '8', '#b279a2', 'srgfn-r4-local-wide64-ptx')] + SERIES
    plot(os.path.join(ROOT, 'docs', 'perf', 'h200-v30', 'final'),
         'H200, one call: median of v30 / median of v29 (below 1: v30 faster)',
         [0.90, 0.92, 0.94, 0.96, 0.98, 1.0, 1.02, 1.04], out, series)
