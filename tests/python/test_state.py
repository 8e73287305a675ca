"""test_state.py: sumlab.State over random splits and orders: the same bytes and the same result
as one state over everything, and as one call of the variant; bytes round-trip; merge_saved is
merge; allreduce over K = 1..4 simulated ranks gives every rank the same bytes."""
import numpy as np
import pytest

import sumlab
from sumlab import _sumlab
from conftest import DTYPES, make_inputs, np_dtype


def state_variants():
    return [v.name for v in sumlab.variants("sum") if v.has_state]


def random_parts(x, rng, k):
    cuts = np.sort(rng.choice(np.arange(1, len(x)), size=k - 1, replace=False))
    parts = np.split(x, cuts)
    order = rng.permutation(len(parts))
    return [np.ascontiguousarray(parts[i]) for i in order]


def test_state_variants_listed():
    assert {"reproducible", "superacc", "exact"} <= set(state_variants())


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("variant", ["reproducible", "superacc", "exact"])
def test_splits_merge_to_same_bits(rng, dtype, variant):
    for kind in ("normal", "cancel", "spread"):
        x = make_inputs(dtype, 5000, kind, rng)
        whole = sumlab.State(variant, x.dtype).add(x)
        ref_bytes, ref = whole.to_bytes(), whole.result()
        assert ref.hex() == sumlab.sum(x, variant).hex(), f"{variant} {kind}: state vs one call"
        for trial in range(4):
            k = int(rng.integers(2, 12))
            parts = random_parts(x, rng, k)
            # one state fed every part in a random order
            one = sumlab.State(variant, dtype)
            for p in parts:
                one.add(p)
            assert one.to_bytes() == ref_bytes
            # one state per part, merged pairwise in a random tree
            states = [sumlab.State(variant, dtype).add(p) for p in parts]
            while len(states) > 1:
                i, j = sorted(rng.choice(len(states), 2, replace=False))
                states[i].merge(states.pop(j))
            assert states[0].to_bytes() == ref_bytes, f"{variant} {kind} trial {trial}"
            assert states[0].result().hex() == ref.hex()
            # through bytes: from_bytes and merge_saved
            blobs = [sumlab.State(variant, dtype).add(p).to_bytes() for p in parts]
            acc = blobs[0]
            for b in blobs[1:]:
                acc = _sumlab.merge_saved(acc, b)
            assert acc == ref_bytes
            assert sumlab.State.from_bytes(acc).result().hex() == ref.hex()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("variant", ["reproducible", "superacc", "exact"])
def test_signed_zeros_and_empty_states(dtype, variant):
    # nothing added: +0, as the variant on an empty array; -0 inputs alone: -0, with or without
    # empty states merged in (either side, or through bytes); one +0 among them: +0
    dt = np_dtype(dtype)
    empty = np.zeros(0, dtype=dt)
    negz = np.array([-0.0, -0.0, -0.0], dtype=np.float32).astype(dt)
    mixed = np.array([-0.0, 0.0, -0.0], dtype=np.float32).astype(dt)
    assert sumlab.State(variant, dtype).result().hex() == "0x0.0p+0"
    assert sumlab.State(variant, dtype).add(empty).result().hex() == sumlab.sum(empty, variant).hex() == "0x0.0p+0"
    for x, want in ((negz, "-0x0.0p+0"), (mixed, "0x0.0p+0")):
        assert sumlab.sum(x, variant).hex() == want
        st = sumlab.State(variant, dtype).add(x)
        assert st.result().hex() == want
        assert sumlab.State(variant, dtype).merge(st).result().hex() == want
        assert st.copy().merge(sumlab.State(variant, dtype)).to_bytes() == st.to_bytes()
        assert _sumlab.merge_saved(sumlab.State(variant, dtype).add(empty).to_bytes(), st.to_bytes()) == st.to_bytes()
        assert sumlab.State(variant, dtype).add(x[:1]).add(empty).add(x[1:]).to_bytes() == st.to_bytes()


@pytest.mark.parametrize("variant", ["reproducible", "superacc", "exact"])
def test_one_state_shared_by_threads(rng, variant):
    # add() runs without the GIL and the C state is not thread-safe: threads adding to one State
    # (merging into it, reading it) raced, and its bytes and result were wrong (the exact state
    # in 4 of 5 runs of 4 threads x 320 adds of 5000 float32 values); each call now holds the
    # state's lock, and the shared state is the one-thread state's bytes
    import threading
    xs = [make_inputs("float32", 5000, "spread", rng) for _ in range(32)]
    want = sumlab.State(variant, "float32")
    for x in xs * 10 + [xs[0]] * 8:          # every thread's adds, and its two merges of xs[0]
        want.add(x)
    for trial in range(8):
        st = sumlab.State(variant, "float32")
        other = sumlab.State(variant, "float32").add(xs[0])

        def work(k):
            for x in xs[k::4] * 10:
                st.add(x)
            st.merge(other).merge(other)
            st.to_bytes(), st.result()
        ts = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        assert st.to_bytes() == want.to_bytes(), f"trial {trial}"
        assert st.result().hex() == want.result().hex()


