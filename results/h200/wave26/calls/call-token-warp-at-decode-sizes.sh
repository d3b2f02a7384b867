#!/usr/bin/env bash
# Prepared in session 36: round 39 in results/NOTES.md, the fp8 token warp at decode sizes for
# partial rotary and gpt-j (routing only; any card: these launches are latency-bound). Build here
# from HEAD:
#   P=results/h200/experiments/patches
#   scripts/build_kernel_experiments.sh --dist dist/s54 --base twdh=$P/token-warp-at-decode-sizes-half.patch \
#     twdall=$P/token-warp-at-decode-sizes-all.patch
#   tar -C dist -cf - s54/rope-kv-bench s54/exp-twdh s54/exp-twdall | xz -T2 -9 > dist/s54.tar.xz
# and call with carry ["dist/s54.tar.xz"]. The rule, fixed before the run: two interleaved rounds
# over token-warp-at-decode-sizes-cases.txt (22 cases), each build judged on the cases whose
# launch it moved (AB_SUBSET=moved) at >= 3 % faster, no case more than 4 % slower; twdall
# preferred, twdh if twdall fails; then the adopted build's matrix and sanitizer set
# ($OUT/c20.tar.gz).
set -u
echo "card: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)"
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="twdall twdh" AB_SUBSET=moved \
  AB_CASES=results/h200/wave26/calls/token-warp-at-decode-sizes-cases.txt \
  bash scripts/ab_call.sh dist/s54.tar.xz s54 c20
echo "ab_call done ($SECONDS s)"
exit 0
