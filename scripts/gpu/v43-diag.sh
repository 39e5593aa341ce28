#!/bin/bash
# v43 diagnostics (device machine, .gpu carried): where k = 8's twiddled table pass at 2^20 spends
# its issue slots.  1. the SASS of the kernels a radix-2 table transform of 2^20 builds
# (scripts/gpu/sass.sh); 2. Nsight Compute on dft16_r2_table at N = 2^20, p = 4096 through the
# CUDA driver (scripts/gpu/ncu_pass.sh), with the executed instructions per SASS opcode and per
# SASS line (source page) for a dynamic mix.  Details under $OUT; a short summary last.
set -u
export PATH=/usr/local/cuda/bin:$PATH
K8="(2^63+2^34)^8+1"
bash scripts/gpu/sass.sh sass "$K8:20:table:2" > $OUT/sass-summary.txt 2>&1
bash scripts/gpu/ncu_pass.sh t8r2 "$K8" table 2 20 4096 > $OUT/ncu-summary.txt 2>&1
A="/tmp/ncu-t8r2.ptx dft16_r2_table 128 16 20 4096 16 4 3 8 16 digits"
timeout 200 ncu --metrics sass__inst_executed_per_opcode,smsp__inst_executed.sum,smsp__cycles_active.avg --print-metric-instances details --launch-skip 2 --launch-count 1 /tmp/ncu_pass $A > $OUT/ncu-opcodes.txt 2>&1
timeout 200 ncu --section SourceCounters --page source --csv --print-source sass --launch-skip 2 --launch-count 1 /tmp/ncu_pass $A > /tmp/ncu-source.csv 2>&1
gzip -c /tmp/ncu-source.csv > $OUT/ncu-source.csv.gz
cat $OUT/ncu-summary.txt | tail -20
grep -E "sass__inst_executed_per_opcode|smsp__inst_executed.sum" $OUT/ncu-opcodes.txt | cut -c1-3000
head -c 600 /tmp/ncu-source.csv; echo
cat $OUT/sass-summary.txt | tail -12
