#!/usr/bin/env bash
# Session 48: one script for every start asked for nvidia-h200, so that a start that brings an
# H100 is not spent (results/NOTES.md, session 48). Carry ["dist/w60.tar.xz"] (see
# results/h200/wave35/calls/call-round62-h200.sh for how it is built).
# - On an H200: round 62's call, unchanged (results/h200/wave35/calls/call-round62-h200.sh).
# - On an H100: the question session 36 left open (results/NOTES.md, round 35's outcome): why
#   bf16 with an fp8 cache runs slower than fp16 in the mla:16 token-warp kernel (H100 round 28b:
#   86.7 against 91.7 % of copy at 16k). ncu, full set with the SASS source page, of the fused
#   kernel on bf16 and fp16 e4m3 mla:16 neox and gpt-j at 16k with dist/s86's base (HEAD's kernel
#   sources), plus the SASS opcode census of that binary ($OUT/tw-fp8-ncu.tar.gz).
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
if [[ $card == *H200* ]]; then
  exec bash results/h200/wave35/calls/call-round62-h200.sh
fi
tar -xJf dist/w60.tar.xz s86/rope-kv-bench || { echo "cannot unpack dist/w60.tar.xz"; exit 4; }
out=$OUT/tw-fp8-ncu
mkdir -p "$out"
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv >"$out/nvidia-smi.csv"
for dt in bf16 fp16; do
  for style in neox gptj; do
    NCU_SOURCE=1 timeout 150 bash scripts/ncu.sh "$dt|fp8_e4m3|mla:16|$style|nhd|N=16384" fused 1 \
      "$out" s86/rope-kv-bench >>"$out/log.txt" 2>&1
    echo "ncu $dt $style: exit $? ($SECONDS s)"
  done
done
rm -f "$out"/*.ncu-rep
bash results/h200/wave34/calls/sass-census.sh s86/rope-kv-bench "$out/sass" >>"$out/log.txt" 2>&1
rc=$?
grep token_warp "$out/sass/opcodes.tsv" >"$out/sass/token-warp-opcodes.tsv"
rm -f "$out/sass/fused.sass" "$out/sass/opcodes.tsv"
echo "sass: exit $rc ($SECONDS s)"
tar -C "$OUT" -cJf "$OUT/tw-fp8-ncu.tar.xz" tw-fp8-ncu && rm -rf "$out"
ls -la "$OUT"
