#!/usr/bin/env python3
"""batch_torch.py: the batch-invariance experiment's measurement for PyTorch: the number of
distinct bit patterns of rows 0, 1, 15 and 1023 of X[:B] over the batch sizes B in
{1, 2, 3, 4, 7, 8, 16, 31, 32, 64, 100, 128, 256, 512, 1024, 2048, 4096}, for torch.sum,
torch.var, torch.logsumexp, torch.linalg.vector_norm (dim=-1), x.pow(2).mean(-1) and
torch.matmul(X[:B], w) (a matrix-vector product: the dot of every row with one vector w of N values
drawn after X, as sumlab's batch-invariance experiment takes dot), on a CUDA GPU, float32 and bfloat16, N 4096 and 32768, with the throughput of the largest batch; the
columns of sumlab's DIR/batch_invariance.csv (experiments/study/exp_batch.c), so the two can be
read together.

  batch_torch.py -o OUT.csv [--n 4096,32768] [--bmax 4096] [--seed S] [--reps R] [--device cuda]

Written into a run directory as DIR/batch_torch.csv before `sumlab run batch-invariance -o DIR`
(or a run resumed in DIR), its rows join DIR/batch_invariance.csv and the table of
DIR/batch_invariance.md (path `torch`): the experiment validates every field and leaves the file
out whole when anything in it is not what this script writes.

Needs PyTorch with a CUDA device (exit 77 without, so a test can skip). X: values uniform in
[-1, 1) from torch.Generator(seed), the same X[:B] prefix for every B."""
import argparse
import csv
import sys
import time

BATCHES = [1, 2, 3, 4, 7, 8, 16, 31, 32, 64, 100, 128, 256, 512, 1024, 2048, 4096]
ROWS = [0, 1, 15, 1023]
COLUMNS = ["op", "variant", "family", "det_class", "dtype", "n", "row", "batches", "distinct", "backend",
           "gbps", "path"]


def methods(torch, w):
    """(op as sumlab names it, PyTorch's call); w: the vector of the matrix-vector product."""
    return [
        ("sum", "torch.sum", lambda x: torch.sum(x, dim=-1)),
        ("var", "torch.var", lambda x: torch.var(x, dim=-1)),
        ("lse", "torch.logsumexp", lambda x: torch.logsumexp(x, dim=-1)),
        ("norm2", "torch.linalg.vector_norm", lambda x: torch.linalg.vector_norm(x, dim=-1)),
        ("mean", "x.pow(2).mean", lambda x: x.pow(2).mean(-1)),
        ("dot", "torch.matmul", lambda x: torch.matmul(x, w)),
    ]


def bits(t):
    """A 0-d tensor's bit pattern as an int (its format's width)."""
    import torch
    v = t.detach().cpu()
    return int(v.view(torch.int16 if v.element_size() == 2 else torch.int32 if v.element_size() == 4
                      else torch.int64).item())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--n", default="4096,32768")
    ap.add_argument("--bmax", type=int, default=4096)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--device", default="cuda")
    a = ap.parse_args(argv)
    try:
        import torch
    except ImportError:
        print("batch_torch.py: PyTorch is not installed", file=sys.stderr)
        return 77
    if a.device.startswith("cuda") and not torch.cuda.is_available():
        print("batch_torch.py: no CUDA device", file=sys.stderr)
        return 77
    dev = torch.device(a.device)
    ns = [int(s) for s in a.n.split(",") if s]
    out = []
    for dtype_name, dtype in (("f32", torch.float32), ("bf16", torch.bfloat16)):
        for n in ns:
            g = torch.Generator(device="cpu").manual_seed(a.seed)
            X = (torch.rand(a.bmax, n, generator=g) * 2 - 1).to(dtype).to(dev)
            w = (torch.rand(n, generator=g) * 2 - 1).to(dtype).to(dev)
            for op, name, fn in methods(torch, w):
                seen = {r: set() for r in ROWS}
                count = {r: 0 for r in ROWS}
                gbps = float("nan")
                for B in [b for b in BATCHES if b <= a.bmax]:
                    y = fn(X[:B])
                    for r in ROWS:
                        if r < B:
                            seen[r].add(bits(y[r]))
                            count[r] += 1
                    if B == max(b for b in BATCHES if b <= a.bmax):
                        if dev.type == "cuda":
                            torch.cuda.synchronize()
                        t0 = time.perf_counter()
                        for _ in range(a.reps):
                            fn(X[:B])
                        if dev.type == "cuda":
                            torch.cuda.synchronize()
                        dt = (time.perf_counter() - t0) / a.reps
                        # the bytes read: X[:B] (and w once)
                        gbps = (B + (op == "dot")) * n * X.element_size() / dt / 1e9
                for r in ROWS:
                    if count[r] >= 2:
                        out.append([op, name, "pytorch", "", dtype_name, n, r, count[r], len(seen[r]),
                                    dev.type if dev.type != "cuda" else "gpu", f"{gbps:.6g}", "torch"])
            del X, w
    with open(a.out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(COLUMNS)
        w.writerows(out)
    print(f"batch_torch.py: {len(out)} rows written to {a.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
