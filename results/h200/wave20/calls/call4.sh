#!/usr/bin/env bash
# Session 22, call 4 (carry ["dist/s22b.tar.xz"]; sent as one command line, recorded here): the
# machine still warm after call 3, the seed table a second time on the landed HEAD, for the
# two-run comparison (../seed/compare-run1-run2.txt). $OUT/call4.tar.gz.
tar -xJf dist/s22b.tar.xz && mkdir -p $OUT/c4 && STEP_TIMEOUT=60 BIN=s22b OUT=$OUT/c4 bash scripts/device_run.sh seed2 > $OUT/c4/run.txt 2>&1; tail -3 $OUT/c4/run.txt; tar -C $OUT -czf $OUT/call4.tar.gz c4 && rm -rf $OUT/c4
