#!/usr/bin/env bash
# Session 13, calls 6 and 7 (run inline, this text is what they ran): the GPU unit tests again
# with the Google Benchmark binary carried as well, for the error table's gbench rows. Call 6 found
# the warm machine's build/ link from call 5 and linked nothing (fixed in device_run.sh's
# shim_source_dir: each missing tool is linked); call 7 linked it, and the binary could not load
# libbenchmark.so on the box (no Debian package there), so those 15 rows fail on the H200 only.
#   mkdir -p dist-s13f && cp build/rkv_tests build/rope-kv-gbench dist-s13f/ && strip dist-s13f/*
#   cp dist-s13e/rope-kv-bench dist-s13f/ && tar -cJf dist/s13f.tar.xz dist-s13f
tar -xJf dist/s13f.tar.xz && BIN=dist-s13f OUT=$OUT/c7 bash scripts/device_run.sh tests
