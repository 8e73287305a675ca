#!/usr/bin/env bash
# sass_same.sh: is the GPU code of two commits the same? Checks BASE out in one scratch worktree,
# builds every CUDA object of the build (each `*.cu.o` target) and dumps each object's SASS with
# cuobjdump; then checks HEAD out in the same worktree, rebuilds in the same build folder (what
# changed) and dumps again; then compares the two function by function (experiments/
# sass_compare.py). One source path and one build folder for both: ptxas schedules some kernels
# differently when the same file is compiled from another path (the anonymous namespace's hash
# follows the path; moments_exact.cu's float64 row kernels, measured at 5d29081). So a commit that
# touches kernel sources can show that the code which passed its gpu tests and was timed is the
# code it ships. Uncommitted changes are not seen: commit first.
#   usage: sass_same.sh BASE [HEAD] [-- CMAKE_ARGS...]   (HEAD: default HEAD; e.g. -- -DSUMLAB_LSE_REP1_BINS=ON)
#   env: CUOBJDUMP (default: cuobjdump on PATH, else beside nvcc; it runs nvdisasm from PATH),
#        SASS_SAME_DIR (scratch folder, default a new temporary one, kept), JOBS (default nproc)
#   exit: 0 the same, 1 different, 2 an error (nothing compared)
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
[ $# -ge 1 ] && [ "$1" != -- ] || { sed -n 2,15p "$0" >&2; exit 2; }
base=$1; shift
head=HEAD
if [ $# -gt 0 ] && [ "$1" != -- ]; then head=$1; shift; fi
[ "${1:-}" = -- ] && shift
cm=("$@")
die() { echo "sass_same: $*" >&2; exit 2; }
cuobj=${CUOBJDUMP:-$(command -v cuobjdump || true)}
if [ -z "$cuobj" ] && command -v nvcc >/dev/null; then cuobj=$(dirname "$(command -v nvcc)")/cuobjdump; fi
[ -n "$cuobj" ] && [ -x "$cuobj" ] || die "no cuobjdump (set CUOBJDUMP)"
for r in "$base" "$head"; do
  git -C "$root" rev-parse --verify -q "$r^{commit}" >/dev/null || die "'$r' is not a commit"
done
b_sha=$(git -C "$root" rev-parse "$base^{commit}") h_sha=$(git -C "$root" rev-parse "$head^{commit}")
w=${SASS_SAME_DIR:-$(mktemp -d)}
mkdir -p "$w" || die "cannot make $w"
src=$w/src b=$w/build
git -C "$root" worktree remove --force "$src" >/dev/null 2>&1
git -C "$root" worktree add --detach "$src" "$b_sha" > "$w/git.log" 2>&1 || die "git worktree add failed ($w/git.log)"
trap 'git -C "$root" worktree remove --force "$src" >/dev/null 2>&1' EXIT
# dump SIDE: build every CUDA object of the worktree as it stands, one listing per object
dump() {
  local side=$1 objs o
  [ -f "$b/CMakeCache.txt" ] ||
    cmake -S "$src" -B "$b" -G Ninja -DCMAKE_BUILD_TYPE=Release "${cm[@]}" > "$w/$side.log" 2>&1 ||
    die "$side: cmake failed ($w/$side.log)"
  mapfile -t objs < <(ninja -C "$b" -t targets all | sed -n 's/^\(.*\.cu\.o\): .*/\1/p' | sort -u)
  [ ${#objs[@]} -gt 0 ] || die "$side: no CUDA object in the build"
  ninja -C "$b" -j "${JOBS:-$(nproc)}" "${objs[@]}" >> "$w/$side.log" 2>&1 || die "$side: build failed ($w/$side.log)"
  rm -rf "$w/sass-$side"
  for o in "${objs[@]}"; do
    mkdir -p "$w/sass-$side/$(dirname "$o")"
    "$cuobj" -sass "$b/$o" > "$w/sass-$side/$o.sass" 2>> "$w/$side.log" || die "$side: cuobjdump $o failed"
  done
}
rm -rf "$b"
dump base
git -C "$src" checkout -q --detach "$h_sha" >> "$w/git.log" 2>&1 || die "git checkout $head failed ($w/git.log)"
dump head
echo "sass_same: base $base ($b_sha), head $head ($h_sha); listings in $w"
python3 "$here/sass_compare.py" "$w/sass-base" "$w/sass-head"
