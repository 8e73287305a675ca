"""test_rows.py: reduce(x, axis=...) (the rows entry points of libsumlab): every row equals the
one-array call on that row bit for bit (NumPy, every dtype, several operations and variants,
axes moved to the last place), the result's shape, bad axes; on a GPU (PyTorch, CuPy) the rows of
a CUDA tensor equal the host rows, zero-copy when the axis is the contiguous last one, and an
order-independent variant gives row 0 the same bits whatever the batch size; dot along an axis
(row i of x with row i of y) equals the one-array dot of each pair, on the host and on a GPU."""
import numpy as np
import pytest

import sumlab
from conftest import DTYPES, bits, make_inputs, np_dtype

try:
    import torch
    HAVE_TORCH_GPU = torch.cuda.is_available()
except ImportError:
    torch, HAVE_TORCH_GPU = None, False
try:
    import cupy
    HAVE_CUPY_GPU = cupy.cuda.runtime.getDeviceCount() > 0
except Exception:
    cupy, HAVE_CUPY_GPU = None, False


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op,variant", [("sum", "superacc"), ("sum", "reproducible"), ("sum", "block-row"),
                                        ("sum", "vec4"), ("var", "two-pass"), ("lse", "online"),
                                        ("max", "block-reduce"), ("sum", "exact")])
def test_rows_equal_one_array(rng, dtype, op, variant):
    x = make_inputs(dtype, 7 * 333, "normal", rng).reshape(7, 333)
    got = sumlab.reduce(x, op, variant, axis=-1)
    assert got.shape == (7,) and got.dtype == np.float64
    for i in range(7):
        assert bits(got[i]) == bits(sumlab.reduce(np.ascontiguousarray(x[i]), op, variant)), (i, op, variant)


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2, -3])
def test_rows_any_axis(rng, axis):
    x = make_inputs("float32", 3 * 4 * 50, "normal", rng).reshape(3, 4, 50)
    got = sumlab.sum(x, "reproducible", axis=axis)
    moved = np.moveaxis(x, axis, -1)
    assert got.shape == moved.shape[:-1]
    for idx in np.ndindex(*moved.shape[:-1]):
        assert bits(got[idx]) == bits(sumlab.sum(np.ascontiguousarray(moved[idx]), "reproducible")), idx


class DLPackOnly:
    """Another producer of host arrays: __dlpack__ and a shape, no NumPy interface."""

    def __init__(self, a):
        self.a, self.shape = a, a.shape

    def __dlpack__(self, **kw):
        return self.a.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_rows_other_dlpack_producer(rng, axis):
    # a 2-D array of another DLPack producer along any axis: the rows of its NumPy view (numpy's
    # AxisError 'axis 1 is out of bounds for array of dimension 0' before: np.asarray made it a
    # 0-d object array)
    x = make_inputs("float32", 6 * 40, "normal", rng).reshape(6, 40)
    want = sumlab.sum(x, "reproducible", axis=axis)
    got = sumlab.sum(DLPackOnly(x), "reproducible", axis=axis)
    assert got.shape == want.shape and (got.view(np.uint64) == want.view(np.uint64)).all()


@pytest.mark.parametrize("dtype", DTYPES)
def test_rows_strided_input(rng, dtype):
    # axis= takes a strided array as NumPy's sum does (moved to a contiguous copy), a 1-D one too
    # (it was ValueError 'not C-contiguous' while a 2-D strided one was reduced)
    x = make_inputs(dtype, 8 * 60, "normal", rng).reshape(8, 60)
    for view, axis in ((x[:, ::3], 1), (x[::2], 0), (x[3, ::2], 0), (x[::-1, 5], -1)):
        got = sumlab.sum(view, "superacc", axis=axis)
        moved = np.moveaxis(view, axis, -1)
        assert got.shape == moved.shape[:-1]
        for idx in np.ndindex(*moved.shape[:-1]):
            assert bits(got[idx]) == bits(sumlab.sum(np.ascontiguousarray(moved[idx]), "superacc")), idx


class _CPU:
    platform, id = "cpu", 0


class JaxLike:
    """A JAX CPU array as sumlab reads one: devices(), a shape, and NumPy's view through __array__
    (for bfloat16 an ml_dtypes.bfloat16 array, as JAX gives)."""

    def __init__(self, a):
        self.a, self.shape, self.dtype = a, a.shape, a.dtype

    def devices(self):
        return {_CPU()}

    def __array__(self, dtype=None, copy=None):
        return self.a


