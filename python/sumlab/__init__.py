"""sumlab: accurate, reproducible and correctly rounded reductions on NumPy, PyTorch, CuPy and JAX
arrays, zero-copy (DLPack): the Python face of libsumlab's C API (include/sumlab/sumlab.h).

    import sumlab
    s = sumlab.sum(x)                          # correctly rounded ("superacc")
    s = sumlab.sum(x, variant="reproducible")  # order-independent, same bits on any split
    v = sumlab.var(x, axis=-1)                 # one correctly rounded variance a row
    l = sumlab.logsumexp(x)                    # also mean, std, norm2, dot, amax, amin
    j = sumlab.judge(x, torch.sum(x))          # a value computed elsewhere, judged
    sumlab.exact(x)                            # the exact sum, a fractions.Fraction

Inputs: float32, float64, float16, bfloat16 (ml_dtypes.bfloat16 in NumPy, torch.bfloat16),
C-contiguous (an N-D array is reduced in memory order); nothing is ever copied, so a
non-contiguous array is a ValueError. Results: a CPU array gives a Python float (it holds every
value of the four formats exactly) from the variant's CPU twin; a CUDA array runs the variant's
kernel on its device and its framework's current stream (JAX: the legacy default stream, waited
for) and gives a 0-d array of its framework and dtype on that device, without a host transfer.
Errors: one exception (ValueError, TypeError, NotImplementedError, MemoryError, RuntimeError)
whose message starts with "sumlab:"; nothing is printed.
"""
from __future__ import annotations

import dataclasses
import operator
from fractions import Fraction

from . import _sumlab
from ._arrays import DTYPE_NAMES, call, device_result, dtype_code, round_to, stream_of, take, torch_empty
from ._dist import allreduce

__all__ = ["reduce", "sum", "dot", "mean", "var", "std", "norm2", "logsumexp", "amax", "amin", "judge",
           "exact", "variants", "ops", "State", "allreduce", "Judgement", "RowJudgements", "Variant", "Op",
           "__version__"]

__version__ = _sumlab.version()


@dataclasses.dataclass(frozen=True)
class Op:
    """An operation of the registry (`sumlab list ops`)."""
    name: str
    inputs: int             # arrays it reads: 1 or 2
    exact_variant: str      # the variant whose result is the exact reference
    description: str


@dataclasses.dataclass(frozen=True)
class Variant:
    """A variant of the registry (`sumlab list variants`): how an operation is computed."""
    name: str
    op: str
    family: str             # ladder, accuracy, reproducible, anchor, reference
    determinism: str        # nondeterministic .. correctly-rounded
    dtypes: tuple           # ("float32", "float64", "float16", "bfloat16") it takes
    has_cpu: bool           # a CPU twin (or the exact reference) runs on host memory
    has_gpu: bool           # this build has its kernel
    has_state: bool         # sumlab.State takes it
    description: str
    max_n: int              # 0: any n


def ops() -> list:
    """The operations of the registry, as Op records."""
    return [Op(**d) for d in _sumlab.ops()]


def variants(op: str | None = None) -> list:
    """The variants of the registry (of one operation when op is given), as Variant records."""
    if op is not None and op not in {o.name for o in ops()}:
        raise ValueError(f"sumlab: unknown operation {op!r} (sumlab.ops() lists them)")
    out = []
    for d in _sumlab.variants():
        if op is None or d["op"] == op:
            d = dict(d, dtypes=tuple(d["dtypes"]))
            out.append(Variant(**d))
    return out


_UNSET = object()   # an argument _names was not asked to check


