"""_arrays.py: how sumlab takes an array: NumPy, PyTorch, CuPy or JAX (or another DLPack producer
on the CPU), zero-copy; which device and stream a CUDA array runs on, and its result's buffer."""
from __future__ import annotations

import math
import sys

import numpy as np

from . import _sumlab

# sl_dtype codes (sumlab/types.h)
F32, F64, F16, BF16 = _sumlab.SL_F32, _sumlab.SL_F64, _sumlab.SL_F16, _sumlab.SL_BF16
DTYPE_NAMES = {F32: "float32", F64: "float64", F16: "float16", BF16: "bfloat16"}
_SPELLINGS = {"f32": F32, "float32": F32, "f64": F64, "float64": F64, "double": F64,
              "f16": F16, "float16": F16, "half": F16, "bf16": BF16, "bfloat16": BF16}


def dtype_code(dtype) -> int:
    """The sl_dtype of a dtype given as text ('float32', 'bf16'...), a NumPy dtype or type
    (ml_dtypes.bfloat16 included), a torch dtype, or a CuPy/JAX dtype."""
    if isinstance(dtype, str):
        name = dtype
    else:
        name = getattr(dtype, "name", None)
        if not isinstance(name, str):
            try:
                name = np.dtype(dtype).name
            except Exception:                    # a torch dtype: 'torch.float32'
                name = str(dtype)
    name = name.removeprefix("torch.")
    if name == "float":                          # NumPy's float64, torch's and C's float32
        raise TypeError("sumlab: dtype 'float' is ambiguous (float64 in NumPy, float32 in PyTorch "
                        "and C): say 'float32' or 'float64'")
    if name not in _SPELLINGS:
        raise TypeError(f"sumlab: dtype {dtype!r} is not supported (float32, float64, float16 or bfloat16)")
    return _SPELLINGS[name]


class Input:
    """One array as the binding takes it: obj (handed to nanobind), bf16_view (obj is a uint16
    view of a NumPy bfloat16 array), the framework, whether it is on CUDA, and the device."""
    __slots__ = ("obj", "orig", "bf16_view", "framework", "cuda", "device")

    def __init__(self, obj, orig, bf16_view, framework, cuda, device):
        self.obj, self.orig, self.bf16_view = obj, orig, bf16_view
        self.framework, self.cuda, self.device = framework, cuda, device

    @property
    def hint(self) -> int:
        return BF16 if self.bf16_view else -1


def _module(x) -> str:
    return type(x).__module__ or ""


def take(x, what: str = "x") -> Input:
    """Classifies x without copying it; raises TypeError for what is not an array."""
    if type(x) is np.ndarray:                    # the common case first: one type check
        if not x.dtype.isnative:                 # DLPack and the C API read native values only
            raise TypeError(f"sumlab: {what}: dtype {x.dtype.name} in non-native byte order ({x.dtype.str}); "
                            "sumlab never copies: x.astype(x.dtype.newbyteorder('=')) makes a native copy")
        if x.dtype.kind == "V" and x.dtype.name == "bfloat16" and x.dtype.itemsize == 2:
            # ml_dtypes.bfloat16 has no DLPack code: its bits as uint16, same buffer
            return Input(x.view(np.uint16), x, True, "numpy", False, 0)
        return Input(x, x, False, "numpy", False, 0)
    mod = _module(x)
    if mod.startswith("torch"):
        if x.requires_grad:
            x = x.detach()                       # same storage; DLPack refuses grad tensors
        cuda = x.is_cuda
        return Input(x, x, False, "torch", cuda, x.get_device() if cuda else 0)
    if mod.startswith("cupy"):
        return Input(x, x, False, "cupy", True, int(x.device.id))
    if mod.startswith("jax"):
        devs = list(x.devices())
        if len(devs) != 1:
            raise ValueError(f"sumlab: {what}: a JAX array sharded over {len(devs)} devices (sum each "
                             "shard and merge states, or gather it first)")
        dev = devs[0]
        cuda = dev.platform in ("gpu", "cuda")
        return Input(x, x, False, "jax", cuda, int(getattr(dev, "local_hardware_id", dev.id) or 0) if cuda else 0)
    if isinstance(x, np.ndarray):                # a subclass (np.memmap, ...)
        ma = sys.modules.get("numpy.ma")          # (no masked array before numpy.ma is imported)
        if ma is not None and isinstance(x, ma.MaskedArray) and ma.count_masked(x):
            # its buffer still holds the masked values, which a reduction of it would count
            raise ValueError(f"sumlab: {what}: a masked array with masked values ({ma.count_masked(x)} of "
                             f"{x.size}; sumlab reads every value and never copies: {what}.compressed() "
                             "drops them)")
        return take(x.view(np.ndarray), what)
    if isinstance(x, np.generic):
        raise TypeError(f"sumlab: {what}: a NumPy scalar ({type(x).__name__}); pass an array "
                        "(numpy.asarray(v) makes one)")
    if hasattr(x, "__dlpack__") or hasattr(x, "__array_interface__"):
        return Input(x, x, False, "other", False, 0)
    raise TypeError(f"sumlab: {what} is a {type(x).__name__}, not an array (NumPy, PyTorch, CuPy or JAX; "
                    "sumlab never copies: numpy.asarray(...) makes one)")


