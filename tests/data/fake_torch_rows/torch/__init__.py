"""A NumPy stand-in for PyTorch on the CPU, for tests/trows_batch.sh: the calls
experiments/anchors/batch_torch.py makes on [B, N] tensors of float32 and bfloat16 (bfloat16
values held in float32 arrays, rounded to nearest even). Its row reductions are NumPy's over each
row, rounded to the tensor's format, except torch.sum, which adds each row in 1 + B mod 3 pieces
(as a kernel that splits rows by the batch's size would), so a row's bits change with B;
torch.matmul of [B, N] and [N] is each row's dot with the vector in float64, rounded once."""
import numpy as np

__version__ = "2.5.1+fake-rows"


class dtype:
    def __init__(self, name, size):
        self.name, self.size = name, size


float32, bfloat16 = dtype("float32", 4), dtype("bfloat16", 2)
int16, int32, int64 = dtype("int16", 2), dtype("int32", 4), dtype("int64", 8)


def _round(a, dt):
    """float32 values of a, rounded to bfloat16 (nearest, ties to even) for dt bfloat16."""
    a = np.asarray(a, dtype=np.float32)
    if dt is not bfloat16:
        return a
    u = a.view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) >> 16 << 16
    return u.astype(np.uint32).view(np.float32)


class Tensor:
    def __init__(self, a, dt):
        self.a, self.dtype = _round(a, dt), dt

    def __mul__(self, s):
        return Tensor(self.a * np.float32(s), self.dtype)

    def __sub__(self, s):
        return Tensor(self.a - np.float32(s), self.dtype)

    def to(self, what):
        return Tensor(self.a, what) if isinstance(what, dtype) else self

    def __getitem__(self, k):
        return Tensor(self.a[k], self.dtype)

    def pow(self, p):
        return Tensor(self.a ** p, self.dtype)

    def mean(self, dim):
        return Tensor(self.a.mean(axis=dim, dtype=np.float32), self.dtype)

    def element_size(self):
        return self.dtype.size

    def detach(self):
        return self

    def cpu(self):
        return self

    def view(self, t):
        bits = self.a.view(np.uint32)
        if t is int16:
            return _Bits((bits >> 16).astype(np.uint16).view(np.int16))
        return _Bits(bits.view(np.int32))


class _Bits:
    def __init__(self, a):
        self.a = a

    def item(self):
        return int(self.a)


class device:
    def __init__(self, s):
        self.type = s.split(":")[0]


class Generator:
    def __init__(self, device=None):
        self.rng = None

    def manual_seed(self, s):
        self.rng = np.random.default_rng(s)
        return self


def rand(*size, generator=None):
    return Tensor(generator.rng.random(size, dtype=np.float32), float32)


def matmul(x, w):
    return Tensor(x.a.astype(np.float64) @ w.a.astype(np.float64), x.dtype)


def sum(x, dim=-1):   # noqa: A001 (torch's name)
    k = 1 + x.a.shape[0] % 3
    parts = np.array_split(x.a, k, axis=-1)
    acc = np.zeros(x.a.shape[:-1], np.float32)
    for p in parts:
        acc = acc + p.sum(axis=-1, dtype=np.float32)
    return Tensor(acc, x.dtype)


def var(x, dim=-1):
    return Tensor(np.var(x.a.astype(np.float64), axis=dim, ddof=1), x.dtype)


def logsumexp(x, dim=-1):
    a = x.a.astype(np.float64)
    m = a.max(axis=dim, keepdims=True)
    return Tensor((m + np.log(np.exp(a - m).sum(axis=dim, keepdims=True)))[..., 0], x.dtype)


class linalg:
    @staticmethod
    def vector_norm(x, dim=-1):
        return Tensor(np.sqrt((x.a.astype(np.float64) ** 2).sum(axis=dim)), x.dtype)


class cuda:
    @staticmethod
    def is_available():
        return False

    @staticmethod
    def synchronize():
        pass
