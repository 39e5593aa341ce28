#!/bin/bash
# v34 prototypes (README.md here): build on this machine into .gpu/v34 (carried to the device machine), then run
# scripts/gpu/v34/run.sh there.  Needs target/release/srgfn, python3, gcc and the OpenCL headers.
set -eu
cd "$(dirname "$0")/../../.."
D=.gpu/v34; V=scripts/gpu/v34; rm -rf $D /tmp/v34-e8 /tmp/v34-e4; mkdir -p $D
./target/release/srgfn emit --prime "(2^63+2^34)^8+1" --ptx --out /tmp/v34-e8 > /dev/null
./target/release/srgfn emit --prime "(2^64-2^50)^4+1" --ptx --out /tmp/v34-e4 > /dev/null
T8=/tmp/v34-e8/dft16_r4_table.cl
# k = 8, first two passes in one launch: j (a superblock per work-group), k (two per work-group of 128),
# e (two per work-group of 256), d (j reading contiguous superblocks: the bound, wrong results)
SB=1 python3 $V/mkfused3.py $T8 $D/k8j.cl
SB=2 TPL=fused5.tpl python3 $V/mkfused3.py $T8 $D/k8k.cl
SB=2 python3 $V/mkfused3.py $T8 $D/k8e.cl
SB=1 LOADADDR='(grp0 + sb) * 256 + e' python3 $V/mkfused3.py $T8 $D/k8d.cl
cp $T8 $D/k8.cl
# k = 4, the fused launch with the warp stages, 4, 8 and 16 superblocks per work-group; the local variant's fused kernel
for sb in 4 8 16; do SB=$sb python3 $V/mkwf.py /tmp/v34-e4/dft8_r4_table.cl $D/k4w$sb.cl; done
cp /tmp/v34-e4/dft8_r4_local_fused.cl $D/k4fused.cl
python3 $V/mkbalance.py $T8 $D/k8bal.cl
for c in proto halves wf balance; do gcc -O2 -Wall -o $D/$c $V/$c.c -lOpenCL; done
cp $V/run.sh $D/
echo "built $D"
