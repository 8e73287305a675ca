#!/usr/bin/env bash
# H200: the package's call overhead at 2^10 (commit e588a64) and the torch.distributed allreduce
# of states with the gloo backend, K = 1..4 processes on one GPU (commit 04a1479).
set -euo pipefail
PYTHONPATH=build-gpu/python python3 experiments/bench_python.py --overhead-only > overhead.txt
PYTHONPATH=build-gpu/python python3 tests/python/dist_torch.py --backend gloo > dist_torch_04a1479.log
