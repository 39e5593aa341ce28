#!/bin/bash
# v39 (device machine, .gpu carried): does a cap of 64 registers (eight work-groups an SM
# instead of six or seven) pay for k = 8's table launches at 2^16–2^19, where a launch is one
# to three rounds of work-groups?  Three cases of scripts/gpu/maxnreg.sh (each: none, the cap,
# none again, in one process per side), then the small primes at the same sizes.
set -u
K8="(2^63+2^34)^8+1"
ENTRY='dft16_r4_table(_lt)?' REPS=${REPS:-30} bash scripts/gpu/maxnreg.sh capA "$K8:16:19:table:4:64"
ENTRY='dft16_r4_table_first2' REPS=${REPS:-30} bash scripts/gpu/maxnreg.sh capB "$K8:16:19:table:4:64"
ENTRY='dft16_r4_table(_lt|_first2)?' REPS=${REPS:-30} bash scripts/gpu/maxnreg.sh capC "$K8:16:19:table:4:64"
./.gpu/srgfn bench --prime "$K8" --min-log 16 --max-log 19 --small-primes-only --reps 30 --json $OUT/sp8.json > $OUT/sp8.txt 2>&1
grep -E "smallprimes-s16 " $OUT/sp8.txt
