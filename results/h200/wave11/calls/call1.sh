#!/usr/bin/env bash
# Session 12, call 1: the strided-grid sweep (exploratory; results/NOTES.md "Prepared for session
# 12 (continued)"): base 936385d, cap6, cap8, cap12, cstabcap9, cstabcap10, base again, on the
# stride and rotary A/B configs. ab-decisions.txt is informative only: nothing is adopted from it.
set -u
tar -xJf dist/s12.tar.xz
BIN=dist-s12 OUT=$OUT/s12 AB_CONFIGS="stride rotary" bash scripts/device_run.sh ab
