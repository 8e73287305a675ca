"""test_exact.py: sumlab.exact is the Fraction sum of the inputs (as_integer_ratio of each value),
inf/nan where the sum is not finite; exact() rounded once is the 'exact' and 'superacc' variants'
result; the judge's value_as is the value rounded once (checked against NumPy's conversions)."""
import math
from fractions import Fraction

import numpy as np
import pytest

import sumlab
from sumlab._arrays import BF16, F16, F32, round_to
from conftest import DTYPES, make_inputs, np_dtype


def fraction_sum(x):
    return sum((Fraction(*float(v).as_integer_ratio()) for v in x.astype(np.float64).ravel()), Fraction(0))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("kind", ["normal", "cancel", "spread"])
def test_exact_is_fraction_sum(rng, dtype, kind):
    x = make_inputs(dtype, 1000, kind, rng)
    e = sumlab.exact(x)
    assert isinstance(e, Fraction)
    assert e == fraction_sum(x)


@pytest.mark.parametrize("dtype", DTYPES)
def test_exact_nonfinite(dtype):
    dt = np_dtype(dtype)
    assert sumlab.exact(np.array([1.0, np.inf, 2.0]).astype(dt)) == math.inf
    assert sumlab.exact(np.array([-np.inf, 1.0]).astype(dt)) == -math.inf
    assert math.isnan(sumlab.exact(np.array([np.inf, -np.inf]).astype(dt)))
    assert math.isnan(sumlab.exact(np.array([1.0, np.nan]).astype(dt)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_exact_nd_is_memory_order(rng, dtype):
    x = make_inputs(dtype, 12 * 7, "cancel", rng).reshape(12, 7)
    assert sumlab.exact(x) == fraction_sum(x)
    assert sumlab.sum(x, "superacc") == sumlab.sum(x.ravel(), "superacc")


FORMATS = {"float32": (24, -126, 127), "float64": (53, -1022, 1023), "float16": (11, -14, 15),
           "bfloat16": (8, -126, 127)}


def round_fraction(e: Fraction, dtype: str) -> float:
    """e rounded once to dtype (nearest, ties to even), in exact rational arithmetic."""
    p, emin, emax = FORMATS[dtype]
    if e == 0:
        return 0.0
    a = abs(e)
    k = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** k > a:
        k -= 1                                  # 2^k <= a < 2^(k+1)
    q = max(k, emin) - (p - 1)
    r = round(a / Fraction(2) ** q) * Fraction(2) ** q   # round(): ties to even
    if r >= Fraction(2) ** (emax + 1):
        return math.copysign(math.inf, e)
    return float(r) if e > 0 else -float(r)


@pytest.mark.parametrize("dtype", DTYPES)
def test_correctly_rounded_variants_round_exact(rng, dtype):
    for kind in ("normal", "cancel", "spread"):
        x = make_inputs(dtype, 777, kind, rng)
        want = round_fraction(sumlab.exact(x), dtype).hex()
        for v in ("exact", "superacc"):
            assert sumlab.sum(x, v).hex() == want, f"{v} {kind}"


def test_parse_hex():
    p = sumlab._parse_hex
    assert p("0x0p+0") == 0 and p("-0x1.8p+3") == -12 and p("0x1.0000000000000000001p+0") == 1 + Fraction(1, 2**76)
    assert p("0x1p-1100") == Fraction(1, 2**1100)
    assert p("inf") == math.inf and p("-inf") == -math.inf and math.isnan(p("nan"))
    with pytest.raises(RuntimeError):
        p("1.5")


def test_round_to_matches_numpy(rng):
    v = np.concatenate([rng.standard_normal(20000) * np.exp2(rng.integers(-160, 140, 20000)),
                        [0.0, -0.0, 65519.99, 65520.0, 3.4028235677973366e38, 3.4028235677973362e38 * 1.0000001,
                         2.0**-149 * 0.5, -(2.0**-149) * 0.5, 2.0**-149 * 0.5000001, 2.0**-25, 2.0**-24 * 1.5]])
    with np.errstate(over="ignore"):
        f32 = v.astype(np.float32).astype(np.float64)
        f16 = v.astype(np.float16).astype(np.float64)
    for a, r32, r16 in zip(v, f32, f16):
        assert float(round_to(a, F32)).hex() == float(r32).hex(), a.hex()
        assert float(round_to(a, F16)).hex() == float(r16).hex(), a.hex()
    # bfloat16 from values exact in float32 (ml_dtypes rounds float32 to bfloat16 once)
    import ml_dtypes
    with np.errstate(over="ignore"):
        w = v.astype(np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        b = w.astype(ml_dtypes.bfloat16).astype(np.float64)
    for a, r in zip(w.astype(np.float64), b):
        assert float(round_to(a, BF16)).hex() == float(r).hex(), a.hex()
