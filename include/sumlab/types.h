/* sumlab/types.h: the few types every sumlab library speaks: element dtype and error text.
 * Header-only; the ground floor every layer includes (public C API). */
#ifndef SL_TYPES_H
#define SL_TYPES_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element type of an input array. Results of a float32 (or float16/bfloat16) sum are carried as
 * a double that holds the value exactly (every such value is a double), so one result type
 * serves every format. SL_F16: IEEE binary16 (11-bit significand, max 65504); SL_BF16:
 * bfloat16 (8-bit significand, float32's exponent range). Both travel as their 16-bit patterns
 * (uint16_t); sumlab/half.h converts them. */
typedef enum { SL_F32 = 0, SL_F64 = 1, SL_F16 = 2, SL_BF16 = 3 } sl_dtype;
#define SL_NDTYPES 4

#define SL_DTYPE_MASK(dt) (1u << (unsigned)(dt))
#define SL_DTYPES_BOTH (SL_DTYPE_MASK(SL_F32) | SL_DTYPE_MASK(SL_F64))
#define SL_DTYPES_HALF (SL_DTYPE_MASK(SL_F16) | SL_DTYPE_MASK(SL_BF16))
#define SL_DTYPES_ALL (SL_DTYPES_BOTH | SL_DTYPES_HALF)

static inline int sl_dtype_valid(sl_dtype dt) { return (unsigned)dt < SL_NDTYPES; }
static inline int sl_dtype_is_half(sl_dtype dt) { return dt == SL_F16 || dt == SL_BF16; }
static inline size_t sl_dtype_size(sl_dtype dt)
{
    return dt == SL_F64 ? 8u : sl_dtype_is_half(dt) ? 2u : 4u;
}
static inline const char *sl_dtype_name(sl_dtype dt)
{
    return dt == SL_F64 ? "f64" : dt == SL_F16 ? "f16" : dt == SL_BF16 ? "bf16" : "f32";
}
/* The format a variant accumulates in by default: float32 for the 16-bit formats (every
 * float16/bfloat16 value converts to float32 exactly), the input format otherwise. */
static inline sl_dtype sl_dtype_acc(sl_dtype dt) { return sl_dtype_is_half(dt) ? SL_F32 : dt; }
/* Accepts f32|float32|float, f64|float64|double, f16|float16|half, bf16|bfloat16.
 * Returns 0 on success, -1 otherwise. */
static inline int sl_dtype_parse(const char *s, sl_dtype *out)
{
    if (!s) return -1;
    if (!strcmp(s, "f32") || !strcmp(s, "float32") || !strcmp(s, "float")) { *out = SL_F32; return 0; }
    if (!strcmp(s, "f64") || !strcmp(s, "float64") || !strcmp(s, "double")) { *out = SL_F64; return 0; }
    if (!strcmp(s, "f16") || !strcmp(s, "float16") || !strcmp(s, "half")) { *out = SL_F16; return 0; }
    if (!strcmp(s, "bf16") || !strcmp(s, "bfloat16")) { *out = SL_BF16; return 0; }
    return -1;
}

/* Error text filled by library functions that fail (they return non-zero and never exit). */
#define SL_ERRLEN 2048
typedef struct { char msg[SL_ERRLEN]; } sl_err;

/* printf into buf[len]; a text that does not fit is cut and ends in "..." (never cut
 * silently). Returns 0, or -1 when it was cut. */
static inline int sl_vfit(char *buf, size_t len, const char *fmt, va_list ap)
{
    if (!len) return -1;
    int w = vsnprintf(buf, len, fmt, ap);
    if (w < 0) { snprintf(buf, len, "(unprintable message)"); return -1; }
    if ((size_t)w < len) return 0;
    if (len > 4) memcpy(buf + len - 4, "...", 4);
    return -1;
}

/* Fills err (when not NULL) printf-style and returns -1, for `return sl_err_set(err, ...);`;
 * sl_err_vset is the va_list form for other variadic error helpers. A message longer than
 * SL_ERRLEN ends in "...". */
static inline int sl_err_vset(sl_err *err, const char *fmt, va_list ap)
{
    if (err) sl_vfit(err->msg, sizeof err->msg, fmt, ap);
    return -1;
}
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static inline int sl_err_set(sl_err *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sl_err_vset(err, fmt, ap);
    va_end(ap);
    return -1;
}

#ifdef __cplusplus
}
#endif
#endif
