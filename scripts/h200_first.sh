#!/usr/bin/env bash
# The H200 goes first: a device call that asks for an H200 may be given another card, so every
# such call of session 37 began with the same lines (results/h200/wave27/calls/). This is them
# once. It prints the card, then
#   an H200:       runs SCRIPT (the call's H200 work, e.g. the goals of HEAD) and exits 0;
#   another card:  runs nothing and exits 3, so that the call goes on with its other work;
#   no card:       one line, exit 5 (no nvidia-smi, or it names no GPU).
# Usage, in a call script:  bash scripts/h200_first.sh H200_SCRIPT && exit 0
# Exit 4 with one line when SCRIPT is missing or not a file.
set -u
if (($# != 1)) || [[ ! -f $1 ]]; then
  echo "usage: scripts/h200_first.sh H200_SCRIPT (a file: '${1:-}')" >&2
  exit 4
fi
card=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)
if [[ -z $card ]]; then
  echo "h200_first: no GPU (nvidia-smi names none)" >&2
  exit 5
fi
echo "card: $card"
[[ $card == *H200* ]] || exit 3
bash "$1"
echo "h200_first: $1 exit $?"
exit 0
