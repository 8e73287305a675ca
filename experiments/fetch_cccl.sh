#!/usr/bin/env bash
# fetch_cccl.sh: set-up step: unpacks CCCL 3.5's headers (CUB's determinism tiers, cub/detail/rfa.cuh; 3.3 and later)
# from the PyPI wheel nvidia-cuda-cccl into PREFIX/cccl/include, where the CMake cache variable
# SUMLAB_CCCL_INCLUDE looks for them; CUDA 13.0's own CCCL 3.0 lacks the tiers.
#   usage: experiments/fetch_cccl.sh PREFIX        (no-op when PREFIX/cccl/include/cub/detail/rfa.cuh exists)
#   env:   SUMLAB_CCCL_VERSION (pip requirement suffix; default "==13.3.5.0.6", the wheel that carries
#          CCCL 3.5, the version sumlab is built and measured with; "" = newest)
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 PREFIX" >&2; exit 2; }
prefix=$1
dest="$prefix/cccl/include"
if [ -f "$dest/cub/detail/rfa.cuh" ]; then
  echo "fetch_cccl: CCCL headers already in $dest" >&2
  exit 0
fi
command -v python3 >/dev/null 2>&1 || { echo "fetch_cccl: python3 not found" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m pip download --no-deps -q -d "$tmp" "nvidia-cuda-cccl${SUMLAB_CCCL_VERSION-==13.3.5.0.6}" >&2 || {
  echo "fetch_cccl: pip download nvidia-cuda-cccl failed (no network or no registry?)" >&2; exit 1; }
mkdir -p "$dest"
python3 - "$tmp" "$dest" <<'PY'
import glob, os, sys, zipfile
whls = glob.glob(os.path.join(sys.argv[1], "nvidia_cuda_cccl-*.whl"))
if not whls:
    sys.exit("fetch_cccl: no nvidia_cuda_cccl wheel was downloaded")
pre = "nvidia/cu13/include/cccl/"
count = 0
with zipfile.ZipFile(whls[0]) as z:
    for m in z.namelist():
        if m.startswith(pre) and not m.endswith("/"):
            out = os.path.join(sys.argv[2], m[len(pre):])
            os.makedirs(os.path.dirname(out), exist_ok=True)
            with open(out, "wb") as f:
                f.write(z.read(m))
            count += 1
print("fetch_cccl: %d headers from %s" % (count, os.path.basename(whls[0])), file=sys.stderr)
PY
test -f "$dest/cub/detail/rfa.cuh" || { echo "fetch_cccl: cub/detail/rfa.cuh missing after unpack" >&2; exit 1; }
echo "fetch_cccl: CCCL headers in $dest" >&2