def _names(op=_UNSET, variant=_UNSET, bound_of=None, ddof=_UNSET):
    """The arguments that name things and ddof checked before any reaches the binding (whose
    own errors for them were C++ ones, or blamed the array): TypeError or ValueError naming the
    argument. op and variant must be str (variant None: reduce's default, passed as _UNSET);
    bound_of a str or None; ddof any integer (NumPy's too, not bool). Returns ddof as an int
    (None when not asked)."""
    if op is not _UNSET and not isinstance(op, str):
        raise TypeError(f"sumlab: op must be a str (an operation's name), not {type(op).__name__}")
    if variant is not _UNSET and not isinstance(variant, str):
        raise TypeError(f"sumlab: variant must be a str (a variant's name), not {type(variant).__name__}")
    if bound_of is not None and not isinstance(bound_of, str):
        raise TypeError(f"sumlab: bound_of must be a str (a variant's name) or None, not {type(bound_of).__name__}")
    for what, name in (("operation", op), ("variant", variant), ("variant", bound_of)):
        if isinstance(name, str) and "\0" in name:   # the C API would read the name up to it
            raise ValueError(f"sumlab: unknown {what} {name!r} (a name holds no NUL character)")
    if ddof is _UNSET:
        return None
    if isinstance(ddof, bool):
        raise TypeError("sumlab: ddof must be an int, not bool")
    try:
        d = operator.index(ddof)
    except TypeError:
        raise TypeError(f"sumlab: ddof must be an int, not {type(ddof).__name__}") from None
    if not 0 <= d <= 1000000:
        raise ValueError(f"sumlab: ddof must be in [0, 1000000], not {d}")
    return d


def _pair(x, y):
    xin = take(x, "x")
    yin = take(y, "y") if y is not None else None
    if yin is not None and (yin.cuda != xin.cuda or yin.framework != xin.framework):
        raise ValueError("sumlab: x and y must be arrays of one framework on one device")
    return xin, yin


def _reduce_py(x, op, variant, y, ddof=1):
    """reduce() for the inputs the binding hands back (CuPy and JAX arrays, and objects it cannot
    read, for the precise error): the framework's stream and result buffer found here."""
    xin, yin = _pair(x, y)
    y_obj, y_hint = (yin.obj, yin.hint) if yin is not None else (None, -1)
    if not xin.cuda:
        return call(_sumlab.reduce_host, op, variant, xin.obj, xin.hint, y_obj, y_hint, ddof)
    out, ptr = device_result(xin)
    if xin.framework == "jax":
        xin.orig.block_until_ready()
        if yin is not None:
            yin.orig.block_until_ready()
    call(_sumlab.reduce_device, op, variant, xin.obj, xin.hint, y_obj, y_hint, ptr, stream_of(xin), ddof)
    if xin.framework == "jax":
        _sumlab.stream_synchronize(0, xin.device)   # JAX knows nothing of the write
    return out


def _moved_last(xin, a: int):
    """x with axis a moved to the last place, C-contiguous (x itself when it already is: no
    copy; otherwise its framework's copy)."""
    x = xin.obj
    if xin.framework == "torch":
        return x.movedim(a, -1).contiguous()
    if xin.framework == "cupy":
        import cupy
        return cupy.ascontiguousarray(cupy.moveaxis(x, a, -1))
    import numpy as np
    if xin.framework == "other" and hasattr(x, "__dlpack__"):
        x = np.from_dlpack(x)        # another DLPack producer (np.asarray made it a 0-d object array)
    return np.ascontiguousarray(np.moveaxis(np.asarray(x), a, -1))


def _rows_input(xin, a: int, moved: bool):
    """x's rows along axis a as the binding reads them: the axis moved last (a copy unless it
    already is, C-contiguous) and its dtype hint."""
    import numpy as np
    y, hint = (_moved_last(xin, a) if moved else xin.obj), xin.hint
    if hint < 0 and type(y) is np.ndarray:
        yin = take(y)                # a JAX bfloat16 array's NumPy copy: its uint16 view
        y, hint = yin.obj, yin.hint
    return y, hint


