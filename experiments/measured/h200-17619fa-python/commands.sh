#!/usr/bin/env bash
# The Python package on CUDA tensors, H200, commit 17619fa (one session): bench_python.csv from
# experiments/bench_python.py (CUDA events on torch's current stream around each call: the host
# call is inside the timed span), bench_cli.csv from the CLI's bench (device time, L2 flushed).
# cuda.compute (the cuda-cccl package) does not import there: no row of it.
export CMAKE_PREFIX_PATH=$PWD/.deps/usr
bash tests/gpu_session.sh build
PYTHONPATH=$PWD/build-gpu/python python3 experiments/bench_python.py --n 2^20,2^24,2^28 --reps 20
build-gpu/experiments/sumlab bench --n 2^20,2^24,2^28 --dtype f32 --reps 20 \
  --variants vec4,reproducible,superacc,cub --columns variant,dtype,n,time_ms_median,ratio_cub