def call(fn, *args, **kw):
    """Calls the binding; nanobind's own argument errors (an object it cannot read as an array,
    such as a raw void dtype) become one short TypeError."""
    try:
        return fn(*args, **kw)
    except TypeError as e:
        # only what nanobind says of arguments it could not convert (the names and ddof are
        # checked before the call, so an unreadable one is the array)
        if str(e).startswith("sumlab:") or "incompatible function arguments" not in str(e):
            raise
        arrays = [a for a in args if not isinstance(a, (str, int, float, bytes, type(None)))]
        kinds = ", ".join(f"{type(a).__name__} of dtype {getattr(a, 'dtype', '?')}" for a in arrays)
        raise TypeError(f"sumlab: cannot read {kinds or 'the input'} zero-copy through DLPack or the buffer "
                        "protocol (float32, float64, float16 or bfloat16 arrays)") from None


def stream_of(inp: Input) -> int:
    """The framework's current stream on the array's device, as an integer (0: legacy default)."""
    if inp.framework == "torch":
        import torch
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)   # no Stream object: faster
        if raw is not None:
            return int(raw(inp.device))
        return int(torch.cuda.current_stream(inp.orig.device).cuda_stream)
    if inp.framework == "cupy":
        import cupy
        with cupy.cuda.Device(inp.device):
            return int(cupy.cuda.get_current_stream().ptr)
    return 0


def torch_empty(x, shape):
    """An uninitialised tensor of shape with x's dtype on x's device (torch's caching allocator,
    its current stream): x.new_empty for a plain tensor (cheaper than torch.empty), torch.empty
    for a subclass (whose new_empty may be its own)."""
    import torch
    if type(x) is torch.Tensor:
        return x.new_empty(shape)
    return torch.empty(shape, dtype=x.dtype, device=x.device)


def device_result(inp: Input):
    """A 0-d array of x's dtype on x's device, allocated by x's framework, and its pointer."""
    x = inp.orig
    if inp.framework == "torch":
        out = torch_empty(x, ())
        return out, out.data_ptr()
    if inp.framework == "cupy":
        import cupy
        with cupy.cuda.Device(inp.device):
            out = cupy.empty((), dtype=x.dtype)
        return out, out.data.ptr
    if inp.framework == "jax":
        import jax
        import numpy as np
        # a fresh buffer of its own (from host memory: never a cached constant), written once
        out = jax.device_put(np.zeros((), dtype=x.dtype), list(x.devices())[0])
        out.block_until_ready()
        return out, out.unsafe_buffer_pointer()
    raise TypeError("sumlab: a CUDA array of PyTorch, CuPy or JAX is needed (its framework allocates "
                    "the result)")


# Exact rounding of a double to a narrower format (round to nearest, ties to even, IEEE overflow):
# (precision in bits, minimum normal exponent, maximum exponent).
_FORMATS = {F32: (24, -126, 127), F16: (11, -14, 15), BF16: (8, -126, 127)}


def round_to(v: float, dt: int) -> float:
    """v rounded once to the format dt (a double holds the result exactly)."""
    v = float(v)
    if dt == F64 or v == 0.0 or not math.isfinite(v):
        return v
    p, emin, emax = _FORMATS[dt]
    _, e = math.frexp(v)                         # v = m * 2^e, 0.5 <= |m| < 1
    q = max(e - 1, emin) - (p - 1)               # the quantum: 2^q
    r = math.ldexp(float(round(math.ldexp(v, -q))), q)   # round(): ties to even, exact here
    if abs(r) >= math.ldexp(1.0, emax + 1):
        return math.copysign(math.inf, v)
    return math.copysign(r, v)                   # an underflow to zero keeps its sign
