/* sl_exact_impl.h: internals of the superaccumulator shared by reference/ files and the
 * reference tests (not part of the public API; others code against sl_reference.h only).
 *
 * Implementation assumptions: IEEE 754 binary32/binary64 with the same byte order as the
 * 32/64-bit integers; round to nearest even as the current rounding mode; two's-complement
 * integers with arithmetic right shift of negative values; 64-bit long long.
 *
 * Representation. Every float32/float64 value is an integer multiple of 2^-1074 (the
 * smallest binary64 subnormal), so a sum is an integer M in units of 2^-1074 ("units").
 *  - bins: values are first added, without any shift, into per-(sign, exponent) bins of
 *    unsigned 64-bit integers (xsum's "large accumulator" idea): f32 bins hold 24-bit
 *    significands (2^40 adds before overflow), f64 bins hold the significand split into a
 *    27-bit high and a 26-bit low part (2^37 adds before overflow). Bins are flushed into
 *    the chunks every SL_EXACT_FLUSH_F32 / SL_EXACT_FLUSH_F64 elements, far below those limits.
 *  - chunks: a fixed-point integer in SL_EXACT_NCHUNK signed 64-bit limbs, limb i weighing
 *    2^(32 i) units; normalised (carry-propagated) limbs 0..NCHUNK-2 are in [0, 2^32) and
 *    the top limb carries the sign. 68 limbs cover |M| < 2^2175 units, i.e. |sum| < 2^1101,
 *    which n * 2^1024 cannot reach for n < 2^77: the sum is exact for every uint64_t n that
 *    fits in memory (the header's "n < 2^40" is a conservative promise).
 *  - specials: counts of NaN, +Inf and -Inf inputs; an OR of (bits XOR sign bit) over all
 *    inputs, zero exactly when every input is -0. */
#ifndef SL_EXACT_IMPL_H
#define SL_EXACT_IMPL_H
#include "sl_reference.h"

#define SL_EXACT_NCHUNK 68
#define SL_EXACT_F64_BINS 4096      /* index = top 12 bits of the binary64: sign, exponent */
#define SL_EXACT_F32_BINS 512       /* index = top 9 bits of the binary32 */
#define SL_EXACT_FLUSH_F64 (1ull << 36)
#define SL_EXACT_FLUSH_F32 (1ull << 39)

struct sl_exact {
    uint64_t bin64[2 * SL_EXACT_F64_BINS]; /* [2i] = sum of high 27 bits, [2i+1] = low 26 bits */
    uint64_t bin32[SL_EXACT_F32_BINS];
    int64_t chunk[SL_EXACT_NCHUNK];        /* flushed part of the signed sum */
    int64_t achunk[SL_EXACT_NCHUNK];       /* flushed part of sum |x_i| */
    uint64_t since64, since32;             /* elements added to the bins since the last flush */
    uint64_t flush64, flush32;             /* flush intervals (tests lower them) */
    uint64_t n;                            /* elements added in all */
    uint64_t nan, pinf, ninf;              /* special-value counts */
    uint64_t notnegzero;                   /* 0 iff every input so far was -0 */
    int used64, used32;                    /* bins of that kind may be non-zero */
    unsigned paths;                        /* SL_EXACT_NO_* bits: paths turned off (tests) */
};

/* Test hooks (acc->paths, kept by sl_exact_reset): turn off the window paths (float32 and
 * float64; the bins fast path runs), their AVX2 versions (the portable ones run instead) or
 * the whole fast path (the bins path runs).
 * The state after any block is the same whichever path runs. */
#define SL_EXACT_NO_WINDOW 1u
#define SL_EXACT_NO_AVX2 2u
#define SL_EXACT_NO_FAST 4u
/* the float64 integer bins' AVX2 loop with the L1 prefetch (chosen on Intel CPUs) on any CPU */
#define SL_EXACT_L1_PREFETCH 8u

/* A finished sum: magnitude in 32-bit words (units of 2^-1074, least significant first). */
typedef struct {
    uint32_t mag[SL_EXACT_NCHUNK];
    int neg;                               /* sign of a non-zero M */
    int top;                               /* index of the highest set bit of M, -1 when M = 0 */
} sl_exact_fixed;

/* The value (absolute = 0: sum x_i; 1: sum |x_i|) as a finished fixed-point integer;
 * ignores special values (the caller checks acc->nan etc.). */
void sl_exact_fixed_get(const sl_exact *acc, int absolute, sl_exact_fixed *f);
/* Correct rounding of the fixed-point value (finite, sign from f->neg; zero -> +0). */
double sl_exact_fixed_round(const sl_exact_fixed *f, sl_dtype to);
/* Exact value into out (precision raised as needed); aborts if MPFR reports inexact. */
void sl_exact_fixed_to_mpfr(const sl_exact_fixed *f, mpfr_t out);
/* Test hook: flush the bins every `every` elements (>= 1) instead of the defaults. */
void sl_exact_set_flush_interval(sl_exact *acc, uint64_t every);

/* Hard failure of an exactness invariant: an internal bug, never an input error. */
#define SL_EXACT_REQUIRE(cond, what)                                                         \
    do {                                                                                     \
        if (!(cond)) sl_exact_fatal(__FILE__, __LINE__, what);                              \
    } while (0)
void sl_exact_fatal(const char *file, int line, const char *what);

/* The norm's exact sum of squares (sl_moments.c, for sl_norm.c): ref filled as the sum's
 * reference, s2 = sum x^2 exact (NaN left when an input is NaN or Inf), flags for those inputs. */
#define SL_NORM_IN_NAN 1u
#define SL_NORM_IN_INF 2u
int sl_reference_sumsq(sl_reference *ref, const void *x, uint64_t n, sl_dtype dt, unsigned threads,
                       mpfr_t s2, unsigned *flags, sl_err *err);
#endif