JaxLike.__module__ = "jaxlib.xla_extension"


@pytest.mark.parametrize("dtype", DTYPES)
def test_rows_jax_cpu(rng, dtype):
    # a JAX CPU array along a moved axis: its NumPy copy, a bfloat16 one read as its uint16 view
    # (it was TypeError 'cannot read ndarray of dtype bfloat16 zero-copy')
    x = make_inputs(dtype, 6 * 40, "normal", rng).reshape(6, 40)
    for axis in (0, -1):
        want = sumlab.sum(x, "superacc", axis=axis)
        got = sumlab.sum(JaxLike(x), "superacc", axis=axis)
        assert got.shape == want.shape and (got.view(np.uint64) == want.view(np.uint64)).all()


def test_rows_batch_invariance_host(rng):
    x = make_inputs("float32", 64 * 1000, "normal", rng).reshape(64, 1000)
    first = {bits(sumlab.sum(x[:b], "block-row", axis=-1)[0]) for b in (1, 2, 3, 31, 64)}
    assert len(first) == 1


def test_rows_numpy_integer_axis(rng):
    x = make_inputs("float32", 3 * 40, "normal", rng).reshape(3, 40)
    want = sumlab.sum(x, "reproducible", axis=-1)
    for a in (np.int64(1), np.intp(-1), np.int32(1)):
        assert (sumlab.sum(x, "reproducible", axis=a).view(np.uint64) == want.view(np.uint64)).all()
    with pytest.raises(TypeError):
        sumlab.sum(x, axis=np.float64(1.0))
    with pytest.raises(TypeError):
        sumlab.sum(x, axis=True)


@pytest.mark.parametrize("axis,why", [(2, "out of range"), (-3, "out of range")])
def test_rows_bad_axis(axis, why):
    with pytest.raises(ValueError, match=why):
        sumlab.sum(np.ones((2, 3), np.float32), axis=axis)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("variant", ["correct", "reproducible", "dot2", "naive", "exact"])
def test_rows_dot_equal_one_array(rng, dtype, variant):
    # dot along an axis: row i of x with row i of y equals the one-array dot of that pair, bit for
    # bit: along the last axis (the rows at their own addresses) for every variant, along the
    # others (rows of a moved copy, at other addresses) for the order-independent ones
    x = make_inputs(dtype, 3 * 4 * 61, "normal", rng).reshape(3, 4, 61)
    y = make_inputs(dtype, 3 * 4 * 61, "normal", rng).reshape(3, 4, 61)
    for axis in (-1, 1, 0) if variant in ("correct", "reproducible", "exact") else (-1,):
        got = sumlab.dot(x, y, variant, axis=axis)
        mx, my = np.moveaxis(x, axis, -1), np.moveaxis(y, axis, -1)
        assert got.shape == mx.shape[:-1] and got.dtype == np.float64
        for idx in np.ndindex(*mx.shape[:-1]):
            want = sumlab.dot(np.ascontiguousarray(mx[idx]), np.ascontiguousarray(my[idx]), variant)
            assert bits(got[idx]) == bits(want), (axis, idx)
    assert bits(sumlab.reduce(x, "dot", variant, y=y, axis=-1)[2, 3]) == bits(
        sumlab.dot(x[2, 3], y[2, 3], variant))


