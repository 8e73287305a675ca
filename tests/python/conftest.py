"""conftest.py: shared pieces of the Python package's tests: the seed (SUMLAB_SEED, printed on
failure), the `sumlab` command (SUMLAB_CLI, which ctest sets), the four dtypes and inputs."""
import os
import pathlib
import subprocess
import zlib

import numpy as np
import pytest

import sumlab

# JAX reserves 75 % of a GPU's memory when it first touches the device; the GPU tests run beside
# other GPU processes (tests/gpu_session.sh), which then fail to allocate on an 80 GB card.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

SEED = int(os.environ.get("SUMLAB_SEED") or os.environ.get("SUMLAB_TEST_SEED") or "20261129")
ROOT = pathlib.Path(__file__).resolve().parents[2]


def pytest_report_header(config):
    return [f"sumlab {sumlab.__version__} from {pathlib.Path(sumlab.__file__).parent}, seed {SEED} (SUMLAB_SEED)"]


def np_dtype(name):
    if name == "bfloat16":
        import ml_dtypes
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


DTYPES = ["float32", "float64", "float16", "bfloat16"]


def make_inputs(dtype, n, kind, rng):
    """Values exactly representable in dtype: 'normal' (well conditioned), 'cancel' (large values
    and their near-negatives: ill-conditioned), 'spread' (wide exponent range with subnormals)."""
    dt = np_dtype(dtype)
    if kind == "normal":
        v = rng.standard_normal(n)
    elif kind == "cancel":
        big = rng.standard_normal(n // 2) * 1e3
        v = np.concatenate([big, -big * (1 + rng.standard_normal(n // 2) * 1e-3), rng.standard_normal(n - 2 * (n // 2))])
        rng.shuffle(v)
    elif kind == "spread":
        lo, hi = {"float32": (-140, 100), "float64": (-1060, 900), "float16": (-20, 12), "bfloat16": (-130, 100)}[dtype]
        v = rng.choice([-1.0, 1.0], n) * np.exp2(rng.uniform(lo, hi, n))
    else:
        raise ValueError(kind)
    x = v.astype(np.float32).astype(dt) if dtype == "bfloat16" else v.astype(dt)
    x[~np.isfinite(x.astype(np.float64))] = 0
    return aligned(x)


def bits(v):
    """v's float64 bit patterns (a float, a 0-d or an N-d array), to compare results bit for bit."""
    return np.float64(v).view(np.uint64)


def aligned(x, align=256):
    """A copy of x whose buffer starts at a multiple of align bytes, as the CLI's buffers do: a
    twin reproduces the kernel for the input's address modulo 256 (sumlab.h), so equal bits with
    the CLI's row need equal alignment."""
    raw = np.empty(x.nbytes + align, np.uint8)
    off = (-raw.__array_interface__["data"][0]) % align
    out = raw[off:off + x.nbytes].view(x.dtype).reshape(x.shape)
    out[...] = x
    return out


@pytest.fixture
def rng(request):
    # one stream per test, reproducible from the seed and the test's name
    return np.random.default_rng([SEED, zlib.crc32(request.node.nodeid.encode())])


@pytest.fixture(scope="session")
def cli():
    """The `sumlab` command: SUMLAB_CLI (ctest passes the built one), else build*/experiments/sumlab."""
    path = os.environ.get("SUMLAB_CLI")
    if not path:
        found = sorted(ROOT.glob("build*/experiments/sumlab"))
        path = str(found[0]) if found else None
    if not path or not os.access(path, os.X_OK):
        pytest.fail("the sumlab command is needed: set SUMLAB_CLI (ctest does) or build it")

    def run(*args):
        env = dict(os.environ, SUMLAB_NO_GPU="1")
        p = subprocess.run([path, *args], capture_output=True, text=True, env=env)
        if p.returncode != 0:
            raise AssertionError(f"sumlab {' '.join(args)}: exit {p.returncode}: {p.stderr}")
        return p.stdout
    return run
