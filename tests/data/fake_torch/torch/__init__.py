"""A stand-in for PyTorch with one CUDA device, for tests/tthroughput_torch.sh on machines without
one: the calls throughput_torch.py makes, each recorded in CALLS; tensors hold a length and a
format, no values. CUDA events time a call as 1 us + 1 ns per element read (the timer's index adds
up to 10 %, so median, least and greatest differ)."""
import builtins

__version__ = "2.5.1+fake"


class dtype:
    def __init__(self, name, size):
        self.name, self.size = name, size


float32, float64, float16, bfloat16 = dtype("f32", 4), dtype("f64", 8), dtype("f16", 2), dtype("bf16", 2)
CALLS = []
_elements = [0]   # elements read by the calls since the last event


class Tensor:
    def __init__(self, n, dt):
        self.n, self.dtype = n, dt

    def __mul__(self, s):
        return Tensor(self.n, self.dtype)

    def to(self, dt):
        return Tensor(self.n, dt)

    def __getitem__(self, sl):
        return Tensor(len(range(self.n)[sl]), self.dtype)


def _call(name, *xs, **kw):
    CALLS.append((name, tuple(x.dtype.name for x in xs), kw))
    _elements[0] += builtins.sum(x.n for x in xs)
    return Tensor(1, xs[0].dtype)


def device(kind, index=None):
    if kind != "cuda" or not isinstance(index, int):
        raise RuntimeError("the fake has one device: cuda with its index")
    return (kind, index)


class Generator:
    def __init__(self, device=None):
        self.seed = None

    def manual_seed(self, s):
        if not 0 <= s < 1 << 64:
            raise RuntimeError("seed out of range")
        self.seed = s
        return self


def randn(n, generator=None, device=None, dtype=float32):
    if generator is None or generator.seed is None:
        raise RuntimeError("randn without a seeded generator")
    return Tensor(n, dtype)


def zeros(n, dtype=float32, device=None):
    return Tensor(n, dtype)


def sum(x):
    if x.n > 1 << 24:   # the L2 flush: not a timed call
        return Tensor(1, x.dtype)
    return _call("torch.sum", x)


def mean(x):
    return _call("torch.mean", x)


def var(x, correction=1):
    return _call("torch.var", x, correction=correction)


def std(x, correction=1):
    return _call("torch.std", x, correction=correction)


def amax(x):
    return _call("torch.amax", x)


def amin(x):
    return _call("torch.amin", x)


def logsumexp(x, dim=None):
    return _call("torch.logsumexp", x, dim=dim)


def dot(x, y):
    return _call("torch.dot", x, y)


class linalg:
    @staticmethod
    def vector_norm(x):
        return _call("torch.linalg.vector_norm", x)


class _Props:
    L2_cache_size = 50 << 20


class cuda:
    _index = [0]

    @staticmethod
    def is_available():
        return True

    @staticmethod
    def current_device():
        return 0

    @staticmethod
    def device_count():
        return 1

    @staticmethod
    def set_device(d):
        if not isinstance(d, tuple) or d[1] is None:   # as torch: a device with its index
            raise ValueError("Expected a torch.device with a specified index or an integer")

    @staticmethod
    def get_device_properties(d):
        return _Props()

    @staticmethod
    def get_device_name(d):
        return "fake device"

    @staticmethod
    def _sleep(cycles):
        pass

    @staticmethod
    def synchronize():
        pass

    @staticmethod
    def empty_cache():
        pass

    class Event:
        def __init__(self, enable_timing=False):
            self.at = None

        def record(self):
            self.at = _elements[0]

        def elapsed_time(self, end):
            cuda._index[0] += 1
            return (1e-3 + (end.at - self.at) * 1e-6) * (1 + (cuda._index[0] % 10) / 100)
