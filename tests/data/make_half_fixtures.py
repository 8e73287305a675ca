#!/usr/bin/env python3
# make_half_fixtures.py: writes the float16/bfloat16 fixtures of tests/thalf.c with real NumPy
# (np.save of float16, '<f2' and '>f2') and ml_dtypes (np.save of ml_dtypes.bfloat16, '<V2').
# Run from anywhere: python3 tests/data/make_half_fixtures.py (needs numpy and ml_dtypes).
#
# np_half_src.npy holds N float32-exact float64 sources (random magnitudes over each format's
# whole range and beyond, exact midpoints between neighbours, and those midpoints one float32
# step away); np_f16.npy / np_f16_be.npy are np.float16 conversions of the sources, np_bf16.npy
# the ml_dtypes.bfloat16 conversion: thalf.c checks its own conversions against them bit for bit.
import os

import ml_dtypes
import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20261129)
np.seterr(over="ignore")  # sources beyond float32 or the format are meant: they become Inf


def sources(dtype, emin, emax):
    n = 512
    mag = np.ldexp(rng.uniform(1.0, 2.0, n), rng.integers(emin, emax + 1, n))
    x = mag.astype(np.float32).astype(np.float64)
    bits = rng.integers(0, 0x7C00 if dtype == np.float16 else 0x7F80, 512).astype(np.uint16)
    lo = bits.view(dtype).astype(np.float64)
    hi = (bits + 1).view(dtype).astype(np.float64)
    mid = (lo + hi) / 2  # exact in float32 (one bit more than the format)
    mid = mid[np.isfinite(mid)]
    f32 = mid.astype(np.float32)
    up = np.nextafter(f32, np.float32(np.inf)).astype(np.float64)
    down = np.nextafter(f32, np.float32(0)).astype(np.float64)
    out = np.concatenate([x, mid, up, down])
    sign = np.where(rng.random(out.size) < 0.5, -1.0, 1.0)
    return out * sign


src = np.concatenate([sources(np.float16, -27, 17), sources(ml_dtypes.bfloat16, -136, 128)])
assert np.all(src.astype(np.float32).astype(np.float64) == src)
with np.errstate(over="ignore"):
    np.save(os.path.join(here, "np_half_src.npy"), src)
    np.save(os.path.join(here, "np_f16.npy"), src.astype(np.float16))
    np.save(os.path.join(here, "np_f16_be.npy"), src.astype(">f2"))
    # via float32 (exact): ml_dtypes rounds float32 -> bfloat16 once, to nearest even
    np.save(os.path.join(here, "np_bf16.npy"), src.astype(np.float32).astype(ml_dtypes.bfloat16))
# two small seeds of the .npy fuzz corpus (tests/fuzz/corpus/npy/): largest, subnormal, Inf
corpus = os.path.join(here, "..", "fuzz", "corpus", "npy")
np.save(os.path.join(corpus, "np_small_f16.npy"), np.array([0.5, -2, 65504, 6e-8], dtype=np.float16))
np.save(os.path.join(corpus, "np_small_bf16.npy"),
        np.array([0.5, -2, 3e38, 1e-40], dtype=np.float32).astype(ml_dtypes.bfloat16))
print("wrote", src.size, "values per fixture into", here, "and two fuzz seeds into", corpus)
