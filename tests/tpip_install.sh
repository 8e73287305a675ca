#!/usr/bin/env bash
# tpip_install.sh: `pip install .` from the repository root builds the Python package through
# scikit-build-core and the project's CMake (here without CUDA and without build isolation: the
# build needs come from the environment, as the README's test command installs them), into a
# fresh target folder; the installed package then sums a file bit for bit as the CLI does.
#   usage: tpip_install.sh SOURCE_DIR PATH/TO/sumlab
set -u
src=${1:?usage: tpip_install.sh SOURCE_DIR PATH/TO/sumlab}
cli=${2:?usage: tpip_install.sh SOURCE_DIR PATH/TO/sumlab}
t=$(mktemp -d "${TMPDIR:-/tmp}/tpip_install.XXXXXX")
trap 'rm -rf "$t"' EXIT
export SUMLAB_NO_GPU=1
if ! SKBUILD_CMAKE_ARGS="-DSUMLAB_ENABLE_CUDA=OFF" SKBUILD_BUILD_DIR="$t/build" \
     python3 -m pip install -q --no-build-isolation --no-deps --target "$t/site" "$src" > "$t/pip.log" 2>&1; then
  echo "tpip_install: FAIL: pip install . failed:" >&2
  tail -30 "$t/pip.log" >&2
  exit 1
fi
"$cli" gen log-uniform --n 5000 --seed 11 -o "$t/x.npy" 2> /dev/null || { echo "tpip_install: FAIL: gen" >&2; exit 1; }
want=$("$cli" sum "$t/x.npy" --backend cpu --variants superacc,reproducible,kahan --format csv \
        --columns variant,result_hex 2> /dev/null | tail -n +2 | grep -v '^exact,')
got=$(cd "$t" && PYTHONPATH="$t/site" python3 -c '
import numpy as np, sumlab
x = np.load("x.npy")
for v in ("superacc", "reproducible", "kahan"):
    print("%s,%s" % (v, float(sumlab.sum(x, variant=v)).hex()))
' 2>&1)
norm() { python3 -c 'import sys
for l in sys.stdin.read().split():
    v, h = l.split(",")
    print(v, float.fromhex(h).hex())'; }
if [ -z "$want" ] || [ "$(norm <<< "$want")" != "$(norm <<< "$got" 2>/dev/null)" ]; then
  echo "tpip_install: FAIL: the installed package differs from the CLI:" >&2
  echo "CLI:" >&2; echo "$want" >&2; echo "package:" >&2; echo "$got" >&2
  exit 1
fi
echo "tpip_install: pip install . built and installed sumlab; 3 variants equal the CLI bit for bit"
