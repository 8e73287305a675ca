#!/usr/bin/env python3
# make_npy_fixtures.py: writes the .npy/.npz fixtures of tests/tio.c with real NumPy (np.save,
# np.savez, np.savez_compressed). Run from anywhere: python3 tests/data/make_npy_fixtures.py
#
# Every value is exact in its dtype, so tests/tio.c recomputes each one bit for bit from the
# same closed form, value(seed, i) below, where i is the element's C-order (logical) index in
# the array; tio.c checks them in the file's memory order (column-major for Fortran order).
# Element 0 is -0.0 and element 1 the smallest subnormal, so sign and denormal bits are checked.
# The table FIXTURES must match tio.c's `fixtures` table (name, dtype, order, shape, seed).
import io
import math
import os
import sys

import numpy as np

M = (1 << 64) - 1


def mix(x):
    """SplitMix64's finalizer (tio.c: fx_mix)."""
    x = (x + 0x9E3779B97F4A7C15) & M
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M
    return x ^ (x >> 31)


def value(seed, i, f64):
    if i == 0:
        return -0.0
    if i == 1:
        return math.ldexp(1.0, -1074 if f64 else -149)
    h = mix((seed * 1000003 + i) & M)
    e = (h & 63) - 32
    s = -1.0 if (h >> 6) & 1 else 1.0
    if f64:
        return s * math.ldexp(float((h >> 11) | 1), e - 52)
    return s * math.ldexp(float((h >> 40) | 1), e - 23)


def array(seed, dtype, shape, fortran):
    dt = np.dtype(dtype)
    f64 = dt.itemsize == 8
    n = int(np.prod(shape, dtype=np.int64))
    flat = np.array([value(seed, i, f64) for i in range(n)], dtype=np.float64)
    a = flat.astype(dt.newbyteorder("=")).reshape(shape).astype(dt)  # logical C order
    # np.array, not np.ascontiguousarray / np.asfortranarray: those make 0-d arrays 1-D
    out = np.array(a, order="F" if fortran else "C")
    assert out.shape == tuple(shape)
    return out


# name, dtype, fortran order, shape, seed, .npy version (None: np.save's choice)
FIXTURES = [
    ("np_c3d_f4.npy", "<f4", False, (4, 5, 6), 1, None),
    ("np_c1d_f8.npy", "<f8", False, (10,), 2, None),
    ("np_f3d_f8.npy", "<f8", True, (3, 4, 5), 3, None),
    ("np_f2d_f4.npy", "<f4", True, (7, 3), 4, None),
    ("np_be1d_f4.npy", ">f4", False, (17,), 5, None),
    ("np_be2d_f8.npy", ">f8", False, (3, 5), 6, None),
    ("np_bef2d_f8.npy", ">f8", True, (4, 3), 7, None),
    ("np_0d_f8.npy", "<f8", False, (), 8, None),
    ("np_0d_be_f4.npy", ">f4", False, (), 9, None),
    ("np_empty2d_f4.npy", "<f4", False, (0, 5), 10, None),
    # a zero-size array is C-contiguous too, so np.save writes it fortran_order False
    ("np_empty3d_f8.npy", "<f8", True, (3, 0, 2), 11, None),
    ("np_v2_2d_f4.npy", "<f4", False, (2, 3), 12, (2, 0)),
    ("np_v3_be_f8.npy", ">f8", False, (5,), 13, (3, 0)),
    ("np_10d_f4.npy", "<f4", False, (1, 2, 1, 1, 2, 1, 1, 1, 1, 3), 14, None),
]

# members of the .npz fixtures: key, dtype, fortran, shape, seed
MEMBERS = [
    ("c3d", "<f4", False, (2, 3, 4), 21),
    ("vec", "<f8", False, (9,), 22),
    ("scalar", ">f8", False, (), 23),
    ("fort", "<f4", True, (3, 2), 24),
    ("be", ">f4", False, (6,), 25),
    ("empty", "<f8", False, (0,), 26),
]


class Unseekable:
    """A write-only stream: zipfile then writes data descriptors (flag bit 3)."""

    def __init__(self):
        self.buf = io.BytesIO()

    def write(self, b):
        return self.buf.write(b)

    def flush(self):
        pass

    def read(self, *args):  # np.savez takes objects with read() as files, not names
        raise io.UnsupportedOperation("write-only")


def main():
    out = os.path.dirname(os.path.abspath(__file__))
    for name, dtype, fortran, shape, seed, version in FIXTURES:
        a = array(seed, dtype, shape, fortran)
        with open(os.path.join(out, name), "wb") as f:
            if version is None:
                np.save(f, a)
            else:
                np.lib.format.write_array(f, a, version=version)
        with open(os.path.join(out, name), "rb") as f:
            f.seek(10 if (version or (1, 0))[0] == 1 else 12)
            hdr = f.readline().decode("latin1")
        assert ("'fortran_order': True" in hdr) == (fortran and a.size > 0), hdr
        back = np.load(os.path.join(out, name))
        assert back.dtype == a.dtype and back.shape == a.shape and np.array_equal(back, a, equal_nan=True)
    arrays = {k: array(s, d, sh, fo) for k, d, fo, sh, s in MEMBERS}
    np.savez(os.path.join(out, "np_savez.npz"), **arrays)
    np.savez_compressed(os.path.join(out, "np_savez_compressed.npz"), **arrays)
    np.savez(os.path.join(out, "np_single.npz"), array(31, "<f8", (4, 2), False))  # key arr_0
    np.savez_compressed(os.path.join(out, "np_single_compressed.npz"), only=array(32, ">f4", (5,), False))
    u = Unseekable()
    np.savez_compressed(u, c3d=arrays["c3d"], vec=arrays["vec"])
    with open(os.path.join(out, "np_stream_compressed.npz"), "wb") as f:
        f.write(u.buf.getvalue())
    for fn in ("np_savez.npz", "np_savez_compressed.npz", "np_stream_compressed.npz"):
        with np.load(os.path.join(out, fn)) as z:
            for k in z.files:
                assert np.array_equal(z[k], arrays[k])
    print("wrote fixtures to", out, "with numpy", np.__version__, file=sys.stderr)


if __name__ == "__main__":
    main()
