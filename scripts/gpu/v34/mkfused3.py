# v34 prototype (scripts/gpu/v34/README.md): append a kernel of the first two passes of k = 8 (two radix-16
# levels, p = 1, then p = 16) to the emitted table source; env SB (superblocks per work-group), LOADADDR
# (the load index: contiguous superblocks for the bound "d"), UNR (the element loops' pragma)
import os, re, sys
src = open(sys.argv[1]).read()
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from warpcode import warp_block  # noqa: E402
warp = warp_block(src, 1)
slot_stride = int(re.search(r'#define SLOT\(q, d, gi\) \(\(q\) \* (\d+) \+ \(gi\) \* 9 \+ \(d\)\)', src.split('dft16_r4_table_first:')[1]).group(1))
words = 16 * slot_stride
sbn = os.environ.get('SB', '2')
la = os.environ.get('LOADADDR', 'grp0 + sb + (ulong)(a + 16 * b) * T')
unr = os.environ.get('UNR', '#pragma unroll 1')
tpl = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.environ.get('TPL', 'fused3.tpl'))).read()
fused = tpl.replace('@WARP@', warp).replace('@SS@', str(slot_stride)).replace('@WORDS@', str(words)).replace('@SBN@', sbn).replace('@LOADADDR@', la).replace('@UNR@', unr)
open(sys.argv[2], 'w').write(src + fused)
