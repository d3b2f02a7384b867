#!/usr/bin/env bash
# Builds the experiment binaries of a kernel A/B (scripts/device_run.sh ab), here, from the
# committed HEAD (read once), each in a temporary git worktree (the working tree is not touched):
#   DIST/PREFIXNAME/rope-kv-bench   HEAD with PATCH applied and/or configured with -DVAR=VALUE
#                                   (several, joined by commas: NAME=PATCH,-DVAR=VALUE), or as it
#                                   is (NAME=HEAD: an unmodified rebuild); PREFIX is exp-
#   DIST/PREFIXNAME/subset.txt      PATCH's judged cases (X.subset.txt beside X.patch), if any
# The base of the A/B is DIST/rope-kv-bench itself (the normal build of HEAD, stripped like the
# experiments); --base builds it too, from the same pinned revision. The binaries link the CUDA
# runtime statically: the folder can be carried to a GPU box (tar -cJf; 64 MB a device call).
#   scripts/build_kernel_experiments.sh [--dist DIR] [--prefix P] [--base] NAME=PATCH|-DVAR=VALUE|HEAD[,...] ...
#   e.g. scripts/build_kernel_experiments.sh \
#          wide=results/h200/experiments/patches/wide-copies-copy-heavy.patch lb10=-DRKV_FUSED_MIN_CTAS=10
# Before an A/B, check that the kernels the experiment should leave alone are SASS-identical
# (cuobjdump -sass of both binaries; results/NOTES.md, round 7). Exit 4 with one line on a bad
# argument, a patch that is missing or does not apply, a subset the planner refuses
# (scripts/check_case_lists.sh); 1 when a build fails.
set -euo pipefail
usage() {
  sed -n '2,17s/^# \{0,1\}//p' "$0" >&2
  exit 4
}
repo=$(git rev-parse --show-toplevel)
dist=$repo/dist prefix=exp- base=0
while [[ ${1:-} == --dist || ${1:-} == --prefix || ${1:-} == --base ]]; do
  if [[ $1 == --base ]]; then
    base=1
    shift
    continue
  fi
  [[ $# -ge 2 ]] || usage
  if [[ $1 == --dist ]]; then dist=$2; else prefix=$2; fi
  shift 2
done
(($# > 0 || base)) || usage
# Splits a spec's WHAT (comma-separated: -DVAR=VALUE items, HEAD, at most one patch) into $patch
# and $defines; false when it names two patches.
parse_what() {
  local item items
  patch="" defines=()
  IFS=',' read -r -a items <<<"$1"
  for item in "${items[@]}"; do
    case $item in
      -D*=*) defines+=("$item") ;;
      HEAD) ;;
      *) [[ -z $patch ]] || return 1; patch=$item ;;
    esac
  done
}
for spec in "$@"; do  # every argument checked before anything is built
  name=${spec%%=*} what=${spec#*=}
  [[ $spec == *=* && $name =~ ^[A-Za-z0-9_.-]+$ && -n $what ]] && parse_what "$what" ||
    { echo "build_kernel_experiments: '$spec' is not NAME=PATCH, NAME=-DVAR=VALUE, NAME=HEAD or several joined by commas (one patch at most)" >&2; exit 4; }
  if [[ -n $patch ]]; then
    [[ -f $patch ]] || { echo "build_kernel_experiments: $name: no patch file '$patch'" >&2; exit 4; }
    git -C "$repo" apply --check "$(realpath "$patch")" 2>/dev/null ||
      { echo "build_kernel_experiments: $name: '$patch' does not apply to HEAD" >&2; exit 4; }
  fi
done
rev=$(git -C "$repo" rev-parse HEAD)  # pinned: every experiment is built from one revision
export PATH=/usr/local/cuda/bin:$PATH
scratch=$(mktemp -d)
trees=()
cleanup() {
  for t in "${trees[@]}"; do
    git -C "$repo" worktree remove --force "$t" >/dev/null 2>&1 || true
  done
  rm -rf "$scratch"
}
trap cleanup EXIT

# Builds that share a patch share one tree and build folder: a knob sweep reconfigures it and
# recompiles only what the changed definition touches. `-U 'RKV_*'` drops the previous build's
# knobs first, so each build sees the defaults plus its own -D items, as a fresh configure would.
declare -A tree_of=()
specs=("$@")
((base)) && specs=(":base=HEAD" "${specs[@]}")  # ':' keeps it apart from every NAME checked above
for spec in "${specs[@]}"; do
  name=${spec%%=*} what=${spec#*=}
  dest=$dist/$prefix$name
  [[ $name != :base ]] || dest=$dist
  parse_what "$what"
  key=${patch:-HEAD}
  tree=${tree_of[$key]:-}
  if [[ -z $tree ]]; then
    tree=$scratch/tree${#tree_of[@]}
    tree_of[$key]=$tree
    git -C "$repo" worktree add --detach "$tree" "$rev" >/dev/null 2>&1
    trees+=("$tree")
    [[ -z $patch ]] || git -C "$tree" apply "$(realpath "$patch")"
  fi
  # The test build's flags (warnings as errors), without tests or the Python module: only the CLI.
  if ! cmake -S "$tree" -B "$tree/build" -U 'RKV_*' -G Ninja -DRKV_WERROR=ON \
    -DRKV_BUILD_TESTS=OFF -DRKV_BUILD_PYTHON=OFF "${defines[@]}" >"$scratch/$name.log" 2>&1; then
    echo "build_kernel_experiments: $name: cmake failed; its last lines:" >&2
    tail -n 15 "$scratch/$name.log" >&2
    exit 1
  fi
  # A -DVAR the project does not read configures without error and builds HEAD's kernels under
  # the experiment's name (session 48: a knob only the patch's source knew, not CMake, gave two
  # identical builds). CMake lists such variables after this line; refuse them.
  if unused=$(sed -n '/Manually-specified variables were not used/,/^--/p' "$scratch/$name.log" |
    grep -oE '^ +[A-Za-z_][A-Za-z0-9_]*$' | tr -d ' ' | tr '\n' ' ') && [[ -n $unused ]]; then
    echo "build_kernel_experiments: $name: the project does not use ${unused% } (kernels/CMakeLists.txt forwards the knobs it knows)" >&2
    exit 4
  fi
  if ! { cmake --build "$tree/build" -j"$(nproc)" --target rope-kv-bench >>"$scratch/$name.log" 2>&1; }; then
    echo "build_kernel_experiments: $name: the build failed; its last lines:" >&2
    tail -n 15 "$scratch/$name.log" >&2
    exit 1
  fi
  mkdir -p "$dest"
  cp "$tree/build/rope-kv-bench" "$dest/rope-kv-bench"
  # Without its symbol tables (11 % smaller packed): builds travel inside a device call's 64 MB.
  strip "$dest/rope-kv-bench"
  # The patch's judged cases travel with its build (scripts/device_run.sh ab decides with them).
  [[ $name == :base ]] || rm -f "$dest/subset.txt"
  if [[ $patch == *.patch && -f ${patch%.patch}.subset.txt ]]; then
    cp "${patch%.patch}.subset.txt" "$dest/subset.txt"
    # A subset the planner refuses would stop the device call at its first step: refuse it here.
    if ! refusal=$(bash "$repo/scripts/check_case_lists.sh" "$dest/rope-kv-bench" "$dest/subset.txt"); then
      echo "build_kernel_experiments: $name: $refusal" >&2
      exit 4
    fi
  fi
  if [[ $what == HEAD ]]; then what="(unmodified)"; else what="+ $what"; fi
  echo "$dest/rope-kv-bench: $rev $what"
done
