/* sl_exact_text.c: the exact sum S written out exactly (sl_reference.h): every bit of S as a
 * C99 hex float, and a decimal with just enough digits to identify S among the numbers of its
 * precision; an operation's value that is no binary number, as its rounding to the bits its
 * reference's error bound leaves. Implementation assumptions: those of sl_reference.c (MPFR, GMP integers). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_reference.h"

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

void sl_exact_text_free(sl_exact_text *t)
{
    if (!t) return;
    free(t->hex);
    free(t->dec);
    t->hex = t->dec = NULL;
}

/* "[-]0x1.HHH...p+E" from S = m 2^e (m an odd positive integer of b bits). */
static char *hex_of(int neg, const mpz_t m, long e, long b)
{
    /* S = 1.f * 2^(e + b - 1); f = the b - 1 bits below the leading one, padded to whole
     * hex digits on the right */
    long fbits = b - 1, pad = (4 - fbits % 4) % 4, nd = (fbits + pad) / 4;
    mpz_t f;
    mpz_init(f);
    mpz_set(f, m);
    mpz_clrbit(f, (mp_bitcnt_t)fbits);
    mpz_mul_2exp(f, f, (mp_bitcnt_t)pad);
    char *digits = malloc((size_t)nd + 2);
    char *out = malloc((size_t)nd + 48);
    if (!digits || !out) {
        free(digits);
        free(out);
        mpz_clear(f);
        return NULL;
    }
    if (nd) {
        mpz_get_str(digits, 16, f);
        size_t have = strlen(digits);   /* leading zeros are not written by GMP */
        memmove(digits + (nd - (long)have), digits, have + 1);
        memset(digits, '0', (size_t)(nd - (long)have));
    } else {
        digits[0] = '\0';
    }
    long ex = e + b - 1;
    snprintf(out, (size_t)nd + 48, "%s0x1%s%sp%+ld", neg ? "-" : "", nd ? "." : "", digits, ex);
    free(digits);
    mpz_clear(f);
    return out;
}

/* "[-]D.DDDe+X" with exactly 1 + ceil(b log10 2) significant digits (MPFR's n = 0 rule). */
static char *dec_of(const mpfr_t sum, long b, long *ndigits)
{
    mpfr_t t;
    mpfr_init2(t, (mpfr_prec_t)(b < MPFR_PREC_MIN ? MPFR_PREC_MIN : b));
    int tern = mpfr_set(t, sum, MPFR_RNDN);
    if (tern) {
        fprintf(stderr, "sl_exact_text: S did not fit its own %ld bits (bug)\n", b);
        abort();
    }
    mpfr_exp_t e10;
    char *s = mpfr_get_str(NULL, &e10, 10, 0, t, MPFR_RNDN);
    mpfr_clear(t);
    if (!s) return NULL;
    const char *d = s[0] == '-' ? s + 1 : s;
    size_t nd = strlen(d);
    char *out = malloc(nd + 48);
    if (out)
        snprintf(out, nd + 48, "%s%c%s%se%+ld", s[0] == '-' ? "-" : "", d[0], nd > 1 ? "." : "",
                 d + 1, (long)e10 - 1);
    *ndigits = (long)nd;
    mpfr_free_str(s);
    return out;
}

int sl_reference_exact_text(const sl_reference *ref, sl_exact_text *out)
{
    memset(out, 0, sizeof *out);
    const char *special = NULL;
    if (mpfr_nan_p(ref->sum)) special = "nan";
    else if (mpfr_inf_p(ref->sum)) special = mpfr_sgn(ref->sum) > 0 ? "inf" : "-inf";
    else if (mpfr_zero_p(ref->sum)) special = mpfr_signbit(ref->sum) ? "-0x0p+0" : "0x0p+0";
    if (special) {
        out->hex = dup_str(special);
        out->dec = dup_str(mpfr_zero_p(ref->sum) ? (mpfr_signbit(ref->sum) ? "-0" : "0") : special);
        if (!out->hex || !out->dec) { sl_exact_text_free(out); return -1; }
        return 0;
    }
    /* the value itself, or (no binary number) its rounding to the bits the error leaves */
    mpfr_t v;
    mpfr_srcptr src = ref->sum;
    if (ref->sum_relerr > 0.0) {
        /* sum as it is when the error leaves all of its bits (a value correctly rounded to its
         * own precision p: relerr 2^-p), else rounded to g bits (relative error at most 2^-g) */
        const double re = ref->sum_relerr;
        const mpfr_prec_t p = mpfr_get_prec(ref->sum);
        const mpfr_prec_t q = re < 0x1p-4 ? (mpfr_prec_t)floor(-log2(re)) : 3;
        const mpfr_prec_t g = p <= q ? p : q - 1;
        mpfr_init2(v, g);
        mpfr_set(v, ref->sum, MPFR_RNDN);
        src = v;
        const double all = re + (p <= q ? 0.0 : ldexp(1.0, -(int)g));
        out->approx = 1;
        out->rel_exp = isfinite(all) ? (long)floor(-log2(all)) : LONG_MIN;
    }
    mpz_t m;
    mpz_init(m);
    mpfr_exp_t e = mpfr_get_z_2exp(m, src);       /* S = m 2^e exactly */
    int neg = mpz_sgn(m) < 0;
    mpz_abs(m, m);
    mp_bitcnt_t tz = mpz_scan1(m, 0);               /* make m odd */
    mpz_fdiv_q_2exp(m, m, tz);
    long ex = (long)e + (long)tz;
    long b = (long)mpz_sizeinbase(m, 2);
    out->bits = b;
    out->hex = hex_of(neg, m, ex, b);
    out->dec = dec_of(src, b, &out->digits);
    mpz_clear(m);
    if (src != ref->sum) mpfr_clear(v);
    if (!out->hex || !out->dec) { sl_exact_text_free(out); return -1; }
    return 0;
}
