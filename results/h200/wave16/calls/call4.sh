#!/usr/bin/env bash
# Session 18, call 4 (carry ["dist/s18c.tar.xz"]; sent inline right after call 3, recorded here):
# the never-slower survey's fp8 neox decode-size cases of the other shapes, on halfnarrow (its
# decode launches take half units for every shape), for the survey's recount.
tar -xJf dist/s18c.tar.xz && timeout -s INT -k 20 200 s18c/exp-halfnarrow/rope-kv-bench bench \
  --config configs/never-slower.json --heads 32x32x128,32x8x128,64x8x128,28x4x128,40x8x80,mla:128,16x2x256 \
  --cache-dtype fp8_e4m3 --style neox --tokens 1,8,128 --json $OUT/ns-halfunits-decode.json \
  >$OUT/ns-halfunits-decode.log 2>&1
echo exit $?