@pytest.mark.parametrize("variant", ["reproducible", "superacc", "exact"])
def test_copy_and_pickle(rng, variant):
    # copy.copy shared the C state (adding to the copy changed the original: 20.0 for both after
    # adding 10 ones to a copy of a state of 10 ones); deepcopy and pickle were TypeError
    # 'cannot pickle CState'. Each is now a state of its own with the same bytes
    import copy
    import pickle
    x = make_inputs("float32", 2000, "cancel", rng)
    a, b = np.ascontiguousarray(x[:700]), np.ascontiguousarray(x[700:])
    st = sumlab.State(variant, "float32").add(a)
    before = st.to_bytes()
    for c in (copy.copy(st), copy.deepcopy(st), pickle.loads(pickle.dumps(st))):
        assert type(c) is sumlab.State and c.variant == variant and c.dtype == "float32"
        assert c.to_bytes() == before
        c.add(b)
        assert st.to_bytes() == before
        assert c.to_bytes() == sumlab.State(variant, "float32").add(x).to_bytes()
        assert c.result().hex() == sumlab.sum(x, variant).hex()


@pytest.mark.parametrize("dtype", DTYPES)
def test_exact_state_top_limb_beyond_its_count_refused(rng, dtype):
    # saved bytes of the exact state whose top limb no n values can reach (a negative sum's -1
    # made -0x8000000001, one damaged byte; the magnitudes' top limb 2^39) were loaded, and
    # result() then aborted the interpreter ('internal exactness failure ... top limb out of
    # range'); they are refused as damaged by from_bytes, merge_saved and the limbs
    x = make_inputs(dtype, 1000, "normal", rng)
    x = -np.abs(x.astype(np.float64)).astype(x.dtype)   # a negative sum: its top limb is -1
    st = sumlab.State("exact", dtype).add(x)
    good = st.to_bytes()
    words = np.frombuffer(good, np.int64, offset=16).copy()   # chunk[68], achunk[68], n, ...
    assert words[67] == -1 and words[135] == 0 and words[136] == 1000
    for w, v in ((67, -0x8000000001), (67, 1), (67, -2), (135, 1 << 39), (135, 1)):
        bad = words.copy()
        bad[w] = v
        b = good[:16] + bad.tobytes()
        with pytest.raises(ValueError, match="damaged"):
            sumlab.State.from_bytes(b)
        with pytest.raises(ValueError, match="damaged"):
            _sumlab.merge_saved(good, b)
        with pytest.raises(ValueError, match="sumlab:"):
            sumlab.State("exact", dtype)._c.from_limbs(0, bad[:-1].tobytes())
    assert sumlab.State.from_bytes(good).result().hex() == sumlab.sum(x, "exact").hex()
    fresh = sumlab.State("exact", dtype)
    fresh._c.from_limbs(0, words[:-1].tobytes())         # the limbs: every word but the magic
    assert fresh.to_bytes() == good


class FakeComm:
    """K simulated ranks: allgather returns every rank's bytes in rank order (mpi4py's contract)."""

    def __init__(self, all_bytes, rank):
        self.all_bytes, self.rank = all_bytes, rank

    def allgather(self, b):
        assert b == self.all_bytes[self.rank]
        return list(self.all_bytes)


@pytest.mark.parametrize("variant", ["reproducible", "superacc"])
def test_allreduce_same_bits_for_any_k(rng, variant):
    x = make_inputs("float32", 20000, "cancel", rng)
    want = sumlab.State(variant, "float32").add(x).to_bytes()
    for k in range(1, 5):
        parts = random_parts(x, rng, k) if k > 1 else [x]
        states = [sumlab.State(variant, "float32").add(p) for p in parts]
        blobs = [s.to_bytes() for s in states]
        for rank, s in enumerate(states):
            merged = sumlab.allreduce(s, FakeComm(blobs, rank))
            assert merged.to_bytes() == want, f"K={k} rank {rank}"
            assert s.to_bytes() == blobs[rank]          # the input state is left as it was


class HugeComm(FakeComm):
    """An mpi4py-like communicator that says it has more ranks than the limbs have headroom for."""

    def Get_size(self):
        return sumlab._dist.LIMB_MAX_RANKS + 1


