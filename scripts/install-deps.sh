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
