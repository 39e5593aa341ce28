#!/bin/bash
# v34 (device machine, .gpu carried): srgfn tune for k = 32, 64 and 128 on this card (logs under $OUT).
set -u
B=./.gpu/srgfn; export SRGFN_CACHE_DIR=/tmp/srgfn-tune-cache; mkdir -p $SRGFN_CACHE_DIR; chmod 700 $SRGFN_CACHE_DIR
export SRGFN_WISDOM=$OUT/wisdom-large.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/tune-large.txt
for spec in "(2^62+2^56)^32+1:14:20" "(2^63-2^40)^64+1:14:18" "(2^64-2^28)^128+1:14:16"; do
  IFS=: read -r P LO HI <<< "$spec"
  timeout 240 $B tune --prime "$P" --min-log $LO --max-log $HI --reps ${REPS:-5} >> $OUT/tune-large.txt 2>> $OUT/tune-large.log; echo "rc $? $P" >> $OUT/tune-large.log
done
cat $OUT/tune-large.txt; grep rc $OUT/tune-large.log