def _rows_shape(xin, yin, axis):
    """axis= checked against x's shape (and y's: x's shape, row i with row i; or 1-d of the axis'
    length, one row with every row): (shape, a, n, out_shape, shared), the axis a >= 0 of length
    n and the rows' shape; a 0-d x is one row of one value. An empty axis or no rows: the
    caller's to refuse or not."""
    for a_in in (xin, yin):
        if a_in is not None and not hasattr(a_in.orig, "shape"):   # an __array_interface__ alone
            raise TypeError(f"sumlab: cannot read {type(a_in.orig).__name__} as an array with a shape "
                            "(NumPy, PyTorch, CuPy or JAX; numpy.asarray(...) makes one)")
    shape = tuple(int(d) for d in xin.orig.shape)
    yshape = tuple(int(d) for d in yin.orig.shape) if yin is not None else None
    nd = len(shape)
    if isinstance(axis, bool) or not hasattr(type(axis), "__index__"):
        raise TypeError(f"sumlab: axis must be an int, not {type(axis).__name__}")
    axis = operator.index(axis)   # NumPy's integers too, as numpy.sum takes them
    if nd == 0:
        if axis not in (0, -1):
            raise ValueError(f"sumlab: axis {axis} is out of range for a 0-d array (0 or -1)")
        shape, nd = (1,), 1
    if not -nd <= axis < nd:
        raise ValueError(f"sumlab: axis {axis} is out of range for a {nd}-d array ({-nd} .. {nd - 1})")
    a = axis % nd
    n = shape[a]
    # y of x's shape: row i with row i; 1-d of the axis' length: one row with every row (x @ y)
    shared = yin is not None and yshape != shape and yshape == (n,)
    if yin is not None and yshape != shape and not shared:
        raise ValueError(f"sumlab: x has shape {shape} but y has shape {yshape}: the shapes must be equal "
                         f"(row i of x with row i of y), or y 1-d of the axis' length ({n},) (one row with "
                         "every row of x)")
    return shape, a, n, shape[:a] + shape[a + 1:], shared


def _reduce_rows(x, op, variant, ddof, axis, y=None):
    """reduce(..., axis=K): every row along axis K (kernels/rows through libsumlab's rows entry
    points): a NumPy float64 array of the other axes' shape for a CPU array, an array of x's
    framework, dtype and device for a CUDA array (PyTorch, CuPy), written stream-ordered. y (a
    two-input operation's second array): x's shape (row i with row i), or 1-d of the axis'
    length (with every row, as x @ y)."""
    import numpy as np
    xin, yin = _pair(x, y)
    shape, a, n, out_shape, shared = _rows_shape(xin, yin, axis)
    rows = 1
    for d in out_shape:
        rows *= d
    if n == 0 or rows == 0:
        raise ValueError(f"sumlab: shape {shape} cannot be reduced along axis {a}: "
                         + ("the axis has length 0" if n == 0 else "no rows"))
    if xin.cuda and xin.framework == "jax":
        raise NotImplementedError("sumlab: axis= on JAX device arrays is not supported (PyTorch and CuPy are)")
    # the axis moved last (a strided 1-D array of NumPy, PyTorch or CuPy made contiguous too, as
    # numpy.sum takes it; another producer's 1-D array as it is, read through DLPack)
    nd0 = len(xin.orig.shape)
    moved = nd0 > 1 or (nd0 == 1 and xin.framework in ("numpy", "torch", "cupy"))
    xr, hint = _rows_input(xin, a, moved)
    yr, y_hint = (None, -1) if yin is None else (
        _rows_input(yin, 0, yin.framework in ("numpy", "torch", "cupy")) if shared else _rows_input(yin, a, moved))
    if not xin.cuda:
        raw = call(_sumlab.reduce_rows_host, op, variant, xr, hint, n, ddof, yr, y_hint)
        return np.frombuffer(raw, dtype=np.float64).reshape(out_shape).copy()
    if xin.framework == "torch":
        out = torch_empty(xin.orig, out_shape)
        ptr = out.data_ptr()
    elif xin.framework == "cupy":
        import cupy
        with cupy.cuda.Device(xin.device):
            out = cupy.empty(out_shape, dtype=xin.orig.dtype)
        ptr = out.data.ptr
    else:
        raise TypeError("sumlab: a CUDA array of PyTorch or CuPy is needed for axis=")
    call(_sumlab.reduce_rows_device, op, variant, xr, xin.hint, n, ptr, stream_of(xin), ddof, yr, y_hint)
    return out


def _default_variant(op: str) -> str:
    """reduce()'s variant when none is named: the sum's superacc, else the operation's `correct`
    (norm2, dot, mean, var, std); an operation without one needs variant= named."""
    if op == "sum" or not isinstance(op, str):   # (a non-str op: the binding's TypeError)
        return "superacc"
    names = [v.name for v in variants(op)]
    if "correct" in names:
        return "correct"
    raise ValueError(f"sumlab: reduce(op={op!r}) needs variant= (one of {', '.join(names)})")


