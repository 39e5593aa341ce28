# v34 prototype (scripts/gpu/v34/README.md): the fused two-level kernel of k = 4 (radix-8 levels) with the table variant's warp stages
import sys, os
src = open(sys.argv[1]).read()
lines = src.split('\n')
s = [i for i, l in enumerate(lines) if 'the stages in registers through the warp' in l][0]
j = s + 1
assert lines[j].strip() == '{'
k = j
while not (lines[k] == '    }' and 'barrier' in lines[k + 1]):
    k += 1
warp = '\n'.join(lines[j:k + 1])
sbn = int(os.environ.get('SB', '4'))
rounds = sbn // 4
tpl = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'wf.tpl')).read()
out = tpl.replace('@WARP@', warp).replace('@SBN@', str(sbn)).replace('@ROUNDS@', str(rounds))
open(sys.argv[2], 'w').write(src + out)
