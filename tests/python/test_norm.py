# test_norm.py: sumlab.reduce(x, "norm2", ...) on NumPy arrays (the CPU twins) on the norm's
# overflow and underflow cases: 2^16 values of 1e20 and of 1e-25 in float32 (the exact norm is the
# value times 256, exactly), where naive (torch.linalg.vector_norm's form) gives inf and 0 while
# correct, scaled and reproducible give the exact norm; and reduce()'s default variant per
# operation (the sum's superacc, norm2's and dot's correct; a clear error where there is none).
import numpy as np
import pytest

import sumlab


@pytest.mark.parametrize("v", [1e20, 1e-25])
def test_norm2_where_the_squares_leave_float32(v):
    x = np.full(1 << 16, v, np.float32)
    want = float(np.float32(v)) * 256.0                  # sqrt(2^16 v^2), exact in float32
    assert sumlab.reduce(x, "norm2") == want             # the default: correct
    for name in ("correct", "scaled", "reproducible", "exact"):
        assert sumlab.reduce(x, "norm2", name) == want, name
    naive = sumlab.reduce(x, "norm2", "naive")
    assert (naive == float("inf")) if v > 1 else (naive == 0.0)
    assert sumlab.exact(x, op="norm2") == want


@pytest.mark.parametrize("v", [1e200, 1e-200])
def test_norm2_float64_where_the_squares_leave_double(v):
    x = np.full(1 << 16, v, np.float64)
    x[1::2] = -v
    want = float(sumlab.exact(x, op="norm2"))             # v * 256 rounded once
    assert abs(want / (v * 256.0) - 1) < 1e-15
    r = sumlab.reduce(x, "norm2", "reproducible")
    assert abs(r - want) <= 2 * np.spacing(want)          # within 2 ulps, finite
    assert sumlab.reduce(x[::-1].copy(), "norm2", "reproducible") == r   # order-independent
    assert sumlab.reduce(x, "norm2", "naive") == (float("inf") if v > 1 else 0.0)


def test_reduce_default_variant_per_op():
    rng = np.random.default_rng(20261204)
    x, y = rng.standard_normal(1000), rng.standard_normal(1000)
    assert sumlab.reduce(x, op="dot", y=y) == sumlab.dot(x, y, "correct")
    assert sumlab.reduce(x) == sumlab.reduce(x, "sum", "superacc")
    assert sumlab.reduce(x, "var") == sumlab.reduce(x, "var", "correct")
    with pytest.raises(ValueError, match="needs variant="):
        sumlab.reduce(x, "lse")
