#!/bin/bash
# v34 (device machine, .gpu carried): srgfn tune for k = 8, 4 and 16 on this card, then transforms
# checked against the host reference (--verify) with the wisdom it wrote.  Logs under $OUT.
set -u
B=./.gpu/srgfn; export SRGFN_CACHE_DIR=/tmp/srgfn-tune-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
export SRGFN_WISDOM=$OUT/wisdom.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/tune.txt
for spec in "(2^63+2^34)^8+1:16:24" "(2^64-2^50)^4+1:16:24" "(2^62+2^36)^16+1:16:22"; do
  IFS=: read -r P LO HI <<< "$spec"
  timeout 200 $B tune --prime "$P" --min-log $LO --max-log $HI --reps ${REPS:-10} >> $OUT/tune.txt 2>> $OUT/tune.log; echo "rc $? $P" >> $OUT/tune.log
done
for L in 16 20 24; do
  timeout 120 $B fft --prime "(2^63+2^34)^8+1" --random 2^$L --verify --format bin --output /tmp/y.bin >> $OUT/verify.txt 2>&1; echo "rc $? k=8 2^$L" >> $OUT/verify.txt
done
$B plan --prime "(2^63+2^34)^8+1" --n 2^24 | tail -3 >> $OUT/verify.txt
cat $OUT/tune.txt; tail -8 $OUT/verify.txt; grep rc $OUT/tune.log
