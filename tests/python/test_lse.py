"""test_lse.py: op="lse" through the Python package (CPU path): sumlab.exact is log(sum(exp(x)))
correctly rounded to the bits it carries (mpmath at 400 bits rounded to them), at least the
format's; the exact row's result is that value rounded to the format; `accurate` within 1 ulp
(float32, 16-bit) and `reproducible` the same bits under a permutation; judge's ulps of a value
one ulp off; the special values (-Inf ignored, all -Inf -> -Inf, +Inf -> +Inf, NaN -> NaN)."""
import math
from fractions import Fraction

import numpy as np
import pytest

import sumlab
from conftest import DTYPES, aligned, np_dtype

mpmath = pytest.importorskip("mpmath")

PREC = {"float32": 24, "float64": 53, "float16": 11, "bfloat16": 8}
EMIN = {"float32": -126, "float64": -1022, "float16": -14, "bfloat16": -126}


def round_bits(q, p, emin=None):
    """The Fraction q rounded to nearest even with p significant bits (and no finer than
    2^(emin - p + 1) when emin is given)."""
    if q == 0:
        return Fraction(0)
    a, s = abs(q), (1 if q > 0 else -1)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    qe = e - p + 1 if emin is None else max(e - p + 1, emin - p + 1)
    m = a / Fraction(2) ** qe
    r = math.floor(m)
    if m - r > Fraction(1, 2) or (m - r == Fraction(1, 2) and r % 2):
        r += 1
    return s * r * Fraction(2) ** qe


def mp_lse(x):
    mpmath.mp.prec = 400
    v = [float(t) for t in np.asarray(x, dtype=np.float64) if t != -np.inf]
    m = max(v)
    l = mpmath.log(mpmath.fsum(mpmath.exp(mpmath.mpf(t) - m) for t in v)) + m
    sign, man, ex, _ = l._mpf_
    return (-1) ** sign * Fraction(int(man)) * Fraction(2) ** int(ex)


def logits(dtype, n, rng, sigma=3.0, shift=0.0):
    v = rng.standard_normal(n) * sigma + shift
    dt = np_dtype(dtype)
    return aligned(v.astype(np.float32).astype(dt) if dtype == "bfloat16" else v.astype(dt))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shift", [0.0, -200.0])
def test_lse_exact_and_variants(rng, dtype, shift):
    x = logits(dtype, 1003, rng, 2.0 if dtype == "float16" else 5.0, shift)
    L = mp_lse(x)
    S = sumlab.exact(x, "lse")
    # S is L correctly rounded to its precision q (at least the format's, below 200): its
    # significant bits (up to its last 1-bit) are at most q, so some q from there matches
    frac = S / Fraction(2) ** (math.floor(math.log2(abs(float(S)))) - 200)
    assert frac.denominator == 1
    sig = frac.numerator.bit_length() - ((frac.numerator & -frac.numerator).bit_length() - 1)
    assert any(round_bits(L, q) == S for q in range(max(sig, PREC[dtype]), 200)), (dtype, shift, float(S), sig)
    want = float(round_bits(L, PREC[dtype], EMIN[dtype]))
    assert sumlab.reduce(x, "lse", "exact") == want
    ulp = 2.0 ** (math.floor(math.log2(abs(want))) - PREC[dtype] + 1)
    a = sumlab.reduce(x, "lse", "accurate")
    assert abs(a - want) <= (4 if dtype == "float64" else 1) * ulp, (a, want)
    r = sumlab.reduce(x, "lse", "reproducible")
    assert sumlab.reduce(aligned(rng.permutation(x)), "lse", "reproducible") == r
    j = sumlab.judge(x, want + ulp, op="lse")
    assert 0.5 <= j.ulps <= 1.5, j.ulps


@pytest.mark.parametrize("dtype", DTYPES)
def test_lse_special_values(dtype):
    dt = np_dtype(dtype)
    def arr(v):
        return aligned(np.array(v, dtype=np.float32).astype(dt) if dtype == "bfloat16" else np.array(v, dtype=dt))
    ninf, inf, nan = -np.inf, np.inf, np.nan
    for v, want in (([ninf, 1.5, ninf], 1.5), ([ninf, ninf], -math.inf), ([1.0, inf, 2.0], math.inf),
                    ([1.0, nan, inf], math.nan)):
        for variant in ("exact", "naive", "two-pass", "online", "accurate", "reproducible"):
            got = sumlab.reduce(arr(v), "lse", variant)
            assert (math.isnan(got) and math.isnan(want)) or got == want, (dtype, v, variant, got)
    assert sumlab.exact(arr([ninf, 1.5, ninf]), "lse") == Fraction(3, 2)
