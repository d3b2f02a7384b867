#!/usr/bin/env bash
# One device call of a kernel A/B, from builds packed by scripts/build_kernel_experiments.sh (the
# base in DIR/rope-kv-bench, the experiments in DIR/exp-*/), run on the GPU box:
#   OUT=OUT_DIR scripts/ab_call.sh TARBALL DIR NAME
# unpacks TARBALL (which holds the folder DIR) into the current folder, runs `device_run.sh ab`
# into OUT_DIR/NAME and packs its files at once (OUT_DIR/NAME-ab.tar.gz: a call cut short still
# brings the A/B back), then `device_run.sh adopted` (the adopted build's validation), and packs
# the whole of OUT_DIR/NAME into OUT_DIR/NAME.tar.gz in place of both. device_run.sh's
# environment passes through: AB_CONFIGS, AB_CASES, AB_ROUNDS, AB_SUBSET, AB_MIN_GAIN, AB_JUDGE,
# AB_BASE_AGAIN, AB_PREFER, ADOPTED_STEPS.
# Exit 4 with one line on a bad argument; otherwise 0 (each step's exit is in NAME/steps.txt).
set -u
if (($# != 3)) || [[ -z ${OUT:-} ]]; then
  echo "usage: OUT=DIR scripts/ab_call.sh TARBALL DIR NAME" >&2
  exit 4
fi
tarball=$1 dir=$2 name=$3
here=$(cd "$(dirname "$0")" && pwd)
[[ -f $tarball ]] || { echo "ab_call: no file '$tarball' (carry it)" >&2; exit 4; }
[[ $name =~ ^[A-Za-z0-9_.-]+$ ]] ||
  { echo "ab_call: NAME '$name' is not letters, digits, '.', '_', '-'" >&2; exit 4; }
tar -xJf "$tarball" || { echo "ab_call: cannot unpack '$tarball'" >&2; exit 4; }
[[ -f $dir/rope-kv-bench ]] || { echo "ab_call: '$tarball' holds no $dir/rope-kv-bench" >&2; exit 4; }
chmod +x "$dir"/rope-kv-bench "$dir"/*/rope-kv-bench 2>/dev/null
bin=$(cd "$dir" && pwd)  # device_run.sh works from the repository root: absolute paths
mkdir -p "$OUT/$name"
out=$(cd "$OUT" && pwd)
BIN=$bin OUT=$out/$name bash "$here/device_run.sh" ab
tar -C "$out" -czf "$out/$name-ab.tar.gz" "$name"
BIN=$bin OUT=$out/$name bash "$here/device_run.sh" adopted
tar -C "$out" -czf "$out/$name.tar.gz" "$name" && rm -rf "${out:?}/$name" "$out/$name-ab.tar.gz"
exit 0