def test_rows_dot_exact_value():
    # the correctly rounded dot of each row: 2^60 - 2^60 + 1 cancels exactly in row 0; row 1 is
    # 1e8 * 1e-8 ... in float32, the exact rational rounded once
    x = np.array([[2.0 ** 30, -(2.0 ** 30), 1.0], [3.0, 5.0, 7.0]], np.float32)
    y = np.array([[2.0 ** 30, 2.0 ** 30, 1.0], [1.0, 2.0, 4.0]], np.float32)
    got = sumlab.dot(x, y, axis=-1)
    assert got.tolist() == [1.0, 41.0]
    assert sumlab.dot(x, y, "naive", axis=-1)[1] == 41.0


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("variant", ["correct", "reproducible", "naive"])
def test_rows_dot_one_row_of_y(rng, dtype, variant):
    # y 1-d of the axis' length: one row with every row of x (x @ y), each row the one-array dot
    # of (row i, y); along another axis for the order-independent variants
    x = make_inputs(dtype, 9 * 70, "normal", rng).reshape(9, 70)
    w = make_inputs(dtype, 70, "normal", rng)
    got = sumlab.dot(x, w, variant, axis=-1)
    assert got.shape == (9,)
    for i in range(9):
        assert bits(got[i]) == bits(sumlab.dot(x[i], w, variant)), i
    if variant != "naive":
        xt = np.ascontiguousarray(x.T)
        assert (sumlab.dot(xt, w, variant, axis=0).view(np.uint64) == got.view(np.uint64)).all()
        # batch invariance of x @ y: row 0 keeps its bits whatever the batch
        assert len({bits(sumlab.dot(x[:b], w, variant, axis=-1)[0]) for b in (1, 2, 5, 9)}) == 1


def test_rows_two_inputs_errors():
    x = np.ones((2, 3), np.float32)
    with pytest.raises(ValueError, match="reads two arrays"):
        sumlab.reduce(x, "dot", "correct", axis=-1)
    with pytest.raises(ValueError, match="reads one array"):
        sumlab.reduce(x, "sum", "serial", y=x, axis=-1)
    with pytest.raises(ValueError, match="shapes must be equal"):
        sumlab.dot(x, np.ones((3, 2), np.float32), axis=-1)
    with pytest.raises(ValueError, match=r"1-d of the axis' length \(3,\)"):
        sumlab.dot(x, np.ones(2, np.float32), axis=-1)
    assert sumlab.dot(x, np.ones(2, np.float32), axis=0).tolist() == [2.0, 2.0, 2.0]
    with pytest.raises(TypeError, match="y is float64"):
        sumlab.dot(x, np.ones((2, 3)), axis=-1)
    with pytest.raises(ValueError, match="out of range"):
        sumlab.dot(x, x, axis=2)


def test_rows_array_interface_only():
    # an object with an __array_interface__ alone (no shape, no DLPack) is one sumlab: TypeError
    # with axis= as without it (axis= raised Python's AttributeError 'no attribute shape')
    a = np.arange(6, dtype=np.float32).reshape(2, 3)

    class Bare:
        def __init__(self, arr):
            self.__array_interface__ = arr.__array_interface__
            self._keep = arr

    for call in (lambda: sumlab.sum(Bare(a)), lambda: sumlab.sum(Bare(a), axis=1)):
        with pytest.raises(TypeError, match="sumlab: cannot read Bare"):
            call()


def test_rows_non_reducible():
    with pytest.raises(ValueError, match="length 0"):
        sumlab.sum(np.ones((2, 0), np.float32), axis=-1)
    with pytest.raises(ValueError, match="no rows"):
        sumlab.sum(np.ones((0, 3), np.float32), axis=-1)
    with pytest.raises(TypeError):
        sumlab.sum(np.ones((2, 3), np.float32), axis=1.0)


@pytest.mark.skipif(not HAVE_TORCH_GPU, reason="PyTorch with a CUDA GPU")
@pytest.mark.parametrize("variant", ["reproducible", "superacc", "block-row"])
def test_rows_torch_gpu(rng, variant):
    x = make_inputs("float32", 100 * 4096, "normal", rng).reshape(100, 4096)
    xg = torch.from_numpy(x).cuda()
    got = sumlab.sum(xg, variant, axis=-1)
    assert got.is_cuda and got.shape == (100,) and got.dtype == torch.float32
    host = sumlab.sum(x, variant, axis=-1)
    assert (got.cpu().numpy().astype(np.float64).view(np.uint64) == host.view(np.uint64)).all()
    row0 = {int(sumlab.sum(xg[:b], variant, axis=-1)[0].cpu().view(torch.int32)) for b in (1, 3, 64, 100)}
    assert len(row0) == 1


@pytest.mark.skipif(not HAVE_CUPY_GPU, reason="CuPy with a CUDA GPU")
def test_rows_cupy_gpu(rng):
    x = make_inputs("float32", 10 * 1000, "normal", rng).reshape(10, 1000)
    got = sumlab.sum(cupy.asarray(x), "reproducible", axis=1)
    assert got.shape == (10,)
    assert (cupy.asnumpy(got).astype(np.float64).view(np.uint64) == sumlab.sum(x, "reproducible", axis=1).view(np.uint64)).all()


