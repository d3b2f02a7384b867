#!/usr/bin/env bash
# Installs what the build needs and is missing, on Debian/Ubuntu; checks for nvcc and CMake >= 3.25.
# Usage: scripts/install-deps.sh
#
# Asks apt only when a package is missing (dpkg-query first), so a second run, or a CI machine that
# already has everything, touches no network. Uses sudo when not root; noninteractive, since CI
# runs this as root with no stdin. The CUDA Toolkit is not a distro package we can rely on (the
# Debian one is old and non-free), so for nvcc it only tells the user what to do.
set -euo pipefail

# libsqlite3-dev: the run history; sqlite3: scripts/make_history.sh's text dump;
# python3-jsonschema: the report schema test; chromium: the dashboard's headless-browser test.
packages=(cmake ninja-build g++ libcli11-dev nlohmann-json3-dev libfmt-dev libbenchmark-dev
  libgtest-dev libsqlite3-dev sqlite3 python3-jsonschema chromium)
# The dump round-trip test reads validate --dump output back with numpy (scripts/read_dump.py).
packages+=(python3-numpy)

# The fuzz targets (tests/fuzz/): clang, its runtime for -fsanitize=fuzzer (libclang-rt-dev) and
# the libFuzzer package of the same LLVM version as the clang that `clang` installs.
packages+=(clang libclang-rt-dev)
if command -v apt-cache >/dev/null 2>&1; then
  llvm_version=$(apt-cache depends clang 2>/dev/null | sed -n 's/.*Depends: clang-\([0-9][0-9]*\)$/\1/p' | head -n1)
  if [[ -n $llvm_version ]] && apt-cache show "libfuzzer-$llvm_version-dev" >/dev/null 2>&1; then
    packages+=("libfuzzer-$llvm_version-dev")
  fi
fi

# The Python package (python/) is built and tested for the python3 on PATH (CMake uses that one):
# it needs that Python's headers, nanobind, pytest and numpy. Debian's own python3 (no python3 at
# all counts as that) takes Debian's packages, as PEP 668 keeps pip out of it; where Debian has no
# python3-nanobind (Debian 12), nanobind alone comes from PyPI into the user's site. Any other
# python3 (pyenv, a venv, conda) gets what it lacks from PyPI through its own pip, below.
python_has() { python3 -c "import $1" >/dev/null 2>&1; }
python_headers() {
  python3 -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' >/dev/null 2>&1
}
debian_python=0
if ! command -v python3 >/dev/null 2>&1 ||
  python3 -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")))' >/dev/null 2>&1; then
  debian_python=1
  packages+=(python3 python3-dev python3-pytest python3-numpy)
  if apt-cache show python3-nanobind >/dev/null 2>&1; then packages+=(python3-nanobind); fi
fi

if command -v dpkg-query >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  if ((${#missing[@]} > 0)); then
    sudo=()
    if [[ $(id -u) -ne 0 ]]; then
      if ! command -v sudo >/dev/null 2>&1; then
        echo "install-deps: missing ${missing[*]}; run as root or install sudo" >&2
        exit 1
      fi
      sudo=(sudo)
    fi
    echo "install-deps: installing ${missing[*]}"
    # `env` because sudo drops the caller's environment.
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
      "${missing[@]}"
  fi
else
  echo "install-deps: not Debian/Ubuntu; install yourself: ${packages[*]} (or your distro's names)" >&2
fi

# Python: whatever the python3 on PATH still lacks, from PyPI.
pip_missing=()
for m in nanobind pytest numpy; do python_has "$m" || pip_missing+=("$m"); done
if ((${#pip_missing[@]} > 0)); then
  echo "install-deps: pip installing ${pip_missing[*]} for $(command -v python3)"
  pip_flags=(-q --disable-pip-version-check)
  if [[ $(id -u) -eq 0 ]]; then pip_flags+=(--root-user-action=ignore); fi
  # Debian's python3: only ever nanobind here (the rest came from apt), a build-time package of
  # headers and sources, into the user site, leaving Debian's own folders alone.
  if ((debian_python)); then pip_flags+=(--user --break-system-packages); fi
  python3 -m pip install "${pip_flags[@]}" "${pip_missing[@]}"
fi
if ! python_headers; then
  echo "install-deps: $(command -v python3) has no development headers (Python.h); install them (Debian: python3-dev) or pass -DRKV_BUILD_PYTHON=OFF to CMake" >&2
  exit 1
fi

# CMake 3.25: the CUDA::nvtx3 target first came with FindCUDAToolkit in 3.25.
need=3.25
cmake_version=$(cmake --version 2>/dev/null | sed -n '1s/^cmake version \([0-9.]*\).*/\1/p')
if [[ -z $cmake_version ]] ||
  [[ $(printf '%s\n' "$need" "$cmake_version" | sort -V | head -n1) != "$need" ]]; then
  echo "install-deps: CMake ${cmake_version:-(none)} is older than the $need this project needs; install a newer one (pip install cmake, or Kitware's APT repository)" >&2
  exit 1
fi

# nvcc: on PATH, or where the CUDA installers put it (test.sh adds that folder to PATH).
if ! command -v nvcc >/dev/null 2>&1 && [[ ! -x /usr/local/cuda/bin/nvcc ]]; then
  echo "install-deps: nvcc not found (PATH, /usr/local/cuda/bin): install the NVIDIA CUDA Toolkit 12.4 or newer from https://developer.nvidia.com/cuda-downloads" >&2
  exit 1
fi
