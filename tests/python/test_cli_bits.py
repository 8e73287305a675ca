"""test_cli_bits.py: every deterministic variant with a CPU twin, through the package, equals the
`sumlab sum` row of the CLI bit for bit (four dtypes, three kinds of input, .npy files written by
NumPy, buffers 256-byte aligned as the CLI's); the nondeterministic variants' twins sample a
commit order (the CLI's seed is not the library's), so for them only the set of rows is compared;
the judge's figures equal `sumlab judge`'s."""
import csv
import io
import math
from fractions import Fraction

import numpy as np
import pytest

import sumlab
from sumlab._arrays import dtype_code, round_to
from conftest import DTYPES, make_inputs


def bits(v: float) -> str:
    return float(v).hex()                 # sign, every bit; nan as 'nan'


def cli_rows(cli, path, *args):
    out = cli(*args, str(path), "--format", "csv", "--quiet")
    return list(csv.DictReader(io.StringIO(out)))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("kind,n", [("normal", 4099), ("cancel", 10_000), ("spread", 2053)])
def test_twins_equal_cli(cli, rng, tmp_path, dtype, kind, n):
    x = make_inputs(dtype, n, kind, rng)
    path = tmp_path / f"x_{dtype}.npy"
    np.save(path, x)
    rows = cli_rows(cli, path, "sum", "--backend", "cpu", "--columns", "variant,result_hex")
    cli_bits = {r["variant"]: bits(float.fromhex(r["result_hex"])) if r["result_hex"] != "nan" else "nan"
                for r in rows}
    mine = {v.name: bits(sumlab.sum(x, v.name)) for v in sumlab.variants("sum")
            if v.has_cpu and dtype in v.dtypes and (v.max_n == 0 or n <= v.max_n)}
    assert set(mine) == set(cli_bits), f"variants: package {sorted(mine)} vs CLI {sorted(cli_bits)}"
    nondet = {v.name for v in sumlab.variants("sum") if v.determinism == "nondeterministic"}
    diff = {k: (mine[k], cli_bits[k]) for k in mine if mine[k] != cli_bits[k] and k not in nondet}
    assert not diff, f"{dtype} {kind} n={n}: package vs CLI differ: {diff}"
    assert {"superacc", "reproducible", "exact"} <= set(mine)


@pytest.mark.parametrize("dtype", DTYPES)
def test_judge_equals_cli(cli, rng, tmp_path, dtype):
    x = make_inputs(dtype, 3001, "cancel", rng)
    path = tmp_path / "x.npy"
    np.save(path, x)
    # a value of the input's format (the CLI judges the value as read; the library rounds it once
    # to the format first: the same for a value of the format)
    value = round_to(float(np.sum(x.astype(np.float64))) * (1 + 2.0**-20), dtype_code(dtype))
    row = cli_rows(cli, path, "judge", "--value", value.hex(), "--bound-of", "vec4")[0]
    j = sumlab.judge(x, value, bound_of="vec4")
    assert bits(j.value_as) == bits(float.fromhex(row["result_hex"]))
    for mine, theirs in [("abs_err", "abs_err"), ("rel_err", "rel_err"), ("ulps", "ulps"), ("cond", "cond"),
                         ("ulps_f64", "ulps_f64"), ("bound_abs", "bound_abs"), ("bound_ratio", "bound_ratio")]:
        a, b = getattr(j, mine), float(row[theirs])
        assert a == b or (math.isnan(a) and math.isnan(b)), f"{mine}: package {a!r}, CLI {theirs} {b!r}"
    assert j.n == int(row["n"]) and j.dtype == {"f32": "float32", "f64": "float64", "f16": "float16",
                                                 "bf16": "bfloat16"}.get(row["dtype"], row["dtype"])
    # the exact value S, all bits, as the CLI prints it; the judge's exact is S rounded once
    assert sumlab.exact(x) == sumlab._parse_hex(row["exact_sum_hex"])
    assert bits(j.exact) == bits(sumlab.sum(x, "exact"))
    # ... and its text columns as the CLI prints them
    assert (j.exact_sum_hex, j.exact_sum_dec, str(j.exact_sum_bits)) == \
        (row["exact_sum_hex"], row["exact_sum_dec"], row["exact_sum_bits"])
    assert j.value_format == dtype


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_judge_value_as_wider_format(rng, dtype):
    # a float64 result of narrower input judged with its own bits (value_as="float64"): its
    # errors are the float64 value's; the default rounds it once to the input's format first
    x = make_inputs(dtype, 2001, "cancel", rng)
    S = sumlab.exact(x)
    v = float(np.sum(x.astype(np.float64)))              # a float64 sum: some float64 error
    w = sumlab.judge(x, v, value_as="float64")
    assert w.value_as == v and w.value_format == "float64" and w.dtype == dtype
    assert w.abs_err == float(abs(Fraction(v) - S))
    r = sumlab.judge(x, v)                                 # the input's format: rounded once
    assert r.value_as == round_to(v, dtype_code(dtype)) and r.value_format == dtype
    assert r.abs_err == float(abs(Fraction(r.value_as) - S))
    assert w.exact == r.exact and w.cond == r.cond and w.exact_sum_hex == r.exact_sum_hex
    # a float64 value exactly S (correctly rounded in float64): ulps_f64 <= 0.5, and it is not
    # rounded away to the input's format
    s64 = float(S)
    e = sumlab.judge(x, s64, value_as="float64")
    assert e.ulps_f64 <= 0.5 and e.value_as == s64
    with pytest.raises(TypeError, match="sumlab:"):
        sumlab.judge(x, v, value_as="int32")