@pytest.mark.skipif(not HAVE_TORCH_GPU, reason="PyTorch with a CUDA GPU")
@pytest.mark.parametrize("variant", ["correct", "reproducible", "dot2"])
def test_rows_dot_torch_gpu(rng, variant):
    x = make_inputs("float32", 17 * 4096, "normal", rng).reshape(17, 4096)
    y = make_inputs("float32", 17 * 4096, "normal", rng).reshape(17, 4096)
    got = sumlab.dot(torch.from_numpy(x).cuda(), torch.from_numpy(y).cuda(), variant, axis=-1)
    assert got.is_cuda and got.shape == (17,) and got.dtype == torch.float32
    if variant != "dot2":   # dot2's grid follows the device's SM count: its twin on the host another
        host = sumlab.dot(x, y, variant, axis=-1)
        assert (got.cpu().numpy().astype(np.float64).view(np.uint64) == host.view(np.uint64)).all()
        # x @ w on the device: one row of y with every row, the host's bits
        w = torch.from_numpy(y[3]).cuda()
        mv = sumlab.dot(torch.from_numpy(x).cuda(), w, variant, axis=-1)
        want = sumlab.dot(x, y[3].copy(), variant, axis=-1)
        assert (mv.cpu().numpy().astype(np.float64).view(np.uint64) == want.view(np.uint64)).all()


def same_judgement(a, b):
    """Every field equal, floats bit for bit (NaN too)."""
    import dataclasses
    for f in dataclasses.fields(a):
        u, v = getattr(a, f.name), getattr(b, f.name)
        if not (bits(u) == bits(v) if isinstance(u, float) else u == v):
            return False
    return True


@pytest.mark.parametrize("dtype", DTYPES)
def test_judge_rows_equal_one_array(rng, dtype):
    # judge(x, values, axis=K): row i judged as judge(row i, values[i]) judges it, every field
    x = make_inputs(dtype, 6 * 4 * 90, "normal", rng).reshape(6, 4, 90)
    for axis, op in ((-1, "sum"), (0, "var"), (1, "norm2")):
        moved = np.moveaxis(x, axis, -1)
        vals = np.array([[float(np.asarray(moved[i, k], np.float64).sum()) for k in range(moved.shape[1])]
                         for i in range(moved.shape[0])])
        j = sumlab.judge(x, vals, op, axis=axis, bound_of="exact" if op == "sum" else None)
        assert j.shape == moved.shape[:-1] and j.ulps.shape == j.shape and j.n == moved.shape[-1]
        for idx in np.ndindex(*j.shape):
            one = sumlab.judge(np.ascontiguousarray(moved[idx]), vals[idx], op,
                               bound_of="exact" if op == "sum" else None)
            assert same_judgement(j[idx], one), (axis, op, idx)


def test_judge_rows_dot_and_errors(rng):
    x = make_inputs("float32", 5 * 64, "normal", rng).reshape(5, 64)
    w = make_inputs("float32", 64, "normal", rng)
    mv = sumlab.dot(x, w, "naive", axis=-1)
    j = sumlab.judge(x, mv, "dot", y=w, axis=-1, bound_of="naive")
    assert (j.bound_ratio <= 1).all() and j.exact.tolist() == sumlab.dot(x, w, axis=-1).tolist()
    assert same_judgement(j[3], sumlab.judge(x[3], mv[3], "dot", y=w, bound_of="naive"))
    jp = sumlab.judge(x, mv.tolist(), "dot", y=np.broadcast_to(w, x.shape).copy(), axis=1)
    assert (jp.ulps.view(np.uint64) == j.ulps.view(np.uint64)).all()
    with pytest.raises(ValueError, match=r"the rows' shape \(5,\), not \(4,\)"):
        sumlab.judge(x, mv[:4], "dot", y=w, axis=-1)
    with pytest.raises(ValueError, match="out of range"):
        sumlab.judge(x, mv, "dot", y=w, axis=2)
    with pytest.raises(ValueError, match="shapes must be equal"):
        sumlab.judge(x, mv, "dot", y=w[:10], axis=-1)
    with pytest.raises(IndexError, match="one row"):
        j[1:3]
