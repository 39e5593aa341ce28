# python3 scripts/gpu/cold_summary.py DIR: the summary of a cold-start script's DIR/cold.txt (the
# wall time of each run, `BINARY LABEL: … 2^L in one cache: MS ms rc=RC` lines) and DIR/cold.log
# (`== BINARY LABEL 2^L` headers, then each run's `srgfn:` line with its plan phase: `plan MS ms`,
# or `kernels MS ms` for `srgfn polymul`), rounds side by side.
import re, collections, os, sys
d = sys.argv[1]
t = collections.defaultdict(list)
for line in open(os.path.join(d, 'cold.txt')):
    m = re.match(r'(\S+) (\S+): … 2\^(\d+) in one cache: (\d+) ms rc=(\d+)', line)
    if m:
        t[(m.group(2), int(m.group(3)), m.group(1))].append(f'{int(m.group(4)) / 1000:5.1f} s' + ('' if m.group(5) == '0' else f' rc={m.group(5)}'))
for key in sorted(t):
    print(f'{key[0]:8} …2^{key[1]:<3} {key[2]:10} ' + '  '.join(t[key]))
lab = None
plan = collections.defaultdict(list)
for line in open(os.path.join(d, 'cold.log')):
    if line.startswith('== '):
        lab = line[3:].strip()
    m = re.search(r'(?:plan|kernels) (\d+) ms', line)
    if m and line.startswith('srgfn: '):
        plan[lab].append(int(m.group(1)) / 1000)
for lab in sorted(plan):
    print(f'plan phase {lab}: ' + ' '.join(f'{v:.1f} s' for v in plan[lab]))
