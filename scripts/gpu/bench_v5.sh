#!/bin/bash
# v5 run (device machine, .gpu and .whl carried): wide64 and limb22 give identical
# transforms on the GPU and on PoCL; A/B benchmark of the two f_mul forms with a
# per-kernel breakdown; polymul 2^20 + 2^20 against FLINT.  Results: $OUT/results.tar.
set -u
B=./.gpu/srgfn
R=/tmp/results; mkdir -p $R
export SRGFN_CACHE_DIR=/tmp/srgfn-cache
$B devices > $R/devices.txt 2>&1; cat $R/devices.txt | head -5
for P in "(2^64-2^50)^4+1" "(2^63+2^34)^8+1" "(2^62+2^36)^16+1" "(2^62+2^56)^32+1"; do
  S=""
  for M in "--mul wide64" "--mul limb22" "--device Portable"; do
    timeout 200 $B fft --prime "$P" --random 4096 --seed 7 $M --format bin --output $R/out.bin 2>>$R/check.log
    S="$S $(sha256sum < $R/out.bin | cut -c1-12)"
  done
  echo "fft 4096 $P (wide64 limb22 pocl):$S"
done
tail -3 $R/check.log
P8="(2^63+2^34)^8+1"
$B random --prime "$P8" --count 50000 --seed 3 --output $R/a.txt; $B random --prime "$P8" --count 30001 --seed 4 --output $R/b.txt
for M in wide64 limb22; do timeout 120 $B polymul --prime "$P8" $R/a.txt $R/b.txt --verify --mul $M --output $R/c-$M.txt 2>&1 | tail -1; done
cmp $R/c-wide64.txt $R/c-limb22.txt && echo "polymul outputs identical"
rm -f $R/*.txt.bak $R/a.txt $R/b.txt $R/c-*.txt $R/out.bin
timeout 240 $B bench --prime "$P8" --prime "(2^64-2^50)^4+1" --min-log 20 --max-log 24 --radices 2 --variants local --muls wide64,limb22 --no-baselines --reps 20 --json $R/ab48.json > $R/ab48.txt 2> $R/ab48.log
timeout 300 $B bench --prime "(2^62+2^36)^16+1" --prime "(2^62+2^56)^32+1" --min-log 18 --max-log 20 --radices 2 --variants local --muls wide64,limb22 --no-baselines --reps 10 --json $R/ab1632.json > $R/ab1632.txt 2> $R/ab1632.log
echo "bench rc=$?"
python3 -m zipfile -e .whl/*.whl /tmp/pf && PYTHONPATH=/tmp/pf OUT=$R timeout 200 python3 scripts/gpu/flint_bench.py 20 > $R/flint.txt 2>&1; grep -v '^ ' $R/flint.txt | tail -12
tar cf $OUT/results.tar -C $R .
cat $R/ab48.txt $R/ab1632.txt | grep -v '^prime' | awk '{printf "%-18s %-5s %-30s %10s %6s\n", $1, $2, $3, $4, $8}'