def test_allreduce_limbs_refuses_more_ranks_than_headroom():
    import pathlib
    import re
    header = pathlib.Path(__file__).resolve().parents[2] / "include" / "sumlab" / "sumlab.h"
    m = re.search(r"#define SUMLAB_LIMB_MAX_RANKS \(1L << (\d+)\)", header.read_text())
    assert m and sumlab._dist.LIMB_MAX_RANKS == 1 << int(m.group(1))
    s = sumlab.State("reproducible", "float32").add(np.ones(10, np.float32))
    with pytest.raises(ValueError, match="headroom"):
        sumlab.allreduce(s, HugeComm([s.to_bytes()], 0), method="limbs")
    # the gather takes any number of ranks
    assert sumlab.allreduce(s, HugeComm([s.to_bytes()], 0), method="gather").result() == 10.0


def test_allreduce_refuses_other_objects():
    s = sumlab.State("reproducible", "float32")
    with pytest.raises(TypeError, match="sumlab:"):
        sumlab.allreduce(s, object())
    with pytest.raises(TypeError, match="sumlab:"):
        sumlab.allreduce(b"bytes", FakeComm([b""], 0))
    try:
        import torch.distributed  # noqa: F401
    except ImportError:           # no torch: the default group cannot be reached, one clear error
        with pytest.raises(TypeError, match="torch.distributed"):
            sumlab.allreduce(s)
    else:                         # torch without an initialised group
        with pytest.raises(RuntimeError, match="initialised"):
            sumlab.allreduce(s)


def test_state_errors(capfd):
    x32 = np.ones(10, np.float32)
    with pytest.raises(ValueError, match="sumlab:"):
        sumlab.State("no-such-variant", "float32")
    with pytest.raises(NotImplementedError, match="sumlab:"):
        sumlab.State("vec4", "float32")                       # no mergeable state
    with pytest.raises(TypeError, match="sumlab:"):
        sumlab.State("reproducible", "int32")
    s = sumlab.State("reproducible", "float32")
    with pytest.raises(TypeError, match="float32"):
        s.add(np.ones(10, np.float64))
    with pytest.raises(ValueError, match="sumlab:"):
        s.merge(sumlab.State("reproducible", "float64"))      # another dtype
    with pytest.raises(ValueError, match="sumlab:"):
        s.merge(sumlab.State("superacc", "float32"))          # another variant
    with pytest.raises(ValueError, match="sumlab:"):
        sumlab.State.from_bytes(b"\x00" * 7)
    # not bytes: one TypeError (a str and None were Python's own TypeError, an int n read as n
    # zero bytes: 'the bytes are no saved sumlab state')
    for bad in ("SLST", None, 64, 3.0):
        with pytest.raises(TypeError, match="^sumlab: from_bytes takes bytes"):
            sumlab.State.from_bytes(bad)
    assert sumlab.State.from_bytes(bytearray(s.to_bytes())).to_bytes() == s.to_bytes()
    assert sumlab.State.from_bytes(np.frombuffer(s.to_bytes(), np.uint8)).to_bytes() == s.to_bytes()
    with pytest.raises(ValueError, match="sumlab:"):
        sumlab.State.from_bytes(s.to_bytes()[:-1])
    with pytest.raises(ValueError, match="sumlab:"):
        _sumlab.merge_saved(s.to_bytes(), sumlab.State("reproducible", "float64").to_bytes())
    s.add(x32)
    assert s.result() == 10.0
    out = capfd.readouterr()
    assert out.out == "" and out.err == ""


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("variant", ["reproducible", "superacc", "exact"])
def test_loaded_state_knows_variant_and_dtype(rng, dtype, variant):
    # from_bytes reads the variant and the dtype from the bytes (sumlab_state_info): the loaded
    # state says them, refuses values of another dtype with one clear TypeError, and keeps taking
    # its own dtype to the same bits as a state that never left memory
    x = make_inputs(dtype, 3000, "cancel", rng)
    a, b = np.ascontiguousarray(x[:1000]), np.ascontiguousarray(x[1000:])
    st = sumlab.State.from_bytes(sumlab.State(variant, dtype).add(a).to_bytes())
    assert st.variant == variant and st.dtype == dtype
    assert repr(st) == f"sumlab.State(variant={variant!r}, dtype={dtype!r})"
    other = "float64" if dtype != "float64" else "float32"
    with pytest.raises(TypeError, match=f"^sumlab: the state holds {dtype} values, not {other}$"):
        st.add(make_inputs(other, 10, "normal", rng))
    st.add(b)
    assert st.to_bytes() == sumlab.State(variant, dtype).add(x).to_bytes()
    assert st.copy().variant == variant and st.copy().dtype == dtype
    merged = sumlab.allreduce(st, _OneRank())
    assert merged.variant == variant and merged.dtype == dtype and merged.to_bytes() == st.to_bytes()


class _OneRank:
    """An mpi4py-like communicator of one rank (allgather returns this rank's object)."""

    def allgather(self, obj):
        return [obj]
