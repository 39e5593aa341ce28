#!/usr/bin/env python3
"""The kernels of one transform on a time line, from `srgfn bench --json` records (v41 on:
`kernel_start_ms`, `kernel_ms`).  Each row is one record; a kernel that starts while another
still runs is drawn on a second lane (the halves' side queue).  Usage (from the repository root):
    scripts/plots/timeline.py OUT.svg TITLE FILE:LOG_N:VARIANT:LABEL ..."""
import json, sys

W, LEFT, RIGHT, TOP, ROW, LANE = 900, 230, 20, 36, 58, 20
COLOURS = ['#4c78a8', '#f58518', '#54a24b', '#e45756', '#72b7b2', '#b279a2', '#9d755d']


def record(path, log_n, variant):
    for r in json.load(open(path))['records']:
        if r['log_n'] == log_n and r['variant'] == variant:
            return r
    sys.exit(f'{path}: no record of 2^{log_n} {variant}')


def lanes(starts, durs):
    """Lane 0 unless lane 0 is busy at the kernel's start."""
    ends, out = [0.0, 0.0], []
    for s, d in zip(starts, durs):
        lane = 0 if s >= ends[0] - 1e-9 else 1
        ends[lane] = s + d
        out.append(lane)
    return out


def main():
    out, title, rows = sys.argv[1], sys.argv[2], [a.split(':', 3) for a in sys.argv[3:]]
    recs = [(record(p, int(l), v), label) for p, l, v, label in rows]
    span = max(r['median_ms'] for r, _ in recs)
    xs = lambda t: LEFT + t / span * (W - LEFT - RIGHT)
    h = TOP + ROW * len(recs) + 40
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{h}" font-family="sans-serif" font-size="12">',
           f'<text x="10" y="18" font-size="13">{title}</text>']
    for i, (r, label) in enumerate(recs):
        y = TOP + i * ROW
        svg.append(f'<text x="10" y="{y + 16}">{label}</text>')
        svg.append(f'<text x="10" y="{y + 32}" fill="#555">{r["median_ms"]:.4f} ms (this run)</text>')
        for j, (s, d, lane) in enumerate(zip(r['kernel_start_ms'], r['kernel_ms'], lanes(r['kernel_start_ms'], r['kernel_ms']))):
            x0, x1 = xs(s), xs(s + d)
            svg.append(f'<rect x="{x0:.1f}" y="{y + lane * LANE}" width="{max(x1 - x0, 0.5):.1f}" height="{LANE - 3}" '
                       f'fill="{COLOURS[j % len(COLOURS)]}" opacity="0.85"><title>kernel {j + 1}: {s:.4f} + {d:.4f} ms</title></rect>')
            svg.append(f'<text x="{x0 + 3:.1f}" y="{y + lane * LANE + 12}" font-size="10" fill="white">{j + 1}</text>')
    # the time axis
    y = TOP + ROW * len(recs)
    svg.append(f'<line x1="{LEFT}" y1="{y}" x2="{W - RIGHT}" y2="{y}" stroke="black"/>')
    step = 0.05 if span > 0.2 else 0.02
    t = 0.0
    while t <= span + 1e-9:
        svg.append(f'<line x1="{xs(t):.1f}" y1="{y}" x2="{xs(t):.1f}" y2="{y + 5}" stroke="black"/>')
        svg.append(f'<text x="{xs(t):.1f}" y="{y + 18}" text-anchor="middle">{t:.2f}</text>')
        t += step
    svg.append(f'<text x="{W - RIGHT}" y="{y + 34}" text-anchor="end">ms after the first kernel starts (the median run)</text>')
    svg.append('</svg>')
    open(out, 'w').write('\n'.join(svg) + '\n')


main()
