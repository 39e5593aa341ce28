#!/bin/bash
# v35 (device machine, .gpu carried): srgfn tune for what v34 left untuned (k = 64 at 2^18,
# k = 128 at 2^14 ... 2^16), then the SASS of k = 4's fused and k = 8's table kernels (logs under $OUT).
set -u
B=./.gpu/srgfn; export SRGFN_CACHE_DIR=/tmp/srgfn-tune-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
export SRGFN_WISDOM=$OUT/wisdom-large.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/tune-large.txt
for spec in "(2^63-2^40)^64+1:18:18" "(2^64-2^28)^128+1:14:16"; do
  IFS=: read -r P LO HI <<< "$spec"
  timeout 300 $B tune --prime "$P" --min-log $LO --max-log $HI --reps ${REPS:-5} >> $OUT/tune-large.txt 2>> $OUT/tune-large.log; echo "rc $? $P" >> $OUT/tune-large.log
done
if [ -n "${SASS:-}" ]; then
  bash scripts/gpu/sass.sh sass "(2^64-2^50)^4+1:20:local:4" "(2^63+2^34)^8+1:20:table:4" > $OUT/sass-summary.txt 2>&1
fi
cat $OUT/tune-large.txt; grep rc $OUT/tune-large.log
