#!/usr/bin/env bash
# Session 21: calls 1-2's carry (dist/s21a.tar.xz) was built by wave18's prepared script, run as
# it is, after long-waves-roles100.patch was re-made on HEAD bb33060.
exec bash "$(git rev-parse --show-toplevel)/results/h200/wave18/calls/next-build.sh"
