#!/usr/bin/env bash
# Session 22, call 5 (carry ["dist/s22b.tar.xz"]; sent as one command line, recorded here): the
# survey's misses on the landed HEAD (the survey ran on exp-both, which differs from it only in
# round 10's launches), never-slower.json's timing. A re-run of the failures alone is biased
# towards passing; results/NOTES.md counts it apart. $OUT/call5.tar.gz.
tar -xJf dist/s22b.tar.xz && mkdir -p $OUT/c5 && timeout -s INT -k 5 80 s22b/rope-kv-bench bench --config configs/never-slower.json --case 'bf16|auto|40x8x80|neox|nhd|N=65536' --case 'bf16|auto|40x8x80|neox|packed_nhd|N=65536' --case 'bf16|fp8_e4m3|16x2x256|neox|nhd|N=65536|rot=128' --case 'bf16|fp8_e4m3|16x2x256|neox|packed_nhd|N=65536|rot=128' --case 'bf16|fp8_e4m3|mla:16|neox|nhd|N=16384' --case 'bf16|fp8_e4m3|mla:16|neox|nhd|N=2048|rot=32' --json $OUT/c5/misses-rerun.json > $OUT/c5/misses-rerun.txt 2>&1; echo "exit $?"; tail -12 $OUT/c5/misses-rerun.txt; tar -C $OUT -czf $OUT/call5.tar.gz c5 && rm -rf $OUT/c5
