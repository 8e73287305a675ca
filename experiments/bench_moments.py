#!/usr/bin/env python3
"""bench_moments.py: the moment operations (mean, var, std, max), norm2 and dot of the Python
package on CUDA tensors beside PyTorch's own on the same tensors in one process:
sumlab.reduce(x, op=OP, variant=V[, y=Y]) against torch.var / torch.std / torch.mean / torch.max /
torch.linalg.vector_norm / torch.dot, with torch.sum of x as the read rate of the same bytes (dot
reads twice those bytes); device time by CUDA events on torch's current stream (median of R runs
after a warm-up). The data is N(0, 1) (torch.randn) rounded to the format; every tensor is at
least 2^24 values, beyond the L2 cache, so every run reads DRAM.

  usage: bench_moments.py [--n 2^24,2^28] [--reps 20] [--dtypes float32,float64,bfloat16,float16]
                          [--ops var:textbook,var:welford,...]
  output: CSV on stdout: dtype,n,op,impl,time_ms_median,gbps,ratio_torch_op,ratio_torch_sum,check
  (ratio_torch_op: torch's time for that operation / this time, > 1 faster than torch;
  ratio_torch_sum: torch.sum's time / this time, the fraction of the read rate; check: a sumlab
  row's result judged on a host copy against the exact result and its variant's a-priori bound,
  as `sumlab bench` checks its rows: ok or FAILED, '-' for torch's rows), after '# key: value'
  provenance lines (sumlab_version, git_sha from SUMLAB_GIT_SHA, torch_version, gpu_name) as
  `sumlab bench` writes. Exit 1 when a check failed (after every row), 2 for bad usage."""
import argparse
import os
import re
import sys

import bench_python   # its timing helpers (CUDA events on torch's current stream)
import sumlab

torch = None   # imported by main()
parse_n, timed = bench_python.parse_n, bench_python.timed

DEFAULT_OPS = ("mean:naive,mean:f64-acc,var:textbook,var:two-pass,var:corrected,var:welford,var:welford-ln,"
               "var:welford-f64,var:textbook-f64,var:fused,std:welford,max:block-reduce,max:fused")


TORCH = {
    "mean": lambda x, y: torch.mean(x),
    "var": lambda x, y: torch.var(x),
    "std": lambda x, y: torch.std(x),
    "max": lambda x, y: torch.max(x),
    "min": lambda x, y: torch.min(x),
    "norm2": lambda x, y: torch.linalg.vector_norm(x),
    "dot": lambda x, y: torch.dot(x, y),
}


def host_check(x, value, op, variant, y=None):
    """'ok' when value (a float or a 0-d result of any framework) lies within variant's a-priori
    bound of op's exact result over the host arrays x (and y for dot), else 'FAILED' (so is an
    inf or NaN where the exact result is finite)."""
    j = sumlab.judge(x, value, op=op, bound_of=variant, y=y)
    return "ok" if j.abs_err <= j.bound_abs else "FAILED"


def main():
    global torch
    import torch as torch_module
    torch = bench_python.torch = torch_module
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", default="2^24,2^28")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--dtypes", default="float32,float64,bfloat16,float16")
    ap.add_argument("--ops", default=DEFAULT_OPS)
    a = ap.parse_args()
    if not torch.cuda.is_available():
        sys.exit("bench_moments: no CUDA device")
    pairs = []
    for item in a.ops.split(","):
        op, _, v = item.partition(":")
        if op not in TORCH or not v:
            sys.exit(f"bench_moments: --ops item '{item}' is not OP:VARIANT with OP one of {sorted(TORCH)}")
        pairs.append((op, v))
    known = {(v.op, v.name) for v in sumlab.variants()}
    missing = [f"{op}:{v}" for op, v in pairs if (op, v) not in known]
    if missing:
        sys.exit(f"bench_moments: no such variant in this build: {', '.join(missing)}")
    print(f"# sumlab_version: {sumlab.__version__}")
    sha = os.environ.get("SUMLAB_GIT_SHA", "")
    if re.fullmatch(r"[0-9a-f]{7,40}", sha):
        print(f"# git_sha: {sha}")
    print(f"# torch_version: {torch.__version__}")
    print("# gpu_name: " + re.sub(r"[^\x20-\x7e]", "?", torch.cuda.get_device_name()))
    print("dtype,n,op,impl,time_ms_median,gbps,ratio_torch_op,ratio_torch_sum,check")
    failed = 0
    g = torch.Generator(device="cuda").manual_seed(20261203)
    for name in a.dtypes.split(","):
        dt = getattr(torch, name)
        for n in parse_n(a.n):
            x = torch.randn(n, device="cuda", generator=g, dtype=torch.float32).to(dt)
            y = (torch.randn(n, device="cuda", generator=g, dtype=torch.float32).to(dt)
                 if any(op == "dot" for op, _ in pairs) else None)
            gb = n * x.element_size() / 1e6
            t_sum = timed(lambda: torch.sum(x), a.reps)
            t_op = {op: timed(lambda op=op: TORCH[op](x, y), a.reps) for op in sorted({p[0] for p in pairs})}
            print(f"{name},{n},sum,torch.sum,{t_sum:.6f},{gb / t_sum:.1f},1.0000,1.0000,-")
            for op, t in t_op.items():
                print(f"{name},{n},{op},torch.{op},{t:.6f},{gb / t:.1f},1.0000,{t_sum / t:.4f},-")
            xh = yh = None   # host copies for the checks, made once
            for op, v in pairs:
                info = next(i for i in sumlab.variants(op) if i.name == v)
                if name not in info.dtypes:
                    continue
                yv = y if op == "dot" else None
                t = timed(lambda: sumlab.reduce(x, op=op, variant=v, y=yv), a.reps)
                if xh is None:
                    xh = x.cpu()
                    yh = y.cpu() if y is not None else None
                ok = host_check(xh, sumlab.reduce(x, op=op, variant=v, y=yv), op, v, yh if op == "dot" else None)
                failed += ok != "ok"
                print(f"{name},{n},{op},sumlab[{v}],{t:.6f},{gb / t:.1f},{t_op[op] / t:.4f},{t_sum / t:.4f},{ok}")
            sys.stdout.flush()
            del x, xh
    if failed:
        print(f"bench_moments: {failed} result(s) outside their variant's bound (check FAILED)", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
