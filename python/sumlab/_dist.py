"""_dist.py: sumlab.allreduce: a State merged across processes (mpi4py communicators or
torch.distributed process groups), every rank getting the same bits for any number of ranks and
any split. Two exchanges: "gather" (every rank's bytes gathered, merged in rank order) and
"limbs" (libsumlab's integer-limb form: MAX of the state's index, then SUM of int64 limbs,
integer addition being associative; on torch.distributed two all_reduce calls on int64 tensors,
on CUDA with the NCCL backend). Both equal the exact merge of the ranks' states, byte for byte."""
from __future__ import annotations

import struct

METHODS = ("auto", "gather", "limbs")


def _torch_group(comm):
    """torch.distributed, checked to be initialised, when comm is None or a torch group; else None."""
    mod = type(comm).__module__ or ""
    if comm is not None and not mod.startswith("torch"):
        return None
    try:
        import torch.distributed as dist
    except ImportError:
        raise TypeError("sumlab: allreduce without a communicator uses torch.distributed, which is not "
                        "installed (pass an mpi4py communicator)") from None
    if not dist.is_available() or not dist.is_initialized():
        raise RuntimeError("sumlab: allreduce over torch.distributed needs an initialised process group")
    return dist


def _gather_bytes(b: bytes, comm) -> list:
    dist = _torch_group(comm)
    if dist is not None:
        out = [None] * dist.get_world_size(group=comm)
        dist.all_gather_object(out, b, group=comm)
        return out
    if hasattr(comm, "allgather"):                   # mpi4py's pickle-based allgather, or alike
        return list(comm.allgather(b))
    raise TypeError(f"sumlab: allreduce takes an mpi4py communicator or a torch.distributed process "
                    f"group (None: the default group), not a {type(comm).__name__}")


def _key(state) -> list:
    """The words every rank must agree on, as MAX-reducible int64: (kind and dtype, size) and their
    negations (a MAX of both is a MIN check), then the state's index."""
    b = state.to_bytes()
    kind, dt = struct.unpack_from("<HH", b, 4)
    k = kind * 16 + dt
    return [k, len(b), -k, -len(b), state._c.index()]


def _limbs_torch(state, comm, dist):
    """MAX over [key, index], SUM over the limbs: all_reduce on int64 tensors (the current CUDA
    device with the NCCL backend, CPU otherwise)."""
    import torch
    backend = str(dist.get_backend(comm)).lower()
    dev = torch.device("cuda", torch.cuda.current_device()) if "nccl" in backend else torch.device("cpu")
    key = torch.tensor(_key(state), dtype=torch.int64, device=dev)
    dist.all_reduce(key, op=dist.ReduceOp.MAX, group=comm)
    k = key.tolist()
    return k, (lambda words: _sum_torch(words, comm, dist, dev))


def _sum_torch(words: bytes, comm, dist, dev) -> bytes:
    import torch
    t = torch.frombuffer(bytearray(words), dtype=torch.int64).to(dev)
    dist.all_reduce(t, op=dist.ReduceOp.SUM, group=comm)
    return t.cpu().numpy().tobytes()


def _limbs_gather(state, comm):
    """The same MAX and SUM over an mpi4py-like allgather (Python integers: exact)."""
    keys = _gather_bytes(struct.pack("<5q", *_key(state)), comm)
    k = [max(col) for col in zip(*(struct.unpack("<5q", b) for b in keys))]

    def total(words: bytes) -> bytes:
        parts = _gather_bytes(words, comm)
        m = len(words) // 8
        sums = [sum(col) for col in zip(*(struct.unpack(f"<{m}q", p) for p in parts))] if m else []
        return struct.pack(f"<{m}q", *sums)
    return k, total


# the ranks the limbs have headroom for (sumlab.h's SUMLAB_LIMB_MAX_RANKS; tests/python checks
# that the two agree)
LIMB_MAX_RANKS = 1 << 22


def _ranks(comm, dist) -> int:
    if dist is not None:
        return dist.get_world_size(group=comm)
    size = getattr(comm, "Get_size", None)
    return int(size()) if callable(size) else int(getattr(comm, "size", 1))


def _allreduce_limbs(state, comm):
    from . import State
    dist = _torch_group(comm)
    if dist is None and not hasattr(comm, "allgather"):
        raise TypeError(f"sumlab: allreduce takes an mpi4py communicator or a torch.distributed process "
                        f"group (None: the default group), not a {type(comm).__name__}")
    ranks = _ranks(comm, dist)   # the same answer on every rank, before any exchange
    if ranks > LIMB_MAX_RANKS:
        raise ValueError(f"sumlab: allreduce: {ranks} ranks (the limbs have headroom for {LIMB_MAX_RANKS}; "
                         "method='gather' takes any number)")
    if dist is not None:
        k, total = _limbs_torch(state, comm, dist)
    else:
        k, total = _limbs_gather(state, comm)
    if k[0] != -k[2] or k[1] != -k[3] or k[0] < 0:
        raise ValueError("sumlab: allreduce: the ranks hold states of different variants or dtypes")
    summed = total(state._c.to_limbs(k[4]))
    out = state.copy()
    out._c.from_limbs(k[4], summed)
    return out


def _is_nccl(comm) -> bool:
    mod = type(comm).__module__ or ""
    if comm is not None and not mod.startswith("torch"):
        return False
    try:
        import torch.distributed as dist
    except ImportError:
        return False
    return dist.is_available() and dist.is_initialized() and "nccl" in str(dist.get_backend(comm)).lower()


def allreduce(state, comm=None, method: str = "auto"):
    """A new State holding the merge of every rank's state (the same bytes on every rank).
    comm: an mpi4py communicator (anything with mpi4py's allgather), a torch.distributed
    ProcessGroup, or None for torch.distributed's default group.
    method: "limbs" (MAX of the index, SUM of int64 limbs: on torch.distributed two all_reduce
    calls, on CUDA tensors with the NCCL backend), "gather" (the states' bytes gathered and merged
    in rank order), or "auto": limbs on an NCCL group, gather otherwise. Same bytes either way."""
    from . import State
    if not isinstance(state, State):
        raise TypeError(f"sumlab: allreduce takes a State, not a {type(state).__name__}")
    if method not in METHODS:
        raise ValueError(f"sumlab: allreduce method {method!r} (one of {', '.join(METHODS)})")
    if method == "limbs" or (method == "auto" and _is_nccl(comm)):
        return _allreduce_limbs(state, comm)
    parts = _gather_bytes(state.to_bytes(), comm)
    merged = State.from_bytes(parts[0])
    for b in parts[1:]:
        merged.merge(State.from_bytes(b))
    return merged
