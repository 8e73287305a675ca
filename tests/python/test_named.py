"""test_named.py: the named functions (mean, var, std, norm2, logsumexp, amax, amin) on CPU arrays:
each is reduce() of its operation and variant, bit for bit, 1-D and along an axis; their defaults
are the documented ones (the correctly rounded `correct`, lse's `accurate`, the IEEE maximum and
minimum), so that the default of mean/var/std/norm2 is the exact reference's value; ddof reaches
var and std; a wrong variant is the registry's error."""
import inspect
import math

import numpy as np
import pytest

import sumlab
from conftest import DTYPES, aligned, bits, make_inputs

NAMED = [  # (function, operation, its default variant, another variant)
    (sumlab.mean, "mean", "correct", "welford"),
    (sumlab.var, "var", "correct", "two-pass"),
    (sumlab.std, "std", "correct", "textbook"),
    (sumlab.norm2, "norm2", "correct", "scaled"),
    (sumlab.logsumexp, "lse", "accurate", "online"),
    (sumlab.amax, "max", "block-reduce", "fmax"),
    (sumlab.amin, "min", "block-reduce", "fmin"),
]


def same(a, b):
    """a and b the same float64 bits, elementwise for arrays (and the same shape)."""
    return np.array_equal(bits(a), bits(b))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fn,op,default,other", NAMED, ids=[t[1] for t in NAMED])
def test_named_is_reduce(rng, dtype, fn, op, default, other):
    x = make_inputs(dtype, 2003, "normal", rng)
    if other not in [v.name for v in sumlab.variants(op) if dtype in v.dtypes]:
        pytest.fail(f"{op} {other}: not a variant for {dtype} (the table above is out of date)")
    assert inspect.signature(fn).parameters["variant"].default == default
    assert same(fn(x), sumlab.reduce(x, op, default))
    assert same(fn(x, other), sumlab.reduce(x, op, other))
    m = aligned(x[:2000].reshape(4, 500))
    rows = fn(m, axis=-1)
    assert isinstance(rows, np.ndarray) and rows.shape == (4,)
    assert same(rows, sumlab.reduce(m, op, default, axis=-1))
    # row i is the 1-D call on that row (a fresh aligned copy: the twins follow the address)
    for i in range(4):
        assert same(rows[i], fn(aligned(np.ascontiguousarray(m[i]))))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op,fn", [("mean", sumlab.mean), ("var", sumlab.var), ("std", sumlab.std),
                                   ("norm2", sumlab.norm2)])
def test_named_default_is_the_exact_value(rng, dtype, op, fn):
    """The default of mean/var/std/norm2 is correctly rounded: the exact variant's value, on an
    ill-conditioned input where the others drift."""
    x = make_inputs(dtype, 3001, "cancel", rng)
    assert same(fn(x), sumlab.reduce(x, op, "exact"))


def test_named_ddof(rng):
    x = make_inputs("float64", 1000, "normal", rng)
    v1, v0 = sumlab.var(x), sumlab.var(x, ddof=0)
    assert v1 != v0 and math.isclose(v0 * 1000, v1 * 999, rel_tol=1e-15)
    assert same(sumlab.var(x, ddof=0), sumlab.reduce(x, "var", "correct", ddof=0))
    assert same(sumlab.std(x, ddof=0), sumlab.reduce(x, "std", "correct", ddof=0))
    assert math.isclose(sumlab.std(x) ** 2, v1, rel_tol=1e-15)


def test_named_special_values():
    x = aligned(np.array([1.0, np.nan, -3.0, 2.0], np.float32))
    assert math.isnan(sumlab.amax(x)) and math.isnan(sumlab.amin(x))
    assert sumlab.amax(x, "fmax") == 2.0 and sumlab.amin(x, "fmin") == -3.0
    z = aligned(np.array([-0.0, 0.0, -0.0], np.float64))
    assert math.copysign(1.0, sumlab.amax(z)) == 1.0 and math.copysign(1.0, sumlab.amin(z)) == -1.0
    m = aligned(np.array([-np.inf, 0.0, -np.inf, 0.0], np.float64))
    assert sumlab.logsumexp(m) == math.log(2.0)
    assert sumlab.logsumexp(aligned(np.full(3, -np.inf, np.float32))) == -math.inf


def test_named_bad_variant(rng):
    x = make_inputs("float32", 100, "normal", rng)
    with pytest.raises(ValueError, match="^sumlab:"):
        sumlab.var(x, "superacc")
    with pytest.raises(ValueError, match="^sumlab:"):
        sumlab.logsumexp(x, "no-such-variant")
