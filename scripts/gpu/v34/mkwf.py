# v34 prototype (scripts/gpu/v34/README.md): the fused two-level kernel of k = 4 (radix-8 levels) with the table variant's warp stages
import sys, os
src = open(sys.argv[1]).read()
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from warpcode import warp_block  # noqa: E402
warp = warp_block(src, 0)
sbn = int(os.environ.get('SB', '4'))
rounds = sbn // 4
tpl = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'wf.tpl')).read()
out = tpl.replace('@WARP@', warp).replace('@SBN@', str(sbn)).replace('@ROUNDS@', str(rounds))
open(sys.argv[2], 'w').write(src + out)
