"""_dist.py: sumlab.allreduce: a State merged across processes (mpi4py communicators or
torch.distributed process groups): every rank's bytes gathered, merged in rank order; the merge
is exact, so every rank gets the same bits for any number of ranks and any split."""
from __future__ import annotations


def _gather_bytes(b: bytes, comm) -> list:
    mod = type(comm).__module__ or ""
    if comm is None or mod.startswith("torch"):
        try:
            import torch.distributed as dist
        except ImportError:
            raise TypeError("sumlab: allreduce without a communicator uses torch.distributed, which is not "
                            "installed (pass an mpi4py communicator)") from None
        if not dist.is_available() or not dist.is_initialized():
            raise RuntimeError("sumlab: allreduce over torch.distributed needs an initialised process group")
        out = [None] * dist.get_world_size(group=comm)
        dist.all_gather_object(out, b, group=comm)
        return out
    if hasattr(comm, "allgather"):                   # mpi4py's pickle-based allgather, or alike
        return list(comm.allgather(b))
    raise TypeError(f"sumlab: allreduce takes an mpi4py communicator or a torch.distributed process "
                    f"group (None: the default group), not a {type(comm).__name__}")


def allreduce(state, comm=None):
    """A new State holding the merge of every rank's state (the same bytes on every rank).
    comm: an mpi4py communicator (anything with mpi4py's allgather), a torch.distributed
    ProcessGroup, or None for torch.distributed's default group."""
    from . import State
    if not isinstance(state, State):
        raise TypeError(f"sumlab: allreduce takes a State, not a {type(state).__name__}")
    parts = _gather_bytes(state.to_bytes(), comm)
    merged = State.from_bytes(parts[0])
    for b in parts[1:]:
        merged.merge(State.from_bytes(b))
    return merged
