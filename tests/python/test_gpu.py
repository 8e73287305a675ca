"""test_gpu.py: CUDA arrays of PyTorch, CuPy and JAX (skipped where the framework or a GPU is
missing: the GPU machine runs them): every deterministic variant with a kernel and a twin equals
the CPU twin bit for bit; the result is a 0-d array of the input's dtype on its device; the
binding reads the framework's own buffer (same pointer) and nothing travels to the host; the
framework's current stream orders the call; states added on the device equal host states."""
import numpy as np
import pytest

import sumlab
from sumlab import _sumlab
from conftest import DTYPES, make_inputs

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

needs_torch = pytest.mark.skipif(not HAVE_TORCH_GPU, reason="PyTorch with a CUDA GPU")
needs_cupy = pytest.mark.skipif(not HAVE_CUPY_GPU, reason="CuPy with a CUDA GPU")


def gpu_variants(dtype):
    return [v.name for v in sumlab.variants("sum") if v.has_gpu and v.has_cpu and dtype in v.dtypes
            and v.determinism != "nondeterministic" and v.max_n == 0]


def to_torch(x):
    if x.dtype.name == "bfloat16":   # exact: every bfloat16 value is a float32
        return torch.from_numpy(x.astype(np.float32)).to(torch.bfloat16)
    return torch.from_numpy(x)


@needs_torch
@pytest.mark.parametrize("dtype", DTYPES)
def test_torch_equals_twin(rng, dtype):
    assert _sumlab.built_with_cuda
    for kind, n in [("normal", 1 << 20), ("cancel", 100_003), ("spread", 4099)]:
        x = make_inputs(dtype, n, kind, rng)
        xg = to_torch(x).cuda()
        for v in gpu_variants(dtype):
            r = sumlab.sum(xg, v)
            assert isinstance(r, torch.Tensor) and r.shape == () and r.dtype == xg.dtype and r.device == xg.device
            assert float(r.item()).hex() == sumlab.sum(x, v).hex(), f"{v} {dtype} {kind}"


@needs_torch
def test_torch_zero_copy_no_host_transfer(rng):
    x = make_inputs("float32", 1 << 22, "normal", rng)
    xg = torch.from_numpy(x).cuda()
    xin = sumlab._arrays.take(xg)
    ptr, n, _, cuda, dev = _sumlab.inspect(xin.obj, xin.hint)
    assert ptr == xg.data_ptr() and n == x.size and cuda and dev == xg.device.index
    sumlab.sum(xg, "superacc")                    # warm: scratch allocated once
    torch.cuda.synchronize()
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        r = sumlab.sum(xg, "superacc")
        torch.cuda.synchronize()
    names = [e.name for e in prof.events()]
    assert not [m for m in names if "DtoH" in m or "Memcpy DtoH" in m], names
    assert float(r.item()).hex() == sumlab.sum(x, "superacc").hex()


@needs_torch
def test_torch_current_stream(rng):
    x = make_inputs("float32", 1 << 20, "cancel", rng)
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        xg = torch.from_numpy(x).to("cuda", non_blocking=False) * 1.0   # produced on s
        r = sumlab.sum(xg, "reproducible")
    s.synchronize()
    assert float(r.item()).hex() == sumlab.sum(x, "reproducible").hex()


@needs_torch
@pytest.mark.parametrize("dtype", DTYPES)
def test_torch_state_on_device(rng, dtype):
    x = make_inputs(dtype, 300_007, "cancel", rng)
    xg = to_torch(x).cuda()
    for v in ("reproducible", "superacc"):
        host = sumlab.State(v, dtype).add(x)
        dev = sumlab.State(v, dtype).add(xg[:100_000]).add(xg[100_000:])
        assert dev.to_bytes() == host.to_bytes()


@needs_torch
def test_torch_bad_inputs(rng):
    xg = torch.ones(64, 64, device="cuda")
    with pytest.raises(ValueError, match="C-contiguous"):
        sumlab.sum(xg.T)
    with pytest.raises(ValueError, match="CPU array"):
        sumlab.exact(xg)
    with pytest.raises(TypeError, match="int"):
        sumlab.sum(torch.ones(8, dtype=torch.int32, device="cuda"))


@needs_cupy
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_cupy_equals_twin(rng, dtype):
    x = make_inputs(dtype, 200_003, "cancel", rng)
    xg = cupy.asarray(x)
    xin = sumlab._arrays.take(xg)
    assert _sumlab.inspect(xin.obj, xin.hint)[0] == xg.data.ptr
    for v in gpu_variants(dtype):
        r = sumlab.sum(xg, v)
        assert isinstance(r, cupy.ndarray) and r.shape == () and r.dtype == xg.dtype
        assert float(r.get()).hex() == sumlab.sum(x, v).hex(), f"{v} {dtype}"
    with cupy.cuda.Stream(non_blocking=True):
        r = sumlab.sum(xg * 1, "superacc")
        assert float(r.get()).hex() == sumlab.sum(x, "superacc").hex()


