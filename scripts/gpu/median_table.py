# python3 scripts/gpu/median_table.py DIR: one row per run of a `v20.sh bench` folder (its *.json),
# the srgfn medians (ms) by log2 N.  A run with several variants or radices keeps the last record
# of each size: name the variant in such runs, or read the JSON.
import json,glob,os,sys,collections
R=sys.argv[1]; t=collections.defaultdict(dict)
for f in glob.glob(R+'/*.json'):
    for r in json.load(open(f))['records']:
        if r['variant'].startswith('srgfn'): t[os.path.basename(f)[:-5]][r['log_n']]=r['median_ms']
names=sorted(t); logs=sorted({l for n in t for l in t[n]})
print('run    '+' '.join(f'{l:>7}' for l in logs))
for n in names: print(f'{n:7}'+' '.join(f'{t[n].get(l,0):7.4f}' for l in logs))
