#!/usr/bin/env bash
# Session 12, call 7: round 3 A/B (results/NOTES.md, "Session 12 round 3"): base 936385d, nalign,
# base again on the stride and rotary configs, decided by device_run.sh's rule. No validation in
# this call (no device time left this session).
set -u
tar -xJf dist/s12e.tar.xz
BIN=dist-s12e OUT=$OUT/c7 AB_CONFIGS="stride rotary" bash scripts/device_run.sh ab
