#!/usr/bin/env bash
# Session 12, call 5: round 2 (exploratory; results/NOTES.md, "Session 12 round 2"): the gpt-j
# strided grid at 16 (base 936385d), 15, 14 and 13 CTAs per SM, and the flat grid (gjflat), on
# configs/kernel-ab-gptj-grid.json. Nothing is adopted from it.
set -u
tar -xJf dist/s12d.tar.xz
BIN=dist-s12d OUT=$OUT/c5 AB_CONFIGS="gptj-grid" bash scripts/device_run.sh ab
