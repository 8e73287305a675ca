#!/usr/bin/env python3
"""bench_python.py: the Python package on CUDA tensors beside the frameworks' own sums, on the
same tensors in one process: sumlab.sum(x, variant=V) against torch.sum and cupy.sum, float32
and bfloat16, device time by CUDA events on torch's current stream (median of R runs after a
warm-up, inputs at least 2 x L2 apart so a run reads DRAM); and the call overhead: host time per call at
n = 2^10 float32 of sumlab.sum(x, V) against the bare extension entry on the same arguments
(_sumlab.reduce_device: result buffer and stream found once, outside the loop), the binding's one
call (_sumlab.reduce: checks, stream, result tensor) and torch.sum(x), rounds alternated in one
process, best round of each.

  usage: bench_python.py [--n 2^20,2^24,2^28] [--reps 20] [--variants vec4,reproducible,superacc]
                         [--overhead-only] [--overhead-variants vec4,superacc] [--calls 20000]
         bench_python.py --cpu [--overhead-variants vec4,superacc] [--calls 100000]
  output: CSV on stdout (dtype,n,impl,time_ms_median,gbps,ratio_torch), then the overhead lines
  (# comments). --cpu: no GPU, no PyTorch: the same per-call comparison on a NumPy array (the
  twin) with numpy.sum, and the package's Python layer alone (the binding stubbed by a no-op)."""
import argparse
import statistics
import sys
import time

import sumlab
from sumlab import _arrays, _sumlab

torch = None   # imported by main() unless --cpu


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


def best_per_call(fns, calls, rounds, sync=None):
    """Host time per call (us) of each fn of the dict fns: rounds alternated (one round of every fn,
    then the next), calls calls a round, best round of each; sync() ends a round (GPU queues)."""
    for fn in fns.values():
        fn()
    if sync:
        sync()
    best = {k: float("inf") for k in fns}
    for _ in range(rounds):
        for k, fn in fns.items():
            t0 = time.perf_counter()
            for _ in range(calls):
                fn()
            if sync:
                sync()
            best[k] = min(best[k], (time.perf_counter() - t0) / calls * 1e6)
    return best


def cpu_overhead(variants, calls, rounds):
    """The per-call comparison on the CPU path: a 2^10 float32 NumPy array, the variant's twin."""
    import numpy as np
    x = np.random.default_rng(20261203).standard_normal(1024).astype(np.float32)
    stub = lambda *a, **k: 0.0   # noqa: E731
    for v in variants:
        fns = {"sumlab.sum": lambda: sumlab.sum(x, v),
               "bare": lambda: _sumlab.reduce_host("sum", v, x, -1, None, -1),
               "numpy.sum": lambda: np.sum(x)}
        t = best_per_call(fns, calls, rounds)
        # the package's Python layer alone: every binding entry the call may reach made a no-op
        saved = {n: getattr(_sumlab, n) for n in ("reduce", "reduce_host") if hasattr(_sumlab, n)}
        try:
            for n in saved:
                setattr(_sumlab, n, stub)
            layer = best_per_call({"layer": lambda: sumlab.sum(x, v)}, calls, rounds)["layer"]
        finally:
            for n, f in saved.items():
                setattr(_sumlab, n, f)
        print(f"# cpu n=2^10 float32 {v}: sumlab.sum {t['sumlab.sum']:.3f} us, bare reduce_host "
              f"{t['bare']:.3f} us (sumlab.sum over it {t['sumlab.sum'] - t['bare']:.3f} us), Python layer alone "
              f"{layer:.3f} us, numpy.sum {t['numpy.sum']:.3f} us (best of {rounds} alternated rounds x {calls})")


def gpu_overhead(variants, calls, rounds):
    """The per-call comparison on a 2^10 float32 CUDA tensor: host time, the launches queued and
    synchronised once a round."""
    x = torch.rand(1024, device="cuda")
    inp = _arrays.take(x)
    out, ptr = _arrays.device_result(inp)
    stream = _arrays.stream_of(inp)
    for v in variants:
        fns = {"sumlab.sum": lambda: sumlab.sum(x, variant=v),
               "binding": lambda: _sumlab.reduce(x, "sum", v, None),
               "bare": lambda: _sumlab.reduce_device("sum", v, inp.obj, inp.hint, None, -1, ptr, stream),
               "torch.sum": lambda: torch.sum(x)}
        t = best_per_call(fns, calls, rounds, sync=torch.cuda.synchronize)
        over = t["sumlab.sum"] - t["bare"]
        print(f"# call at n=2^10 float32, {v}: sumlab.sum {t['sumlab.sum']:.2f} us (its binding call alone "
              f"{t['binding']:.2f} us), bare extension call {t['bare']:.2f} us (package layer {over:.2f} us: "
              f"{'within' if over <= 10 else 'OVER'} the 10 us target), torch.sum {t['torch.sum']:.2f} us "
              f"(best of {rounds} alternated rounds x {calls}, host time per call)")


def main():
    global torch
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", default="2^20,2^24,2^28")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--variants", default="vec4,reproducible,superacc")
    ap.add_argument("--overhead-only", action="store_true", help="only the call overhead at 2^10")
    ap.add_argument("--overhead-variants", default="vec4,superacc")
    ap.add_argument("--calls", type=int, default=0, help="calls per round (default 20000; --cpu 100000)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cpu", action="store_true", help="the CPU path's overhead only (no GPU, no PyTorch)")
    a = ap.parse_args()
    ovars = a.overhead_variants.split(",")
    if a.cpu:
        cpu_overhead(ovars, a.calls or 100_000, a.rounds)
        return
    import torch as _torch
    torch = _torch
    if not torch.cuda.is_available():
        sys.exit("bench_python: no CUDA device (--cpu measures the CPU path)")
    if not a.overhead_only:
        sweep(a)
    gpu_overhead(ovars, a.calls or 20_000, a.rounds)


def sweep(a):
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


if __name__ == "__main__":
    main()
