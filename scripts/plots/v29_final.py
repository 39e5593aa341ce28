#!/usr/bin/env python3
"""docs/img/v29-against-v28c.svg: the final v29 binary against v28c's in one call on an H100
(docs/perf/h100-v29/final/), as the ratio of medians v29 / v28c per prime and N."""
import os, sys
from ratio import ROOT, plot

if __name__ == '__main__':
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, 'docs', 'img', 'v29-against-v28c.svg')
    plot(os.path.join(ROOT, 'docs', 'perf', 'h100-v29', 'final'),
         'H100, one call: median of v29 / median of v28c (below 1: v29 faster)',
         [0.92, 0.94, 0.96, 0.98, 1.0, 1.02, 1.04], out)
