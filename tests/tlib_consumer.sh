#!/usr/bin/env bash
# tlib_consumer.sh: the installed libsumlab as a user gets it: `cmake --install BUILD --prefix P`,
# then tests/consumer/ configured, built and run against P (find_package(sumlab 0.2), target
# sumlab::sumlab), the same main.c built with `cc $(pkg-config --cflags --libs sumlab)`, a
# version the tree cannot satisfy refused, only the public headers installed, and only sumlab_*
# symbols exported.
# usage: tlib_consumer.sh BUILD_DIR SOURCE_DIR CMAKE C_COMPILER HAVE_MPI [CFLAGS [LDFLAGS]]
#   CFLAGS/LDFLAGS: the build's own (a sanitizer build's consumer needs its runtime first)
set -euo pipefail
build=$1; src=$2; cmake=$3; cc=$4; have_mpi=$5; cflags=${6:-}; ldflags=${7:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sumlab-consumer.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "tlib_consumer: FAIL: $*"; fail=1; }
P=$tmp/prefix
"$cmake" --install "$build" --prefix "$P" > "$tmp/install.log" || { cat "$tmp/install.log"; bad "cmake --install"; exit 1; }

# headers: the API alone
want="sumlab.h types.h"
case $have_mpi in ON|1|TRUE|true) want="sumlab.h sumlab_mpi.h types.h" ;; esac
# the NCCL library's header where the build made it (CUDA and NCCL found: tests/lib.cmake says)
case ${SUMLAB_TEST_NCCL_LIB:-OFF} in ON) want=$(echo $want sumlab_nccl.h | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//') ;; esac
got=$(cd "$P/include/sumlab" && ls | sort | tr '\n' ' ' | sed 's/ $//')
[ "$got" = "$want" ] || bad "installed headers '$got', expected '$want'"
libdir=$(dirname "$(find "$P" -name 'libsumlab.so' | head -1)")
[ -n "$libdir" ] && [ -f "$libdir/pkgconfig/sumlab.pc" ] || bad "no libsumlab.so or sumlab.pc under $P"
[ -f "$libdir/cmake/sumlab/sumlabConfig.cmake" ] && [ -f "$libdir/cmake/sumlab/sumlabConfigVersion.cmake" ] ||
  bad "no CMake package under $libdir/cmake/sumlab"
# exported symbols: sumlab_* only
others=$(nm -D --defined-only "$libdir/libsumlab.so" | awk '{print $3}' | grep -v '^sumlab_' || true)
[ -z "$others" ] || bad "libsumlab.so exports non-API symbols: $(echo $others | head -c 300)"
nm -D --defined-only "$libdir/libsumlab.so" | grep -q ' sumlab_reduce_device$' || bad "sumlab_reduce_device not exported"

# CMake package
if "$cmake" -S "$src/tests/consumer" -B "$tmp/b" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_C_COMPILER="$cc" \
     "-DCMAKE_C_FLAGS=$cflags" "-DCMAKE_EXE_LINKER_FLAGS=$ldflags" > "$tmp/cfg.log" 2>&1 &&
   "$cmake" --build "$tmp/b" > "$tmp/build.log" 2>&1; then
  "$tmp/b/consumer" > "$tmp/run.txt" 2>&1 || { cat "$tmp/run.txt"; bad "the CMake-built consumer failed"; }
  grep -q '^consumer: ok$' "$tmp/run.txt" || bad "the CMake-built consumer did not finish"
  grep -q '^sumlab 0.2.0: ' "$tmp/run.txt" || bad "the consumer did not report version 0.2.0"
else
  cat "$tmp/cfg.log" "$tmp/build.log" 2>/dev/null; bad "tests/consumer did not configure or build against $P"
fi
# a version the tree cannot satisfy is refused
if "$cmake" -S "$src/tests/consumer" -B "$tmp/b3" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_C_COMPILER="$cc" \
     -DSUMLAB_WANT=0.3 > "$tmp/cfg3.log" 2>&1; then
  bad "find_package(sumlab 0.3) accepted the 0.2.0 tree"
fi

# pkg-config
export PKG_CONFIG_PATH=$libdir/pkgconfig
[ "$(pkg-config --modversion sumlab)" = 0.2.0 ] || bad "pkg-config --modversion sumlab: $(pkg-config --modversion sumlab)"
# shellcheck disable=SC2046
# shellcheck disable=SC2086
if "$cc" -std=c11 $cflags -o "$tmp/pc_consumer" "$src/tests/consumer/main.c" $(pkg-config --cflags --libs sumlab) $ldflags 2> "$tmp/pc.log"; then
  LD_LIBRARY_PATH=$libdir "$tmp/pc_consumer" > "$tmp/pc_run.txt" 2>&1 || { cat "$tmp/pc_run.txt"; bad "the pkg-config-built consumer failed"; }
  grep -q '^consumer: ok$' "$tmp/pc_run.txt" || bad "the pkg-config-built consumer did not finish"
else
  cat "$tmp/pc.log"; bad "cc \$(pkg-config --cflags --libs sumlab) failed"
fi
[ "$fail" = 0 ] && { sed -n '1p;/^superacc/p;/^exact/p' "$tmp/run.txt"; echo "tlib_consumer: ok"; }
exit "$fail"
