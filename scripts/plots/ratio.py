#!/usr/bin/env python3
"""A version's final binary against the one before, measured in one call: the ratio of medians
new / base per prime and N, one line per prime (below 1: the new version faster).  The
versions' scripts (v29_final.py, v30_final.py) name the folder, the runs and the axis."""
import json, os

ROOT = os.path.join(os.path.dirname(__file__), '..', '..')
# label, run suffix (base runs 'b' + suffix, new runs 'f' + suffix), colour
SERIES = [
    ('k = 16 (table, radix 2)', '16', '#72b7b2'),
    ('k = 32 (digits)', '32', '#4c78a8'),
    ('k = 64 (digits)', '64', '#f58518'),
    ('k = 128 (digits)', '128', '#54a24b'),
]


def medians(folder, run, variant=None):
    records = json.load(open(os.path.join(folder, run + '.json')))['records']
    return {r['log_n']: r['median_ms'] for r in records if variant is None or r['variant'] == variant}


def axes(svg, x0, x1, ys, ticks, xs, logs, label_y, fmt):
    """A ratio axis from x0 to x1: a line per tick (1.0 in black) labelled with fmt, and the
    sizes 2^n below it at label_y."""
    for v in ticks:
        svg.append(f'<line x1="{x0}" y1="{ys(v):.1f}" x2="{x1:.1f}" y2="{ys(v):.1f}" stroke="{"black" if v == 1.0 else "#ddd"}"/>')
        svg.append(f'<text x="{x0 - 6}" y="{ys(v) + 4:.1f}" text-anchor="end">{v:{fmt}}</text>')
    for n in logs:
        svg.append(f'<text x="{xs(n):.1f}" y="{label_y}" text-anchor="middle">2^{n}</text>')


def line(svg, pts, xs, ys, colour, dash=''):
    """One series: a polyline through pts (n, value) with a dot at each."""
    path = ' '.join(f'{xs(n):.1f},{ys(v):.1f}' for n, v in pts)
    d = f' stroke-dasharray="{dash}"' if dash else ''
    svg.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"{d}/>')
    for n, v in pts:
        svg.append(f'<circle cx="{xs(n):.1f}" cy="{ys(v):.1f}" r="3" fill="{colour}"/>')


def plot(folder, title, ticks, out, series=SERIES):
    """ticks: the ratio axis's lines, lowest first."""
    w, h, left, top, bottom = 760, 330, 60, 40, 50
    lo, hi = ticks[0], ticks[-1]
    logs = list(range(14, 23))
    xs = lambda n: left + (n - logs[0]) * (w - left - 220) / (logs[-1] - logs[0])
    ys = lambda v: top + (hi - v) * (h - top - bottom) / (hi - lo)
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
           f'<text x="{left}" y="16" font-size="13">{title}</text>']
    axes(svg, left, xs(logs[-1]), ys, ticks, xs, logs, h - bottom + 18, '.2f')
    svg.append(f'<text x="{(left + xs(logs[-1])) / 2:.1f}" y="{h - 10}" text-anchor="middle">N</text>')
    for i, (label, k, colour, *variant) in enumerate(series):
        base, new = medians(folder, 'b' + k, *variant), medians(folder, 'f' + k, *variant)
        pts = [(n, new[n] / base[n]) for n in sorted(base) if n in new]
        line(svg, pts, xs, ys, colour)
        ly = top + 10 + 20 * i
        svg.append(f'<rect x="{w - 200}" y="{ly - 9}" width="12" height="12" fill="{colour}"/>')
        svg.append(f'<text x="{w - 182}" y="{ly + 2}">{label}</text>')
    svg.append('</svg>')
    open(out, 'w').write('\n'.join(svg) + '\n')


def over_small_primes(title, panels, series, out, lo=0.4, hi=1.8, legend_step=270):
    """Times over the small primes' time in two panels side by side (k = 8 and 16): panels is a list
    of (k, logs, values per series); series (label, colour, dash) in the order of the values."""
    w, h, top, bottom, pw, gap, left = 900, 390, 46, 70, 330, 60, 60
    ticks = [round(lo + 0.2 * i, 1) for i in range(int(round((hi - lo) / 0.2)) + 1)]
    ys = lambda v: top + (hi - v) * (h - top - bottom) / (hi - lo)
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
           f'<text x="{left}" y="16" font-size="13">{title}</text>']
    for p, (k, logs, values) in enumerate(panels):
        x0 = left + p * (pw + gap)
        xs = lambda n: x0 + (n - logs[0]) * pw / (logs[-1] - logs[0])
        svg.append(f'<text x="{x0 + pw / 2:.1f}" y="{top - 10}" text-anchor="middle">k = {k}</text>')
        axes(svg, x0, x0 + pw, ys, ticks, xs, logs, h - bottom + 18, '.1f')
        svg.append(f'<text x="{x0 + pw / 2:.1f}" y="{h - bottom + 36}" text-anchor="middle">N</text>')
        for (label, colour, dash), vals in zip(series, values):
            line(svg, list(zip(logs, vals)), xs, ys, colour, dash)
    for i, (label, colour, _) in enumerate(series):
        lx = left + i * legend_step
        svg.append(f'<rect x="{lx}" y="{h - 17}" width="12" height="3" fill="{colour}"/>')
        svg.append(f'<text x="{lx + 18}" y="{h - 11}">{label}</text>')
    svg.append('</svg>')
    open(out, 'w').write('\n'.join(svg) + '\n')