def reduce(x, op: str = "sum", variant: str | None = None, y=None, ddof: int = 1, axis=None):
    """op's variant over x (and y for a two-input operation): a float for a CPU array (the
    variant's CPU twin, or the exact reference for the exact variant), a 0-d array of x's
    framework and dtype on x's device for a CUDA array (the variant's kernel, on the framework's
    current stream, stream-ordered). ddof: var and std divide by n - ddof (1 as torch.var, 0 as
    numpy.var). axis: reduce along that axis only (negative: from the end), one result per row
    (row i's bits are the 1-D call's on that row; for the order-independent variants they do
    not depend on the other rows): a NumPy float64 array for a CPU array, an array of x's
    framework and dtype on x's device for a CUDA array (zero-copy when the axis is already the
    contiguous last one). variant None: the sum's superacc, else the operation's correctly
    rounded `correct` where it has one."""
    ddof = _names(op, _UNSET if variant is None else variant, ddof=ddof)
    if variant is None:
        variant = _default_variant(op)
    if axis is not None:
        return _reduce_rows(x, op, variant, ddof, axis, y)
    # the binding does the whole call for NumPy and PyTorch (checks, stream, result); it hands
    # back NotImplemented for the rest
    r = _sumlab.reduce(x, op, variant, y, ddof)
    return _reduce_py(x, op, variant, y, ddof) if r is NotImplemented else r


def dot(x, y, variant: str = "correct", axis=None):
    """The dot product sum x_i y_i of x and y (one length, dtype and device) by variant
    (sumlab.variants("dot") lists them: correct, reproducible, dot2, kahan, naive, ...); see
    reduce(). axis: the dot product of each row of x along that axis with its row of y: y of x's
    shape (row i with row i: a batched dot, as (x * y).sum(axis) without the rounded products)
    or 1-d of the axis' length (one row with every row: with axis=-1, x @ y, each value rounded
    once by "correct" and the same bits whatever the batch)."""
    return reduce(x, "dot", variant, y, axis=axis)


def sum(x, variant: str = "superacc", axis=None):   # noqa: A001 (the CLI's word)
    """The sum of x by variant (sumlab.variants("sum") lists them); see reduce() (axis too)."""
    _names(variant=variant)
    if axis is not None:
        return _reduce_rows(x, "sum", variant, 1, axis)
    r = _sumlab.reduce(x, "sum", variant, None)
    return _reduce_py(x, "sum", variant, None) if r is NotImplemented else r


def mean(x, variant: str = "correct", axis=None):
    """The mean of x, correctly rounded by default (sumlab.variants("mean") lists the others:
    fused, welford, naive, ...); see reduce() (axis too)."""
    return reduce(x, "mean", variant, axis=axis)


def var(x, variant: str = "correct", ddof: int = 1, axis=None):
    """The variance of x, dividing by n - ddof (1 as torch.var, 0 as numpy.var), correctly
    rounded by default (sumlab.variants("var"): two-pass, welford, fused, textbook, ...); see
    reduce()."""
    return reduce(x, "var", variant, ddof=ddof, axis=axis)


def std(x, variant: str = "correct", ddof: int = 1, axis=None):
    """The standard deviation of x (the root of var()), correctly rounded by default; see var()."""
    return reduce(x, "std", variant, ddof=ddof, axis=axis)


def norm2(x, variant: str = "correct", axis=None):
    """The Euclidean norm sqrt(sum x_i^2), correctly rounded by default, finite wherever the
    exact norm is (sumlab.variants("norm2"): scaled, reproducible, naive, ...); see reduce()."""
    return reduce(x, "norm2", variant, axis=axis)


def logsumexp(x, variant: str = "accurate", axis=None):
    """log(sum exp(x_i)) (-Inf values ignored; all -Inf: -Inf; +Inf: +Inf; NaN: NaN). The default
    `accurate` is correctly rounded when its first pass decides and within 1 ulp otherwise
    (float64: correctly rounded unless lse lies within about 2^-74 of a rounding boundary);
    `reproducible` gives the same bits in any order; `exact` (CPU arrays) is the reference. See
    sumlab.variants("lse") and reduce()."""
    return reduce(x, "lse", variant, axis=axis)


