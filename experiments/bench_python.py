#!/usr/bin/env python3
"""bench_python.py: the Python package on CUDA tensors beside PyTorch's own reductions, on the
same tensors in one process: sumlab.reduce(x, OP, V) against torch.sum / torch.linalg.vector_norm
/ torch.dot (and cupy.sum), float32 and bfloat16, device time by CUDA events on torch's current
stream (median of R runs after a warm-up, inputs at least 2 x L2 apart so a run reads DRAM); and
the call overhead, the launch-bound regime: at n = 2^10 float32, the host time per call of
sumlab.reduce(x, OP, V) (the package), the binding's one call (_sumlab.reduce: checks, stream,
result tensor), the bare extension entry on the same arguments (_sumlab.reduce_device: result
buffer and stream found once, outside the loop; it reads the tensor through nanobind's DLPack
import, which the binding's call skips for a plain tensor, so the package can come out below
it) and torch's own call, CALLS calls a round (the
queue synchronised at each round's end), rounds alternated in one process, best round of each;
and the median time between two CUDA events around one isolated call (its host and device time).

  usage: bench_python.py [--n 2^20,2^24,2^28] [--reps 20] [--variants vec4,reproducible,superacc]
                         [--overhead-only] [--overhead-variants vec4,superacc,norm2:correct,dot:correct]
                         [--calls 20000] [--rounds 5]
         bench_python.py --cpu [--overhead-variants vec4,superacc] [--calls 100000]
  A variant is VARIANT (of the sum) or OP:VARIANT (OP one of sum, norm2, dot).
  output: CSV on stdout (dtype,n,impl,time_ms_median,gbps,ratio_torch,op; ratio_torch: the time of
  torch's call for the same op over the row's), then the overhead CSV
  (op,variant,dtype,n,impl,host_us_per_call,event_us_median,calls,rounds) and one summary line per
  variant (# comments). --cpu: no GPU, no PyTorch: the same per-call comparison on a NumPy array
  (the twin) with numpy.sum, and the package's Python layer alone (the binding stubbed by a no-op)."""
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


def op_variant(item):
    """'VARIANT' (the sum's) or 'OP:VARIANT' as (op, variant)."""
    op, sep, v = item.partition(":")
    if not sep:
        op, v = "sum", item
    if op not in ("sum", "norm2", "dot") or not v:
        sys.exit(f"bench_python: '{item}' is not VARIANT or OP:VARIANT with OP one of sum, norm2, dot")
    return op, v


def torch_op(op):
    """PyTorch's own call for op on (x, y)."""
    return {"sum": lambda x, y: torch.sum(x),
            "norm2": lambda x, y: torch.linalg.vector_norm(x),
            "dot": lambda x, y: torch.dot(x, y)}[op]


def cpu_overhead(variants, calls, rounds):
    """The per-call comparison on the CPU path: a 2^10 float32 NumPy array, the variant's twin."""
    import numpy as np
    x = np.random.default_rng(20261203).standard_normal(1024).astype(np.float32)
    stub = lambda *a, **k: 0.0   # noqa: E731
    for item in variants:
        op, v = op_variant(item)
        y = x[::-1].copy() if op == "dot" else None
        fns = {"sumlab.reduce": lambda: sumlab.reduce(x, op, v, y),
               "bare": lambda: _sumlab.reduce_host(op, v, x, -1, y, -1),
               "numpy": (lambda: np.dot(x, y)) if op == "dot" else
                        (lambda: np.linalg.norm(x)) if op == "norm2" else (lambda: np.sum(x))}
        t = best_per_call(fns, calls, rounds)
        # the package's Python layer alone: every binding entry the call may reach made a no-op
        saved = {n: getattr(_sumlab, n) for n in ("reduce", "reduce_host") if hasattr(_sumlab, n)}
        try:
            for n in saved:
                setattr(_sumlab, n, stub)
            layer = best_per_call({"layer": lambda: sumlab.reduce(x, op, v, y)}, calls, rounds)["layer"]
        finally:
            for n, f in saved.items():
                setattr(_sumlab, n, f)
        print(f"# cpu n=2^10 float32 {op} {v}: sumlab.reduce {t['sumlab.reduce']:.3f} us, bare reduce_host "
              f"{t['bare']:.3f} us (sumlab.reduce over it {t['sumlab.reduce'] - t['bare']:.3f} us), Python layer "
              f"alone {layer:.3f} us, numpy {t['numpy']:.3f} us (best of {rounds} alternated rounds x {calls})")


