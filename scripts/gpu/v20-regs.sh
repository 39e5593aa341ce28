#!/bin/bash
# NVIDIA's registers and SASS counts of the k = 4, 8 (local) and 16 (table) kernels, built as
# they are and with each ablation (SRGFN_CL_OPTIONS), to see which phase sets the register count.
# Each build option set gets its own program cache; ptxas -v on each cached program (PTX).
set -u
B=./.gpu/srgfn; R=/tmp/regs; mkdir -p $R
K4="(2^64-2^50)^4+1"; K8="(2^63+2^34)^8+1"; K16="(2^62+2^36)^16+1"
PTXAS=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas); CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
i=0
for O in "" "-DSRGFN_ABLATE_PRODUCTS" "-DSRGFN_ABLATE_STAGES" "-DSRGFN_ABLATE_PRODUCTS -DSRGFN_ABLATE_STAGES" ${EXTRA_OPTIONS:-}; do
  O=${O//,/ }; i=$((i + 1)); C=/tmp/c$i; mkdir -p $C; chmod 700 $C
  ( SRGFN_CACHE_DIR=$C SRGFN_CL_OPTIONS="$O" timeout 200 $B bench --prime "$K8" --variant local --radix 4 --min-log 20 --max-log 20 --reps 1 --no-baselines > $R/b$i-k8.txt 2>&1
    SRGFN_CACHE_DIR=$C SRGFN_CL_OPTIONS="$O" timeout 200 $B bench --prime "$K4" --variant local --radix 2 --min-log 20 --max-log 20 --reps 1 --no-baselines > $R/b$i-k4.txt 2>&1
    SRGFN_CACHE_DIR=$C SRGFN_CL_OPTIONS="$O" timeout 200 $B bench --prime "$K16" --variant table --radix 2 --min-log 20 --max-log 20 --reps 1 --no-baselines > $R/b$i-k16.txt 2>&1 ) &
  echo "$i ${O:-default}" >> $R/options.txt
done
wait
for C in /tmp/c*; do i=${C#/tmp/c}; for f in $C/*.bin; do
  b=$R/$i-$(basename $f .bin | cut -c1-12)
  python3 scripts/gpu/cache_ptx.py $f $b.ptx
  $PTXAS -v --gpu-name sm_90 -o $b.cubin $b.ptx > $b.txt 2>&1
  $CUOBJ -sass $b.cubin > $b.sass 2>/dev/null
  awk -v v=$i '/Compiling entry function/ { k = $7 } /Used [0-9]+ registers/ { print v, k, $5, $6 }' $b.txt >> $R/regs.txt
  awk -v v=$i '/Function :/ { if (k) print v, k, n; k = $3; n = 0 } /^ +\/\*[0-9a-f]+\*\// && !/NOP/ { n++ } END { if (k) print v, k, n }' $b.sass | sed 's/^/SASS /' >> $R/regs.txt
  rm -f $b.cubin; gzip -f $b.ptx $b.sass
done; done
tar cf $OUT/regs.tar -C $R .
cat $R/options.txt; grep -E "dft(8|16|32)_r[24]_(local|table)" $R/regs.txt | grep -v "fused\|tables" | sort -k2,2 -k1,1