def amax(x, variant: str = "block-reduce", axis=None):
    """The largest value of x (IEEE 754-2019 maximum: NaN propagates, +0 above -0); see reduce()."""
    return reduce(x, "max", variant, axis=axis)


def amin(x, variant: str = "block-reduce", axis=None):
    """The smallest value of x (IEEE 754-2019 minimum: NaN propagates, -0 below +0); see reduce()."""
    return reduce(x, "min", variant, axis=axis)


@dataclasses.dataclass(frozen=True)
class Judgement:
    """A value judged against the exact result S (the columns of `sumlab judge`)."""
    value_as: float         # the value as judged: rounded once to value_format
    exact: float            # S rounded once to the input's dtype
    exact_f64: float        # ... to float64
    abs_err: float          # |value - S| (rounded once to double)
    rel_err: float
    ulps: float             # in ulps of S rounded to the input's dtype
    ulps_f64: float         # in ulps of float64
    cond: float             # condition number (sum|x| / |sum x| for the sum)
    bound_abs: float        # bound_of's a-priori bound on this input (nan when none asked)
    bound_ratio: float      # abs_err / bound_abs
    dtype: str
    n: int
    bound_of: str | None
    value_format: str       # the format the value was held in: the input's dtype unless value_as
    exact_sum_hex: str      # S itself, every bit (C99 hex: "-0x1.8p+3", "0x0p+0", "inf", "nan");
                            # a quotient, root or log: its rounding at the reference's bits
    exact_sum_dec: str      # S as the fewest decimal digits that identify it
    exact_sum_bits: int     # S's significant bits (0: zero or not finite)


@dataclasses.dataclass(frozen=True)
class RowJudgements:
    """judge(..., axis=K): every row's Judgement, each field an array of the rows' shape (the
    other axes'), e.g. j.ulps.max() or j.ulps[j.ulps > 1]; dtype, n, bound_of and value_format
    are the rows' common ones."""
    shape: tuple
    value_as: object        # NumPy float64 arrays of shape `shape` ...
    exact: object
    exact_f64: object
    abs_err: object
    rel_err: object
    ulps: object
    ulps_f64: object
    cond: object
    bound_abs: object
    bound_ratio: object
    exact_sum_hex: object   # ... and NumPy arrays of str
    exact_sum_dec: object
    exact_sum_bits: object  # int64
    dtype: str
    n: int                  # the row length
    bound_of: str | None
    value_format: str

    def __getitem__(self, idx) -> Judgement:
        """Row idx's Judgement (an index of `shape`)."""
        f = {k: getattr(self, k)[idx] for k in _ROW_FIELDS}
        if any(getattr(v, "shape", ()) != () for v in f.values()):
            raise IndexError("sumlab: RowJudgements[idx] takes one row's index")
        num = {k: (int(v) if k == "exact_sum_bits" else str(v) if k.startswith("exact_sum_") else float(v))
               for k, v in f.items()}
        return Judgement(dtype=self.dtype, n=self.n, bound_of=self.bound_of, value_format=self.value_format, **num)


_ROW_FIELDS = ("value_as", "exact", "exact_f64", "abs_err", "rel_err", "ulps", "ulps_f64", "cond", "bound_abs",
               "bound_ratio", "exact_sum_hex", "exact_sum_dec", "exact_sum_bits")


def _host_values(value):
    """value (an array of any framework, on any device) as a NumPy float64 array."""
    import numpy as np
    mod = type(value).__module__
    if mod.startswith("torch"):
        import torch
        return value.detach().to("cpu", torch.float64).numpy()
    if mod.startswith("cupy"):
        value = value.get()
    elif mod.startswith("jax"):
        value = np.asarray(value)
    return np.asarray(value).astype(np.float64)