def gpu_overhead(variants, calls, rounds):
    """The per-call comparison on a 2^10 float32 CUDA tensor (and a second one for dot): host time,
    the launches queued and synchronised once a round; then one isolated call between events."""
    n = 1024
    x = torch.rand(n, device="cuda")
    yt = torch.rand(n, device="cuda")
    inp, yin = _arrays.take(x), _arrays.take(yt)
    out, ptr = _arrays.device_result(inp)
    stream = _arrays.stream_of(inp)
    print("op,variant,dtype,n,impl,host_us_per_call,event_us_median,calls,rounds")
    for item in variants:
        op, v = op_variant(item)
        y = yt if op == "dot" else None
        yo, yh = (yin.obj, yin.hint) if op == "dot" else (None, -1)
        tf = torch_op(op)
        fns = {"sumlab.reduce": lambda: sumlab.reduce(x, op, v, y),
               "binding": lambda: _sumlab.reduce(x, op, v, y),
               "bare": lambda: _sumlab.reduce_device(op, v, inp.obj, inp.hint, yo, yh, ptr, stream),
               f"torch.{op}": lambda: tf(x, y)}
        t = best_per_call(fns, calls, rounds, sync=torch.cuda.synchronize)
        ev = {k: timed(fn, 200) * 1e3 for k, fn in fns.items()}   # one call between events, us
        for k in fns:
            print(f"{op},{v},float32,{n},{k},{t[k]:.3f},{ev[k]:.3f},{calls},{rounds}")
        over = t["sumlab.reduce"] - t["bare"]
        print(f"# call at n=2^10 float32, {op} {v}: sumlab.reduce {t['sumlab.reduce']:.2f} us (its binding call "
              f"alone {t['binding']:.2f} us), bare extension call {t['bare']:.2f} us (package layer {over:+.2f} us: "
              f"{'within' if over <= 10 else 'OVER'} the 10 us target), torch.{op} {t[f'torch.{op}']:.2f} us "
              f"(best of {rounds} alternated rounds x {calls}, host time per call); one call between events: "
              f"{ev['sumlab.reduce']:.2f} us against torch.{op}'s {ev[f'torch.{op}']:.2f} us")
        sys.stdout.flush()


def main():
    global torch
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", default="2^20,2^24,2^28")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--variants", default="vec4,reproducible,superacc")
    ap.add_argument("--overhead-only", action="store_true", help="only the call overhead at 2^10")
    ap.add_argument("--overhead-variants", default="vec4,superacc,norm2:correct,dot:correct")
    ap.add_argument("--calls", type=int, default=0, help="calls per round (default 20000; --cpu 100000)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cpu", action="store_true", help="the CPU path's overhead only (no GPU, no PyTorch)")
    a = ap.parse_args()
    ovars = a.overhead_variants.split(",")
    for item in ovars + a.variants.split(","):
        op_variant(item)                         # a bad item: one message, before any work
    if a.cpu:
        cpu_overhead(ovars, a.calls or 100_000, a.rounds)
        return
    try:
        import torch as _torch
    except ImportError:
        sys.exit("bench_python: PyTorch is not installed (--cpu measures the CPU path)")
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
    for item in a.variants.split(","):
        op, v = op_variant(item)
        impls[f"sumlab.{op}[{v}]" if op != "sum" else f"sumlab.sum[{v}]"] = (
            op, lambda x, y, op=op, v=v: sumlab.reduce(x, op, v, y if op == "dot" else None))
    ops = sorted({op for op, _ in impls.values()})
    for op in ops:
        impls[f"torch.{op}"] = (op, lambda x, y, f=torch_op(op): f(x, y))
    if cupy is not None and "sum" in ops:
        impls["cupy.sum"] = ("sum", lambda x, y: cupy.sum(cupy.from_dlpack(x)))
    print("dtype,n,impl,time_ms_median,gbps,ratio_torch,op")
    g = torch.Generator(device="cuda").manual_seed(20261203)
    for dt in (torch.float32, torch.bfloat16):
        for n in parse_n(a.n):
            x = (torch.rand(n, device="cuda", generator=g) * 2 - 1).to(dt)   # uniform-sym
            y = (torch.rand(n, device="cuda", generator=g) * 2 - 1).to(dt) if "dot" in ops else None
            # cupy has no bfloat16: its row is float32 only
            ms = {}
            for name, (op, fn) in impls.items():
                if name == "cupy.sum" and dt == torch.bfloat16:
                    continue
                ms[name] = timed(lambda: fn(x, y), a.reps)
            for name, t in ms.items():
                op = impls[name][0]
                nbytes = n * x.element_size() * (2 if op == "dot" else 1)
                print(f"{str(dt).split('.')[1]},{n},{name},{t:.6f},{nbytes / t / 1e6:.1f},"
                      f"{ms[f'torch.{op}'] / t:.4f},{op}")
            sys.stdout.flush()
            del x, y


if __name__ == "__main__":
    main()
