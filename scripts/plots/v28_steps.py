#!/usr/bin/env python3
"""docs/img/v28-k32-steps.svg: k = 32 at N = 2^20 on an H100, median ms of each v28 step from
the JSON of the call where it was new (docs/perf/h100-v28/), as bars, with the issue's target."""
import json, os, sys

ROOT = os.path.join(os.path.dirname(__file__), '..', '..')
PERF = os.path.join(ROOT, 'docs', 'perf', 'h100-v28')
STEPS = [  # label, folder, run, what
    ('v27', 'final', 'b32', "v27's kernels (0677f52)"),
    ('v28a', 'final', 'f32', 'twiddle division by shifts and adds'),
    ('v28b', 'carry', 'f32', 'store split: one correction'),
    ('v28c', 'round', 'f32', "splits with the variant's own rounds"),
]

def median(folder, run, log_n=20):
    recs = json.load(open(os.path.join(PERF, folder, run + '.json')))['records']
    return next(r['median_ms'] for r in recs if r['log_n'] == log_n)

def main(out):
    vals = [(lab, median(f, r), what) for lab, f, r, what in STEPS]
    w, h, left, top, bar, gap = 900, 250, 60, 40, 30, 14
    scale = 500 / 4.0  # ms to px, axis 0 … 4 ms
    y = top
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
           f'<text x="{left}" y="14" font-size="13">(2^62+2^56)^32+1, N = 2^20, H100: median ms of a forward transform</text>']
    for lab, ms, what in vals:
        svg.append(f'<rect x="{left}" y="{y}" width="{ms * scale:.1f}" height="{bar}" fill="#4c78a8"/>')
        svg.append(f'<text x="{left - 8}" y="{y + bar / 2 + 4}" text-anchor="end">{lab}</text>')
        svg.append(f'<text x="{left + ms * scale + 6:.1f}" y="{y + bar / 2 + 4}">{ms:.3f} ms: {what}</text>')
        y += bar + gap
    tx = left + 3.0 * scale
    svg.append(f'<line x1="{tx:.1f}" y1="{top - 6}" x2="{tx:.1f}" y2="{y - gap + 6}" stroke="#e45756" stroke-dasharray="4 3"/>')
    svg.append(f'<text x="{tx:.1f}" y="{top - 10}" fill="#e45756" text-anchor="middle">target 3.0 ms (issue 10)</text>')
    for t in range(5):
        x = left + t * scale
        svg.append(f'<line x1="{x:.1f}" y1="{y - gap + 6}" x2="{x:.1f}" y2="{y - gap + 10}" stroke="black"/>')
        svg.append(f'<text x="{x:.1f}" y="{y + 12}" text-anchor="middle">{t} ms</text>')
    svg.append('</svg>')
    open(out, 'w').write('\n'.join(svg) + '\n')

if __name__ == '__main__':
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, 'docs', 'img', 'v28-k32-steps.svg'))