def _judge_rows(x, value, op, bound_of, y, value_as, ddof, axis) -> RowJudgements:
    """judge(..., axis=K): each row of x along axis K (and its row of y) against its value."""
    import numpy as np
    xin, yin = _pair(x, y)
    if xin.cuda:
        raise ValueError("sumlab: judge reads a CPU array (x.cpu() or numpy.asarray(x) copies one)")
    shape, a, _, out_shape, shared = _rows_shape(xin, yin, axis)
    vals = _host_values(value)
    if vals.shape != out_shape:
        raise ValueError(f"sumlab: judge(axis={axis}) of shape {shape}: value must have the rows' shape "
                         f"{out_shape}, not {vals.shape}")
    xs = np.asarray(xin.orig) if xin.framework != "torch" else xin.orig.detach().numpy()
    rows_x = np.moveaxis(xs.reshape(shape), a, -1)
    rows_y = None
    if yin is not None:
        ys = np.asarray(yin.orig) if yin.framework != "torch" else yin.orig.detach().numpy()
        rows_y = np.broadcast_to(ys, out_shape + (shape[a],)) if shared else np.moveaxis(ys, a, -1)
    cols = {k: [] for k in _ROW_FIELDS}
    first = None
    for idx in np.ndindex(*out_shape):
        j = judge(np.ascontiguousarray(rows_x[idx]), float(vals[idx]), op, bound_of,
                  None if rows_y is None else np.ascontiguousarray(rows_y[idx]), value_as, ddof)
        first = first or j
        for k in _ROW_FIELDS:
            cols[k].append(getattr(j, k))
    if first is None:
        raise ValueError(f"sumlab: shape {shape} has no rows along axis {a}")
    arr = {k: np.array(v, dtype=np.int64 if k == "exact_sum_bits" else str if k.startswith("exact_sum_")
                       else np.float64).reshape(out_shape) for k, v in cols.items()}
    return RowJudgements(shape=out_shape, dtype=first.dtype, n=first.n, bound_of=bound_of,
                         value_format=first.value_format, **arr)


def _as_float(value) -> float:
    if isinstance(value, (int, float)):
        v = value
    else:
        item = getattr(value, "item", None)          # NumPy/torch/CuPy/JAX scalars and 0-d arrays
        if item is None:
            raise TypeError(f"sumlab: value is a {type(value).__name__}, not a number")
        numel = getattr(value, "numel", None)        # torch: numel(); its size() is the shape
        size = numel() if callable(numel) else getattr(value, "size", 1)
        if size != 1:
            raise ValueError("sumlab: value must be one number (a float or a one-element array)")
        v = item()
    try:
        return float(v)
    except OverflowError:
        raise ValueError(f"sumlab: value is an integer beyond float64 ({v.bit_length()} bits)") from None
    except (TypeError, ValueError):
        raise TypeError(f"sumlab: value is a {type(v).__name__}, not a real number") from None


def judge(x, value, op: str = "sum", bound_of: str | None = None, y=None, value_as=None,
          ddof: int = 1, axis=None):
    """value (computed elsewhere: a float, or a 0-d result of any framework) judged against op's
    exact result over x (a CPU array): errors, ulps, condition number, and bound_of's bound.
    value_as: the format value is held in (rounded once to it first); None: x's dtype (what a
    variable of x's format holds). A wider format judges a wider result as it is, e.g.
    judge(x32, torch.sum(t32, dtype=torch.float64), value_as="float64"). axis=K: value holds one
    result a row along axis K (an array of the other axes' shape, of any framework and device, e.g.
    torch.sum(X, dim=K)); each row judged against its own exact result: a RowJudgements (y: x's
    shape, or 1-d of the axis' length for dot)."""
    ddof = _names(op, bound_of=bound_of, ddof=ddof)
    if axis is not None:
        return _judge_rows(x, value, op, bound_of, y, value_as, ddof, axis)
    v = _as_float(value)
    xin, yin = _pair(x, y)
    y_obj, y_hint = (yin.obj, yin.hint) if yin is not None else (None, -1)
    va = -1 if value_as is None else dtype_code(value_as)
    d = call(_sumlab.judge, op, xin.obj, xin.hint, y_obj, y_hint, v, va, bound_of, ddof)
    fmt = d["dtype"] if value_as is None else DTYPE_NAMES[va]
    return Judgement(value_as=round_to(v, dtype_code(fmt)), bound_of=bound_of, value_format=fmt, **d)


