#!/bin/bash
# v34 prototypes on the device machine (after scripts/gpu/v34/build.sh here, with .gpu carried):
#   bash .gpu/v34/run.sh   (logs under $OUT)
cd "$(dirname "$0")"
O=${OUT:-/tmp}
for v in j k e d; do
  case $v in j|d) sb=1; tpb=128;; k) sb=2; tpb=128;; e) sb=2; tpb=256;; esac
  echo "== k8$v SB=$sb, $tpb work-items" | tee -a $O/fused-first.txt
  SB=$sb TPB=$tpb ./proto k8$v.cl 8 20 20 22 24 >> $O/fused-first.txt 2>&1
done
for sh in 3 7; do echo "== first pass in halves by bit $sh" | tee -a $O/halves.txt; SH1=$sh ./halves k8.cl 20 20 22 24 >> $O/halves.txt 2>&1; done
for sb in 4 8 16; do ./wf k4fused.cl k4w$sb.cl $sb 10 20 24 >> $O/k4-warp-fused.txt 2>&1; done
./balance k8bal.cl 20 20 22 24 > $O/balance.txt 2>&1
grep -E "^==|^ +[0-9]+ " $O/fused-first.txt | grep -E "^==|    24 " ; grep -E "^==|^ +24 " $O/halves.txt; grep -E "SB|sum" $O/k4-warp-fused.txt
