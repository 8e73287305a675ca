#!/usr/bin/env python3
"""dist_torch.py: sumlab.allreduce across real processes: K = 1, 2, 3, 4 ranks, each holding a
different split (a seeded permutation cut into K uneven parts, one of them empty at K = 4) of
the same float32, float64 and bfloat16 inputs, add their part to a State ("reproducible",
"superacc"), allreduce it, and every rank's merged state must have the same bytes and result
bits for every K as the one-process state over the whole input and as one sumlab.sum call; the
"superacc" result must be the exact sum rounded once (sumlab.judge's exact) and the
"reproducible" one within its bound.

  --backend gloo   torch.distributed (gloo, file:// rendezvous): CPU tensors, and CUDA tensors on
                   device 0 where torch.cuda.is_available(); allreduce over the default group,
                   dist.group.WORLD and a new_group of every rank (gathered states), and the
                   default group through the integer limbs (all_reduce MAX then SUM on int64
                   CPU tensors). Exit 77 without PyTorch.
  --backend nccl   torch.distributed (NCCL): rank r on GPU r, CUDA tensors; allreduce through the
                   integer limbs (all_reduce MAX then SUM on int64 CUDA tensors: the default for an
                   NCCL group) over the default group and dist.group.WORLD, and the gathered states.
                   K = 1 .. min(4, GPUs) (NCCL takes one GPU per rank). Exit 77 without a GPU.
  --backend files  no PyTorch: the same processes and splits on NumPy arrays, allreduce over an
                   mpi4py-like communicator (allgather through files): gathered states, and the
                   integer limbs (MAX and SUM over the allgather): the package's other paths.
usage: PYTHONPATH=<build>/python python3 tests/python/dist_torch.py [--backend gloo|nccl|files]
       [--n 100003] [--seed S]   (SUMLAB_SEED, else SUMLAB_TEST_SEED, overrides the default seed)"""
import argparse
import json
import multiprocessing as mp
import os
import pickle
import sys
import tempfile
import time
import traceback

import numpy as np

DTYPES = ("float32", "float64", "bfloat16")
VARIANTS = ("reproducible", "superacc")
KS = (1, 2, 3, 4)