def _parse_hex(h: str):
    """A C99 hex float with every bit ("-0x1.8p+3", "0x0p+0", "inf", "nan") as a Fraction
    (inf and nan as floats)."""
    t = h.strip().lower()
    if t in ("inf", "+inf", "-inf", "nan", "+nan", "-nan"):
        return float(t)
    sign = -1 if t.startswith("-") else 1
    t = t.lstrip("+-")
    if not t.startswith("0x") or "p" not in t:
        raise RuntimeError(f"sumlab: the library's exact value {h!r} is not a hex float")
    mant, exp = t[2:].split("p")
    whole, _, frac = mant.partition(".")
    num = int(whole + frac, 16)
    return sign * num * Fraction(2) ** (int(exp) - 4 * len(frac))


def exact(x, op: str = "sum", y=None, ddof: int = 1):
    """op's exact result over x (a CPU array): a fractions.Fraction when finite, else float
    inf, -inf or nan. The sum, max and min are dyadic and exact here; a mean or variance whose
    divisor is no power of two, and a standard deviation, are the reference's binary value
    (held to enough bits that its correct rounding is certain); lse (irrational beyond one value)
    is log(sum(exp(x))) correctly rounded to the bits its reference certifies (about 50, at
    least the format's), every one of them right.
    ddof: var and std divide by n - ddof."""
    ddof = _names(op, ddof=ddof)
    xin, yin = _pair(x, y)
    y_obj, y_hint = (yin.obj, yin.hint) if yin is not None else (None, -1)
    return _parse_hex(call(_sumlab.exact_hex, op, xin.obj, xin.hint, y_obj, y_hint, ddof))


class State:
    """The mergeable state of an order-independent variant ("reproducible", "superacc", "exact"):
    add arrays in any order and split, merge states from threads, devices, processes or files;
    result() is the same bits as one call over everything. to_bytes() is canonical (the same
    values in any order or split give the same bytes). Threads may share one State: each call
    holds its lock (add() runs without the GIL)."""

    def __init__(self, variant: str = "reproducible", dtype="float32"):
        _names(variant=variant)
        self.variant = variant
        self._c = _sumlab.CState(variant, dtype_code(dtype))

    @property
    def dtype(self) -> str:
        """The dtype of the values it takes (for a state read by from_bytes: the one its bytes name)."""
        return DTYPE_NAMES[self._c.dtype]

    def add(self, x) -> "State":
        """Adds the values of x (CPU or CUDA; a CUDA array on its framework's current stream, which
        this waits for)."""
        xin = take(x, "x")
        stream = 0
        if xin.cuda:
            if xin.framework == "jax":
                xin.orig.block_until_ready()
            stream = stream_of(xin)
        call(self._c.add, xin.obj, xin.hint, stream)
        return self

    def merge(self, other: "State") -> "State":
        """self += other (same variant and dtype)."""
        if not isinstance(other, State):
            raise TypeError(f"sumlab: merge takes a State, not a {type(other).__name__}")
        self._c.merge(other._c)
        return self

    def to_bytes(self) -> bytes:
        return self._c.to_bytes()

    @classmethod
    def from_bytes(cls, b) -> "State":
        """A state from to_bytes()'s bytes (any bytes-like object): its variant and dtype are the
        ones the bytes name, so adding values of another dtype is a TypeError."""
        try:
            raw = bytes(memoryview(b))               # bytes(8) would be eight zero bytes
        except TypeError:
            raise TypeError(f"sumlab: from_bytes takes bytes (a bytes-like object), not {type(b).__name__}") from None
        st = cls.__new__(cls)
        st._c = _sumlab.CState.from_bytes(raw)
        st.variant = st._c.variant
        return st

    def copy(self) -> "State":
        return State.from_bytes(self.to_bytes())

    def __reduce__(self):
        """pickle, copy.copy and copy.deepcopy: a state of its own, through its bytes."""
        return State.from_bytes, (self.to_bytes(),)

    def result(self) -> float:
        """The variant's result over everything added (rounded once)."""
        return self._c.result()

    def __repr__(self) -> str:
        return f"sumlab.State(variant={self.variant!r}, dtype={self.dtype!r})"