def test_jax_if_installed(rng):
    jax = pytest.importorskip("jax")
    x = make_inputs("float32", 10_007, "cancel", rng)
    xj = jax.numpy.asarray(x)
    r = sumlab.sum(xj, "superacc")
    want = sumlab.sum(x, "superacc")
    assert float(np.asarray(r) if hasattr(r, "shape") else r).hex() == want.hex()


@needs_torch
@pytest.mark.parametrize("dtype", DTYPES)
def test_torch_hot_path_in_binding(rng, monkeypatch, dtype):
    # a CUDA tensor is served by the binding's one call (checks, torch's current stream, the 0-d
    # result from x.new_empty): the package's Python path is never reached; every call returns a
    # tensor of its own; a tensor that requires grad is read as it is (its storage)
    x = make_inputs(dtype, 4099, "cancel", rng)
    xg = to_torch(x).cuda()

    def python_path(*a):
        raise AssertionError("the Python path was taken")
    monkeypatch.setattr(sumlab, "_reduce_py", python_path)
    want = sumlab.sum(x, "superacc")
    r1, r2 = sumlab.sum(xg, "superacc"), _sumlab.reduce(xg, "sum", "superacc", None)
    for r in (r1, r2):
        assert isinstance(r, torch.Tensor) and r.shape == () and r.dtype == xg.dtype and r.device == xg.device
        assert not r.requires_grad and float(r.item()).hex() == want.hex()
    assert r1.data_ptr() != r2.data_ptr() and r1.data_ptr() != xg.data_ptr()
    if dtype in ("float32", "float64"):
        g = xg.clone().requires_grad_(True)
        assert float(sumlab.sum(g, "superacc").item()).hex() == want.hex()


@needs_torch
@pytest.mark.parametrize("dtype", DTYPES)
def test_torch_plain_tensor_without_dlpack(rng, monkeypatch, dtype):
    # a plain CUDA tensor (type torch.Tensor) is read from its own attributes (data_ptr, numel,
    # get_device), never through DLPack: with torch.Tensor.__dlpack__ made to raise, norm2's and
    # dot's correct and superacc's sum on the whole tensor, on slices that start inside the
    # storage, on a 2-D view with a size-1 axis and on a tensor that requires grad equal the CPU
    # twin's bits, each a fresh 0-d tensor of x's dtype on x's device (x.new_empty); an
    # nn.Parameter (a subclass: read through DLPack, its result from torch.empty) gives the same bits
    n = 8197
    x = make_inputs(dtype, n, "normal", rng)
    y = make_inputs(dtype, n, "cancel", rng)
    xg, yg = to_torch(x).cuda(), to_torch(y).cuda()
    calls = [("norm2", "correct", False), ("dot", "correct", True), ("sum", "superacc", False)]
    shapes = [(slice(None), None), (slice(5, None), None), (slice(3, 3 + 4096), (64, 64, 1))]

    def host(op, variant, two, sl, shape):
        a, b = x[sl], y[sl]
        if shape:
            a, b = a.reshape(shape), b.reshape(shape)
        return sumlab.reduce(a, op, variant, b if two else None).hex()

    want = {(op, k): host(op, v, two, sl, shape) for op, v, two in calls for k, (sl, shape) in enumerate(shapes)}
    param = torch.nn.Parameter(xg.clone())
    assert float(sumlab.reduce(param, "norm2", "correct").item()).hex() == want[("norm2", 0)]

    from torch.utils import dlpack as torch_dlpack   # (an `import torch.x` here would make torch local)
    used = []                                    # every DLPack export tried (nanobind tries both)

    def no_dlpack(*a, **k):
        used.append(a[0] if a else None)
        raise BufferError("DLPack refused by the test")
    monkeypatch.setattr(torch.Tensor, "__dlpack__", no_dlpack)
    monkeypatch.setattr(torch_dlpack, "to_dlpack", no_dlpack)
    for op, v, two in calls:
        for k, (sl, shape) in enumerate(shapes):
            a, b = xg[sl], yg[sl]
            if shape:
                a, b = a.reshape(shape), b.reshape(shape)
            assert type(a) is torch.Tensor and a.is_contiguous()
            r = sumlab.reduce(a, op, v, b if two else None)
            assert isinstance(r, torch.Tensor) and r.shape == () and r.dtype == xg.dtype and r.device == xg.device
            assert not r.requires_grad and float(r.item()).hex() == want[(op, k)], f"{op} {v} {dtype} shape {k}"
    g = xg.clone().requires_grad_(True)
    assert float(sumlab.reduce(g, "norm2", "correct").item()).hex() == want[("norm2", 0)]
    r1, r2 = sumlab.reduce(xg, "norm2", "correct"), sumlab.reduce(xg, "norm2", "correct")
    assert r1.data_ptr() != r2.data_ptr() and float(r1.item()).hex() == float(r2.item()).hex() == want[("norm2", 0)]
    assert not used, f"DLPack export tried {len(used)} times"
