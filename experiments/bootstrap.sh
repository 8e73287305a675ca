#!/usr/bin/env bash
# bootstrap.sh: installs missing Debian packages (as root; otherwise prints the apt-get line
# and stops), then configures and builds sumlab. Sourced by the README's two commands.
#   env: SUMLAB_BUILD_DIR (default build), CMAKE_PREFIX_PATH (extra prefix for MPFR/GMP/cJSON),
#        SUMLAB_SKIP_APT=1 (never touch packages), SUMLAB_CMAKE_ARGS (extra configure args),
#        SUMLAB_PYTHON=0|1 (leave out / require the Python package; default: when it imports)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${SUMLAB_BUILD_DIR:-$root/build}

need=()
if [ "${SUMLAB_SKIP_APT:-0}" != 1 ] && command -v dpkg-query >/dev/null 2>&1; then
  # clang + libclang-rt-dev: the libFuzzer campaign of tests/fuzz.sh (the default build uses gcc);
  # chromium: renders report.html headless in tests/thtml.py; libcmark-gfm(-extensions)-dev:
  # report.md -> report.html (CommonMark + GFM tables, raw HTML dropped)
  for p in libmpfr-dev libgmp-dev libcjson-dev zlib1g-dev gnuplot-nox cmake make gcc pkg-config \
           openmpi-bin libopenmpi-dev clang libclang-rt-dev chromium libcmark-gfm-dev \
           libcmark-gfm-extensions-dev; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
  done
  command -v python3 >/dev/null 2>&1 || need+=(python3)   # the tests' JSON and bit-pattern checks
  # The GPU machine has no MPFR headers and no registry: a prefix in CMAKE_PREFIX_PATH will do.
  if [ -n "${CMAKE_PREFIX_PATH:-}" ] && [ -f "${CMAKE_PREFIX_PATH%%:*}/include/mpfr.h" ]; then
    need=($(printf '%s\n' "${need[@]}" | grep -v -e '^libmpfr-dev$' -e '^libgmp-dev$' -e '^gnuplot-nox$' -e '^chromium$' \
            -e '^libcmark-gfm-dev$' -e '^libcmark-gfm-extensions-dev$' || true))
  fi
  if [ -n "${CMAKE_PREFIX_PATH:-}" ] && [ -f "${CMAKE_PREFIX_PATH%%:*}/include/cjson/cJSON.h" ]; then
    need=($(printf '%s\n' "${need[@]}" | grep -v -e '^libcjson-dev$' || true))
  fi
  # Open MPI (sums across ranks): an MPI already on PATH (the GPU machine's) will do.
  if command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1; then
    need=($(printf '%s\n' "${need[@]}" | grep -v -e '^openmpi-bin$' -e '^libopenmpi-dev$' || true))
  fi
  if [ -n "${CMAKE_PREFIX_PATH:-}" ] && [ -f "${CMAKE_PREFIX_PATH%%:*}/include/zlib.h" ]; then
    need=($(printf '%s\n' "${need[@]}" | grep -v -e '^zlib1g-dev$' || true))
  fi
fi
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "sumlab: installing ${need[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
  else
    echo "sumlab: missing packages; run as root: apt-get install -y ${need[*]}" >&2
    exit 1
  fi
fi

# NumPy and ml_dtypes (pip): tests/tanchors.sh runs experiments/anchors/anchors.py with them
# (ml_dtypes: bfloat16 .npy files); PyTorch stays optional. Not fatal when pip cannot install.
if [ "${SUMLAB_SKIP_APT:-0}" != 1 ] && command -v python3 >/dev/null 2>&1 &&
   ! python3 -c 'import numpy, ml_dtypes' 2>/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    echo "sumlab: installing numpy ml_dtypes (pip)" >&2
    python3 -m pip install -q --root-user-action=ignore numpy ml_dtypes >&2 ||
      echo "sumlab: pip install numpy ml_dtypes failed: tanchors will skip or test less" >&2
  else
    echo "sumlab: NumPy/ml_dtypes missing (tanchors skips); as root: python3 -m pip install numpy ml_dtypes" >&2
  fi
fi

# The Python package (pyproject.toml, python/): its build and test needs from PyPI, as root; the
# build then includes the extension and its pytest suite (tests/python.cmake) when they import.
# SUMLAB_PYTHON=0: leave it out; 1: require it.
py_mods=(scikit_build_core nanobind numpy ml_dtypes pytest)
py_ok() { python3 -c "import $(IFS=,; echo "${py_mods[*]}")" >/dev/null 2>&1; }
if [ "${SUMLAB_PYTHON:-}" != 0 ] && command -v python3 >/dev/null 2>&1 && ! py_ok &&
   [ "${SUMLAB_SKIP_APT:-0}" != 1 ] && [ "$(id -u)" = 0 ]; then
  echo "sumlab: pip-installing the Python package's build and test needs" >&2
  PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q scikit-build-core nanobind numpy ml_dtypes pytest >&2 ||
    echo "sumlab: pip install failed: building without the Python package" >&2
fi
if [ "${SUMLAB_PYTHON:-}" = 1 ] || { [ "${SUMLAB_PYTHON:-}" != 0 ] && command -v python3 >/dev/null 2>&1 && py_ok; }; then
  py_flag=(-DSUMLAB_PYTHON=ON "-DPython_EXECUTABLE=$(command -v python3)")
else
  py_flag=(-DSUMLAB_PYTHON=OFF)
fi

gen=()
if [ ! -f "$build/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then gen=(-G Ninja); fi
args=(-DCMAKE_BUILD_TYPE=Release)
[ -n "${CMAKE_PREFIX_PATH:-}" ] && args+=("-DCMAKE_PREFIX_PATH=$CMAKE_PREFIX_PATH")
# shellcheck disable=SC2206
[ -n "${SUMLAB_CMAKE_ARGS:-}" ] && args+=($SUMLAB_CMAKE_ARGS)
# CCCL 3.3's headers (CUB's determinism tiers) from PyPI into .deps/cccl, where CMake looks; only
# useful with a CUDA compiler. Without them the build falls back to the toolkit's CCCL (no tier
# rows), which configure says.
if [ "${SUMLAB_SKIP_CCCL:-0}" != 1 ] && command -v nvcc >/dev/null 2>&1; then
  bash "$root/experiments/fetch_cccl.sh" "$root/.deps" ||
    echo "sumlab: CCCL 3.5 headers not fetched: building with the toolkit's CCCL (no cub-gpu-to-gpu / cub-not-guaranteed rows)" >&2
fi
cmake -S "$root" -B "$build" "${gen[@]}" "${args[@]}" "${py_flag[@]}" >&2
cmake --build "$build" -j "$(nproc)" >&2
export SUMLAB_BUILD_DIR=$build
