#!/usr/bin/env bash
# The SASS of a built binary, for questions the PTX cannot answer (results/NOTES.md, session 46:
# why bf16 neox runs slower than fp16 on the flat grid when their PTX differs only in the
# conversions). No SASS tool exists on the build machine, so this runs on the device box.
#   sass-census.sh BINARY OUTDIR
# OUTDIR/opcodes.tsv: function, opcode (with modifiers), count, for every kernel.
# OUTDIR/fused.sass: the whole SASS of the rope_kv_fused_kernel instantiations (the flat and
# strided unit kernels), where the bf16/fp16 pairs are.
set -u
bin=$1 out=$2
mkdir -p "$out"
dump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
"$dump" -sass "$bin" >"$out/all.sass" 2>"$out/cuobjdump.err" || { echo "cuobjdump failed"; exit 1; }
awk '
  /Function :/ { fn = $3; next }
  /\/\*[0-9a-f]{4,}\*\// && fn != "" {
    line = $0
    sub(/^[ \t]*\/\*[0-9a-f]+\*\/[ \t]*/, "", line)
    sub(/^@!?U?P[0-9T]+[ \t]+/, "", line)
    split(line, w, /[ \t;]+/)
    if (w[1] != "") n[fn "\t" w[1]]++
  }
  END { for (k in n) print k "\t" n[k] }
' "$out/all.sass" | sort >"$out/opcodes.tsv"
awk '/Function :/ { keep = ($3 ~ /rope_kv_fused_kernel/) } keep' "$out/all.sass" >"$out/fused.sass"
rm -f "$out/all.sass"
echo "sass: $(cut -f1 "$out/opcodes.tsv" | sort -u | wc -l) functions, fused.sass $(wc -l <"$out/fused.sass") lines"