def values(n, seed):
    """float64 values with cancellation (large values and their near-negatives) and a spread of
    exponents: the sums of their splits differ in plain floating point."""
    rng = np.random.default_rng(seed)
    big = rng.standard_normal(n // 2) * 1e3
    v = np.concatenate([big, -big * (1 + rng.standard_normal(n // 2) * 1e-3),
                        rng.standard_normal(n - 2 * (n // 2)) * np.exp2(rng.integers(-20, 20, n - 2 * (n // 2)))])
    rng.shuffle(v)
    return v


def split(n, k, seed):
    """k index arrays, a permutation of range(n) cut at seeded points (uneven; at k = 4 the third
    part is empty)."""
    rng = np.random.default_rng([seed, k])
    perm = rng.permutation(n)
    cuts = sorted(rng.choice(np.arange(1, n), size=k - 1, replace=False).tolist()) if k > 1 else []
    if k == 4:
        cuts[2] = cuts[1]
    bounds = [0] + cuts + [n]
    return [perm[bounds[i]:bounds[i + 1]] for i in range(k)]


class Arrays:
    """The inputs of one backend: NumPy arrays (files) or torch tensors (gloo), CPU or CUDA."""

    def __init__(self, backend):
        self.backend = backend
        self.cuda_index = 0          # the GPU of this process (nccl: its rank's)
        if backend in ("gloo", "nccl"):
            import torch
            self.torch = torch

    def devices(self):
        if self.backend == "nccl":
            return ("cuda",)
        if self.backend == "gloo" and self.torch.cuda.is_available():
            return ("cpu", "cuda")
        return ("cpu",)

    def make(self, v, dtype, device="cpu"):
        if self.backend in ("gloo", "nccl"):
            t = self.torch.from_numpy(v).to(getattr(self.torch, dtype))
            return t.to(f"cuda:{self.cuda_index}") if device == "cuda" else t
        if dtype == "bfloat16":
            import ml_dtypes
            return v.astype(np.float32).astype(ml_dtypes.bfloat16)
        return v.astype(dtype)

    def take(self, x, idx):
        """x's values at idx, contiguous, on x's device."""
        if self.backend in ("gloo", "nccl"):
            return x[self.torch.from_numpy(idx).to(x.device)].contiguous()
        return np.ascontiguousarray(x[idx])


class FileComm:
    """An mpi4py-like communicator (allgather) of `size` processes through files in `where`:
    each call writes this rank's pickle, then waits for every rank's."""

    def __init__(self, where, rank, size):
        self.where, self.rank, self.size, self.calls = where, rank, size, 0

    def allgather(self, obj):
        self.calls += 1
        mine = os.path.join(self.where, f"c{self.calls}_r{self.rank}")
        with open(mine + ".tmp", "wb") as f:
            pickle.dump(obj, f)
        os.replace(mine + ".tmp", mine + ".pkl")
        out, deadline = [], time.monotonic() + 120
        for r in range(self.size):
            path = os.path.join(self.where, f"c{self.calls}_r{r}.pkl")
            while not os.path.exists(path):
                if time.monotonic() > deadline:
                    raise TimeoutError(f"rank {r} never wrote {path}")
                time.sleep(0.002)
            with open(path, "rb") as f:
                out.append(pickle.load(f))
        return out


def worker(rank, k, backend, where, n, seed):
    """One rank: its parts of every input, its states, the allreduce, its results to a file."""
    try:
        import sumlab
        arrays = Arrays(backend)
        comms = {}
        if backend in ("gloo", "nccl"):
            import datetime
            import torch.distributed as dist
            if backend == "nccl":
                arrays.cuda_index = rank % arrays.torch.cuda.device_count()
                arrays.torch.cuda.set_device(arrays.cuda_index)
            dist.init_process_group(backend, init_method=f"file://{where}/rendezvous", rank=rank, world_size=k,
                                    timeout=datetime.timedelta(seconds=120))
            if backend == "gloo":
                comms = {"default": (None, "auto"), "world": (dist.group.WORLD, "auto"),
                         "new_group": (dist.new_group(list(range(k))), "auto"), "limbs": (None, "limbs")}
            else:   # "auto" on an NCCL group is the limb form
                comms = {"default": (None, "auto"), "world": (dist.group.WORLD, "limbs"),
                         "gather": (None, "gather")}
        else:
            fc = FileComm(where, rank, k)
            comms = {"files": (fc, "auto"), "files_limbs": (fc, "limbs")}
        v = values(n, seed)
        idx = split(n, k, seed)[rank]
        out = {}
        for device in arrays.devices():
            for dtype in DTYPES:
                part = arrays.take(arrays.make(v, dtype, device), idx)
                for variant in VARIANTS:
                    st = sumlab.State(variant, dtype).add(part)
                    for how, (comm, method) in comms.items():
                        m = sumlab.allreduce(st, comm, method=method)
                        out[f"{device}/{dtype}/{variant}/{how}"] = {
                            "bytes": m.to_bytes().hex(), "result": m.result().hex(), "variant": m.variant,
                            "dtype": m.dtype, "n_part": int(len(idx))}
        if backend in ("gloo", "nccl"):
            import torch.distributed as dist
            dist.destroy_process_group()
        with open(os.path.join(where, f"rank{rank}.json"), "w") as f:
            json.dump(out, f)
    except BaseException:
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(1)


def one_process(arrays, n, seed):
    """The references: one state over the whole input, one sumlab.sum call, the judge."""
    import sumlab
    v = values(n, seed)
    ref = {}
    for device in arrays.devices():
        for dtype in DTYPES:
            x = arrays.make(v, dtype, device)
            xc = arrays.make(v, dtype)
            for variant in VARIANTS:
                st = sumlab.State(variant, dtype).add(x)
                call = sumlab.sum(x, variant)
                call = float(call.item()) if hasattr(call, "item") else call
                j = sumlab.judge(xc, st.result(), bound_of=variant)
                ref[f"{device}/{dtype}/{variant}"] = {"bytes": st.to_bytes().hex(), "result": st.result().hex(),
                                                      "call": call.hex(), "exact": j.exact.hex(),
                                                      "bound_ratio": j.bound_ratio}
    return ref


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--backend", choices=("gloo", "nccl", "files"), default="gloo")
    ap.add_argument("--n", type=int, default=100_003)
    ap.add_argument("--seed", type=int, default=int(os.environ.get("SUMLAB_SEED") or os.environ.get("SUMLAB_TEST_SEED")
                                                    or 20261203))
    a = ap.parse_args()
    ks = KS
    if a.backend in ("gloo", "nccl"):
        try:
            import torch
            import torch.distributed as dist
        except ImportError:
            print("dist_torch: PyTorch is not installed: skipped", file=sys.stderr)
            return 77
        if not dist.is_available():
            print("dist_torch: this PyTorch has no torch.distributed: skipped", file=sys.stderr)
            return 77
        if a.backend == "nccl":
            if not torch.cuda.is_available() or not dist.is_nccl_available():
                print("dist_torch: no GPU or no NCCL in this PyTorch: skipped", file=sys.stderr)
                return 77
            ks = tuple(k for k in KS if k <= torch.cuda.device_count())
    arrays = Arrays(a.backend)
    ref = one_process(arrays, a.n, a.seed)
    fails, checks = [], 0

    def check(ok, what):
        nonlocal checks
        checks += 1
        if not ok:
            fails.append(what)

    for key, r in ref.items():
        dtype, variant = key.split("/")[1:]
        check(r["call"] == r["result"], f"{key}: one sumlab.sum call {r['call']} vs one state {r['result']}")
        if variant == "superacc":
            check(r["result"] == r["exact"], f"{key}: superacc {r['result']} is not S rounded once ({r['exact']})")
        else:
            check(r["bound_ratio"] <= 1, f"{key}: reproducible outside its bound (ratio {r['bound_ratio']})")
    # gloo: fresh processes (CUDA does not survive a fork); files: forked, which is faster
    ctx = mp.get_context("spawn" if a.backend != "files" or os.name != "posix" else "fork")
    for k in ks:
        with tempfile.TemporaryDirectory(prefix=f"dist_{a.backend}_K{k}.") as where:
            procs = [ctx.Process(target=worker, args=(r, k, a.backend, where, a.n, a.seed)) for r in range(k)]
            for p in procs:
                p.start()
            for p in procs:
                p.join(300)
                if p.is_alive():
                    p.kill()
                    p.join()
            codes = [p.exitcode for p in procs]
            check(codes == [0] * k, f"K={k}: rank exit codes {codes}")
            if codes != [0] * k:
                continue
            got = [json.load(open(os.path.join(where, f"rank{r}.json"))) for r in range(k)]
        sizes = sorted({g[key]["n_part"] for g in got for key in g})
        check(sum(g[next(iter(g))]["n_part"] for g in got) == a.n, f"K={k}: the parts do not cover the input")
        for rank, g in enumerate(got):
            per_ref = {"gloo": 4, "nccl": 3}.get(a.backend, 2)   # the (communicator, method) pairs
            check(len(g) == len(ref) * per_ref, f"K={k} rank {rank}: {len(g)} results, not {len(ref) * per_ref}")
            for key, m in g.items():
                device, dtype, variant, how = key.split("/")
                r = ref[f"{device}/{dtype}/{variant}"]
                check(m["bytes"] == r["bytes"], f"K={k} rank {rank} {key}: merged state's bytes differ from one process's")
                check(m["result"] == r["result"], f"K={k} rank {rank} {key}: {m['result']} vs one process {r['result']}")
                check(m["variant"] == variant and m["dtype"] == dtype, f"K={k} rank {rank} {key}: state says "
                      f"{m['variant']}/{m['dtype']}")
        print(f"dist_torch: K={k} ({a.backend}): part sizes {sizes}, {len(got[0])} results a rank", file=sys.stderr)
    for f in fails[:20]:
        print("FAIL:", f, file=sys.stderr)
    print(f"dist_torch: backend {a.backend}, devices {','.join(arrays.devices())}, K = {ks}, "
          f"{checks} checks, {len(fails)} failed (seed {a.seed}, n {a.n})")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
