# test_bench_moments.py: experiments/bench_moments.py's check column without a GPU: host_check
# judges a result against the exact value and the variant's a-priori bound, as `sumlab bench` does
# for its rows: each CPU twin's result passes, a correctly rounded variant's result one ulp off
# fails, a loose variant's bound takes what it allows and no more, and inf or NaN where the exact
# result is finite fails (experiments/targets.py never counts such a row as a target met).
import math
import sys

import numpy as np
import pytest

import sumlab
from conftest import ROOT, np_dtype

sys.path.insert(0, str(ROOT / "experiments"))
import bench_moments  # noqa: E402  (imports neither torch nor a GPU)


def inputs(dtype, seed=7, n=4099):
    rng = np.random.default_rng(seed)
    return rng.standard_normal(n).astype(np_dtype(dtype)), rng.standard_normal(n).astype(np_dtype(dtype))


# every (format, op, variant) the benchmark runs by default or for experiments/targets.py that
# the variant takes: each must have a finite bound, or its rows could never pass
PAIRS = sorted({tuple(item.split(":")) for item in bench_moments.DEFAULT_OPS.split(",")}
               | {("var", "correct"), ("var", "two-pass"), ("norm2", "correct"), ("dot", "correct")})
CASES = [(dt, op, v) for op, v in PAIRS for dt in ("float32", "float64", "bfloat16", "float16")
         if dt in next(i for i in sumlab.variants(op) if i.name == v).dtypes]


def test_the_cases_cover_every_format_and_default():
    assert {dt for dt, _, _ in CASES} == {"float32", "float64", "bfloat16", "float16"}
    assert {(op, v) for _, op, v in CASES} == set(PAIRS)
    assert len(CASES) >= 50


@pytest.mark.parametrize("dtype,op,variant", CASES)
def test_each_twin_passes(dtype, op, variant):
    x, y = inputs(dtype)
    yy = y if op == "dot" else None
    value = sumlab.reduce(x, op, variant, y=yy)
    assert math.isfinite(sumlab.judge(x, value, op=op, bound_of=variant, y=yy).bound_abs)
    assert bench_moments.host_check(x, value, op, variant, yy) == "ok"


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("op", ["var", "norm2", "dot"])
def test_correct_one_ulp_off_fails(dtype, op):
    x, y = inputs(dtype)
    yy = y if op == "dot" else None
    value = sumlab.reduce(x, op, "correct", y=yy)
    dt = np.dtype(dtype).type
    off = float(np.nextafter(dt(value), dt(math.inf)))
    assert bench_moments.host_check(x, value, op, "correct", yy) == "ok"
    assert bench_moments.host_check(x, off, op, "correct", yy) == "FAILED"


def test_a_loose_bound_takes_what_it_allows():
    x, _ = inputs("float32")
    exact = float(sumlab.exact(x, op="var"))
    j = sumlab.judge(x, exact, op="var", bound_of="two-pass")
    assert j.bound_abs > 0
    inside = float(np.float32(exact + 0.5 * j.bound_abs))
    outside = float(np.float32(exact + 4.0 * j.bound_abs))
    assert bench_moments.host_check(x, inside, "var", "two-pass") == "ok"
    assert bench_moments.host_check(x, outside, "var", "two-pass") == "FAILED"


@pytest.mark.parametrize("bad", [math.inf, -math.inf, math.nan])
def test_not_finite_where_the_exact_is_fails(bad):
    x, y = inputs("bfloat16")
    for op, variant in (("var", "correct"), ("var", "welford"), ("dot", "correct")):
        assert bench_moments.host_check(x, bad, op, variant, y if op == "dot" else None) == "FAILED"
