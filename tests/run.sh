#!/usr/bin/env bash
# run.sh: the README's test command. Installs what is missing (as root), builds, and runs the
# whole ctest suite (gpu-labelled tests skip with code 77 when no GPU is present).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=../experiments/bootstrap.sh
source "$root/experiments/bootstrap.sh"
cd "$SUMLAB_BUILD_DIR"
ctest --output-on-failure -j "$(nproc)" "$@"
