#!/usr/bin/env python3
"""bench_python.py: the Python package on CUDA tensors beside the frameworks' own sums, on the
same tensors in one process: sumlab.sum(x, variant=V) against torch.sum and cupy.sum (and
cuda.compute's gpu_to_gpu reduction where the `cuda-cccl` package imports), float32 and bfloat16,
device time by CUDA events on torch's current stream (median of R runs after a warm-up, inputs
at least 2 x L2 apart so a run reads DRAM); and the call overhead: host time of one
sumlab.sum(x) at n = 2^10 against one bare call of the extension on the same arguments.

  usage: bench_python.py [--n 2^20,2^24,2^28] [--reps 20] [--variants vec4,reproducible,superacc]
  output: CSV on stdout (dtype,n,impl,time_ms_median,gbps,ratio_torch), then the overhead lines
  (# comments)."""
import argparse
import statistics
import sys
import time

import torch

import sumlab
from sumlab import _arrays, _sumlab


def parse_n(s):
    out = []
    for t in s.split(","):
        t = t.strip()
        out.append(2 ** int(t[2:]) if t.startswith("2^") else int(t))
    return out


def timed(fn, reps):
    """Median device time (ms) of fn() over reps runs, each between two events on the current
    stream, after one warm-up run."""
    fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        ts.append(a.elapsed_time(b))
    return statistics.median(ts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", default="2^20,2^24,2^28")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--variants", default="vec4,reproducible,superacc")
    a = ap.parse_args()
    if not torch.cuda.is_available():
        sys.exit("bench_python: no CUDA device")
    try:
        import cupy
    except ImportError:
        cupy = None
    impls = {}
    for v in a.variants.split(","):
        impls[f"sumlab.sum[{v}]"] = lambda x, v=v: sumlab.sum(x, variant=v)
    impls["torch.sum"] = lambda x: torch.sum(x)
    if cupy is not None:
        impls["cupy.sum"] = lambda x: cupy.sum(cupy.from_dlpack(x))
    print("dtype,n,impl,time_ms_median,gbps,ratio_torch")
    g = torch.Generator(device="cuda").manual_seed(20261203)
    for dt in (torch.float32, torch.bfloat16):
        for n in parse_n(a.n):
            x = (torch.rand(n, device="cuda", generator=g) * 2 - 1).to(dt)   # uniform-sym
            # cupy has no bfloat16: its row is float32 only
            ms = {}
            for name, fn in impls.items():
                if name == "cupy.sum" and dt == torch.bfloat16:
                    continue
                ms[name] = timed(lambda: fn(x), a.reps)
            for name, t in ms.items():
                print(f"{str(dt).split('.')[1]},{n},{name},{t:.6f},{n * x.element_size() / t / 1e6:.1f},"
                      f"{ms['torch.sum'] / t:.4f}")
            del x
    # call overhead at 2^10: the package's sum against the bare extension call, host time per
    # call (the launches queue; synchronised once at the end)
    x = torch.rand(1024, device="cuda")
    inp = _arrays.take(x)
    out, ptr = _arrays.device_result(inp)
    stream = _arrays.stream_of(inp)
    K = 20000

    def per_call(fn):
        fn()
        torch.cuda.synchronize()
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            for _ in range(K):
                fn()
            torch.cuda.synchronize()
            best = min(best, (time.perf_counter() - t0) / K * 1e6)
        return best

    pkg = per_call(lambda: sumlab.sum(x, variant="vec4"))
    bare = per_call(lambda: _sumlab.reduce_device("sum", "vec4", inp.obj, inp.hint, None, -1, ptr, stream))
    tsum = per_call(lambda: torch.sum(x))
    print(f"# call at n=2^10 float32, vec4: sumlab.sum {pkg:.2f} us, bare extension call {bare:.2f} us "
          f"(package layer {pkg - bare:.2f} us), torch.sum {tsum:.2f} us (best of 5 x {K}, host time per call)")


if __name__ == "__main__":
    main()
