/* sl_lse.c: the exact reference of `lse`, log(sum exp(x_i)) correctly rounded to the input format
 * (method, fields and costs: sl_lse.h). Shares no code with kernels/.
 * Implementation assumptions: sl_reference.h's, and glibc's exp within 2 ulps on doubles (it is
 * documented below 1 ulp) for the fast path; the MPFR path assumes nothing of libm. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include "sl_lse.h"
#include "sumlab/half.h"
#include "sumlab/pool.h"

static double load(const void *x, sl_dtype dt, uint64_t i)
{
    if (dt == SL_F64) return ((const double *)x)[i];
    if (dt == SL_F32) return ((const float *)x)[i];
    return sl_half_to_double(((const uint16_t *)x)[i], dt);
}

static double round_to(mpfr_srcptr v, sl_dtype dt)
{
    if (dt == SL_F64) return mpfr_get_d(v, MPFR_RNDN);
    if (dt == SL_F32) return (double)mpfr_get_flt(v, MPFR_RNDN);
    return sl_round_mpfr_half(v, dt);
}

static int prec_of(sl_dtype dt) { return dt == SL_F64 ? 53 : dt == SL_F32 ? 24 : dt == SL_F16 ? 11 : 8; }

/* cert = lse rounded to nearest at the largest precision q <= prec(a) at which a and b round
 * alike (a <= lse <= b and the rounding is monotone, so that value is lse correctly rounded to q
 * bits: every bit of it is certain). 0, or -1 when no precision does (cert unchanged). */
static int certify(mpfr_ptr cert, mpfr_srcptr a, mpfr_srcptr b)
{
    mpfr_prec_t q = mpfr_get_prec(a);
    mpfr_t ra, rb;
    mpfr_inits2(q, ra, rb, (mpfr_ptr)0);
    /* no q with ulp_q = 2^(E - q) <= (b - a) / 2 can agree (a midpoint of q bits lies in
     * [a, b]; E the larger exponent of the two): start just above that */
    mpfr_sub(ra, b, a, MPFR_RNDU);
    if (mpfr_regular_p(ra) && mpfr_regular_p(a) && mpfr_regular_p(b)) {
        const mpfr_exp_t E = mpfr_get_exp(a) > mpfr_get_exp(b) ? mpfr_get_exp(a) : mpfr_get_exp(b);
        const mpfr_exp_t top = E - mpfr_get_exp(ra) + 3;
        if (top < (mpfr_exp_t)q) q = top < MPFR_PREC_MIN ? MPFR_PREC_MIN : (mpfr_prec_t)top;
    }
    for (; q >= MPFR_PREC_MIN; q--) {   /* from the top: the agreement is not monotone in q */
        mpfr_set_prec(ra, q);
        mpfr_set_prec(rb, q);
        mpfr_set(ra, a, MPFR_RNDN);
        mpfr_set(rb, b, MPFR_RNDN);
        if (mpfr_equal_p(ra, rb)) break;
    }
    const int ok = q >= MPFR_PREC_MIN;
    if (ok) {
        mpfr_set_prec(cert, q);
        mpfr_set(cert, ra, MPFR_RNDN);
    }
    mpfr_clears(ra, rb, (mpfr_ptr)0);
    return ok ? 0 : -1;
}

/* Given S in [S0 - E, S0 + E] (S0 = hi + lo, or the mpfr s0), is M + log(S) rounded alike at both
 * ends? Sets *r, mid (M + log S0), cert (certify's: lse at the precision the interval settles)
 * and *relerr (|cert - lse| <= *relerr |cert|: 2^-q for cert rounded to q bits; mid: the farther
 * end's distance) when it is. */
static int settle(mpfr_srcptr s0, mpfr_srcptr e, double M, sl_dtype dt, mpfr_prec_t w, double *r,
                  mpfr_ptr mid, mpfr_ptr cert, double *relerr)
{
    mpfr_t a, b;
    mpfr_inits2(w + 64, a, b, (mpfr_ptr)0);
    mpfr_sub(a, s0, e, MPFR_RNDD);
    mpfr_add(b, s0, e, MPFR_RNDU);
    int ok = mpfr_sgn(a) > 0;
    if (ok) {
        mpfr_log(a, a, MPFR_RNDD);
        mpfr_log(b, b, MPFR_RNDU);
        mpfr_add_d(a, a, M, MPFR_RNDD);
        mpfr_add_d(b, b, M, MPFR_RNDU);
        const double ra = round_to(a, dt), rb = round_to(b, dt);
        ok = ra == rb && !(ra == 0.0 && signbit(ra) != signbit(rb));
        if (ok) {
            *r = ra;
            mpfr_set_prec(mid, w + 64);
            mpfr_log(mid, s0, MPFR_RNDN);
            mpfr_add_d(mid, mid, M, MPFR_RNDN);
            if (certify(cert, a, b)) {   /* (none: mid itself) */
                mpfr_set_prec(cert, w + 64);
                mpfr_set(cert, mid, MPFR_RNDN);
                mpfr_sub(a, mid, a, MPFR_RNDU);      /* the wider side of [a, b] around mid */
                mpfr_sub(b, b, mid, MPFR_RNDU);
                if (mpfr_cmp(a, b) > 0) mpfr_set(b, a, MPFR_RNDU);
                mpfr_abs(a, mid, MPFR_RNDN);
                mpfr_div(b, b, a, MPFR_RNDU);
                *relerr = mpfr_get_d(b, MPFR_RNDU);
            } else {
                *relerr = ldexp(1.0, -(int)mpfr_get_prec(cert));
            }
        }
    }
    mpfr_clears(a, b, (mpfr_ptr)0);
    return ok;
}

/* The fast paths' sums run over fixed chunks of LSE_CHUNK values, each chunk's partial sums in
 * its own slot (on up to `threads` threads), merged in chunk order: the same bits for every
 * thread count, and for n <= LSE_CHUNK the one chunk's sums as they are. */
#define LSE_CHUNK ((uint64_t)1 << 16)

typedef struct {
    int nan, pinf;                 /* the scan: a NaN, a +Inf; the values other than -Inf, */
    uint64_t k;                    /* their maximum and largest magnitude */
    double M, maxabs;
    double sh, sl, A, D;           /* the double pass: S's hi and lo, sum |x_i| t_i, max |x_i - M| */
    long double lh, ll, aw;        /* the extended pass: S's hi and lo, sum |x_i - M| t_i */
} lse_part;

enum { LSE_SCAN, LSE_DOUBLE, LSE_EXTENDED };

typedef struct {
    const void *x;
    uint64_t n;
    sl_dtype dt;
    double M;
    int pass;                      /* LSE_* */
    lse_part *part;
} lse_job;

static void lse_chunk(void *ctx, size_t c)
{
    const lse_job *j = ctx;
    lse_part *q = &j->part[c];
    const uint64_t lo = (uint64_t)c * LSE_CHUNK, hi = j->n - lo > LSE_CHUNK ? lo + LSE_CHUNK : j->n;
    const double M = j->M;
    if (j->pass == LSE_SCAN) {
        int nan = 0, pinf = 0;
        uint64_t k = 0;
        double m = -INFINITY, maxabs = 0.0;
        for (uint64_t i = lo; i < hi; i++) {
            const double v = load(j->x, j->dt, i);
            if (isnan(v)) nan = 1;
            else if (v == INFINITY) pinf = 1;
            else if (v != -INFINITY) {
                k++;
                if (v > m) m = v;
                if (fabs(v) > maxabs) maxabs = fabs(v);
            }
        }
        q->nan = nan, q->pinf = pinf, q->k = k, q->M = m, q->maxabs = maxabs;
        return;
    }
    if (j->pass == LSE_DOUBLE) {
        /* S = sum exp(x_i - M) (double-double), A = sum |x_i| exp(x_i - M) */
        double sh = 0.0, sl = 0.0, A = 0.0, D = 0.0;
        for (uint64_t i = lo; i < hi; i++) {
            const double v = load(j->x, j->dt, i);
            if (v == -INFINITY) continue;
            const double d = v - M, t = exp(d);
            if (t == 0.0) continue;
            if (-d > D) D = -d;
            const double s = sh + t, bp = s - sh;
            sl += (sh - (s - bp)) + (t - bp);
            sh = s;
            A += fabs(v) * t;
        }
        q->sh = sh, q->sl = sl, q->A = A, q->D = D;
        return;
    }
#if LDBL_MANT_DIG >= 64
    long double lh = 0.0L, ll = 0.0L, aw = 0.0L;
    for (uint64_t i = lo; i < hi; i++) {
        const double v = load(j->x, j->dt, i);
        if (v == -INFINITY) continue;
        const long double d = (long double)v - (long double)M, t = expl(d);
        if (t == 0.0L) continue;
        const long double s = lh + t, bp = s - lh;
        ll += (lh - (s - bp)) + (t - bp);
        lh = s;
        aw += fabsl(d) * t;
    }
    q->lh = lh, q->ll = ll, q->aw = aw;
#endif
}

/* One pass over every chunk into job->part. 0, or -1 (a thread could not be joined). */
static int lse_pass(lse_job *job, uint64_t nch, unsigned threads, int pass)
{
    job->pass = pass;
    return sl_parallel_for((size_t)nch, threads, lse_chunk, job);
}

int sl_reference_lse_ex(sl_reference *ref, const void *x, uint64_t n, sl_dtype dt, unsigned threads,
                        int mpfr_only, long start_prec, sl_err *err)
{
    if (sl_reference_compute_threads(ref, x, n, dt, threads ? threads : 1, err)) return -1;
    /* the scan, then the sums, per chunk (nch 0 for n = 0) */
    const uint64_t nch = (n + LSE_CHUNK - 1) / LSE_CHUNK;
    lse_job job = {x, n, dt, 0.0, LSE_SCAN, calloc(nch ? (size_t)nch : 1, sizeof(lse_part))};
    if (!job.part) return sl_err_set(err, "lse reference: out of memory (%llu chunks)", (unsigned long long)nch);
    if (lse_pass(&job, nch, threads ? threads : 1, LSE_SCAN)) {
        free(job.part);
        return sl_err_set(err, "lse reference: a thread could not be joined");
    }
    int nan = 0, pinf = 0;
    uint64_t k = 0;
    double M = -INFINITY, maxabs = 0.0;
    for (uint64_t c = 0; c < nch; c++) {
        const lse_part *q = &job.part[c];
        nan |= q->nan, pinf |= q->pinf, k += q->k;
        if (q->M > M) M = q->M;
        if (q->maxabs > maxabs) maxabs = q->maxabs;
    }
    ref->maxabs = nan ? NAN : maxabs;
    ref->overflow = 0;
    ref->cond = NAN;
    if (nan || pinf || k <= 1) {
        const double r = nan ? NAN : pinf ? INFINITY : k == 0 ? -INFINITY : M;
        mpfr_set_prec(ref->sum, 64);
        mpfr_set_d(ref->sum, r, MPFR_RNDN);
        ref->rounded = ref->rounded_f64 = r;
        ref->rounded_f32 = (double)(float)r;
        ref->finite = isfinite(r);
        if (ref->finite) ref->cond = M == 0.0 ? 0.0 : 1.0; /* |x| e^x / (e^x |x|) */
        free(job.part);
        return 0;
    }
    /* the double sums: S = sum exp(x_i - M) (double-double), A = sum |x_i| exp(x_i - M), per
     * chunk, merged in chunk order (each merge a TwoSum of the his and two adds into lo: counted
     * as 2 more adds of the n 2^-104 term per chunk past the first) */
    const double nadd = (double)n + (nch > 1 ? 2.0 * (double)nch : 0.0);
    job.M = M;
    if (lse_pass(&job, nch, threads ? threads : 1, LSE_DOUBLE)) {
        free(job.part);
        return sl_err_set(err, "lse reference: a thread could not be joined");
    }
    double sh = 0.0, sl = 0.0, A = 0.0, D = 0.0;
    for (uint64_t c = 0; c < nch; c++) {
        const lse_part *q = &job.part[c];
        const double s = sh + q->sh, bp = s - sh;
        sl += (sh - (s - bp)) + (q->sh - bp);
        sl += q->sl;
        sh = s;
        A += q->A;
        if (q->D > D) D = q->D;
    }
    mpfr_t s0, e;
    mpfr_t cert;   /* lse at the precision the settling interval certifies */
    mpfr_inits2(256, s0, e, cert, (mpfr_ptr)0);
    double r = NAN;
    int done = 0;
    if (!mpfr_only) {
        mpfr_set_d(s0, sh, MPFR_RNDN);
        mpfr_add_d(s0, s0, sl, MPFR_RNDN); /* exact at 256 bits */
        /* relative: argument rounding D 2^-53, exp 2 ulps, n' 2^-104 for the double-double sum and
         * its final normalisation (n' = nadd: n and the chunk merges' adds); absolute: a
         * subnormal term's ulp each */
        const double rel = (D * 0x1p-53 + 0x1p-51 + nadd * 0x1p-104) * 1.0625;
        mpfr_set_d(e, sh, MPFR_RNDU);
        mpfr_mul_d(e, e, rel * 1.0001, MPFR_RNDU);
        mpfr_add_d(e, e, (double)n * 0x1p-1073, MPFR_RNDU);
        done = settle(s0, e, M, dt, 256 - 64, &r, ref->sum, cert, &ref->sum_relerr);
    }
#if LDBL_MANT_DIG >= 64
    /* x87 extended precision (float64 input nearly always gets here): terms by expl with the
     * argument rounded once to 64 bits, summed with TwoSum per chunk and merged alike: |S - sum
     * t_i| <= S (Aw 2^-64 + 2^-62 + n' 2^-126), Aw = sum |d_i| t_i / S; expl assumed within 2 ulps
     * (2^-62) */
    if (!done && !mpfr_only && lse_pass(&job, nch, threads ? threads : 1, LSE_EXTENDED)) {
        mpfr_clears(s0, e, cert, (mpfr_ptr)0);
        free(job.part);
        return sl_err_set(err, "lse reference: a thread could not be joined");
    }
    if (!done && !mpfr_only) {
        long double lh = 0.0L, ll = 0.0L, aw = 0.0L;
        for (uint64_t c = 0; c < nch; c++) {
            const lse_part *q = &job.part[c];
            const long double s = lh + q->lh, bp = s - lh;
            ll += (lh - (s - bp)) + (q->lh - bp);
            ll += q->ll;
            lh = s;
            aw += q->aw;
        }
        mpfr_set_prec(s0, 256);
        mpfr_set_ld(s0, lh, MPFR_RNDN);
        {
            mpfr_t lo;
            mpfr_init2(lo, 256);
            mpfr_set_ld(lo, ll, MPFR_RNDN);
            mpfr_add(s0, s0, lo, MPFR_RNDN); /* exact at 256 bits */
            mpfr_clear(lo);
        }
        const double rel =
            ((double)(aw / lh) * 0x1p-64 + 0x1p-62 + nadd * 0x1p-126) * 1.0625;
        mpfr_set_prec(e, 64);
        mpfr_set_ld(e, lh, MPFR_RNDU);
        mpfr_mul_d(e, e, rel * 1.0001, MPFR_RNDU);
        {   /* terms below long double's range: n 2^-16445 at most */
            mpfr_t tn;
            mpfr_init2(tn, 64);
            mpfr_set_ui_2exp(tn, 1, -16440, MPFR_RNDU);
            mpfr_mul_d(tn, tn, (double)n, MPFR_RNDU);
            mpfr_add(e, e, tn, MPFR_RNDU);
            mpfr_clear(tn);
        }
        done = settle(s0, e, M, dt, 256 - 64, &r, ref->sum, cert, &ref->sum_relerr);
    }
#endif
    free(job.part);
    /* Ziv's loop on MPFR */
    long w = start_prec > 0 ? start_prec : prec_of(dt) + 64 + (long)ceil(log2((double)n + 1.0));
    for (; !done && w <= 8192; w += 64) {
        mpfr_t S, d, t;
        mpfr_inits2(w, S, d, t, (mpfr_ptr)0);
        mpfr_set_prec(s0, w);
        mpfr_set_zero(S, 1);
        /* terms below exp(cut) are left out: at most n exp(cut) <= 2^-(w + 2) of S >= 1 */
        const double cut = -((double)w + 2.0 + log2((double)n + 1.0)) * 0.6931471805599453;
        for (uint64_t i = 0; i < n; i++) {
            const double v = load(x, dt, i);
            if (v == -INFINITY || v - M < cut - 1.0) continue;
            mpfr_set_d(d, v, MPFR_RNDN);
            mpfr_sub_d(d, d, M, MPFR_RNDN);
            mpfr_exp(t, d, MPFR_RNDN);
            mpfr_add(S, S, t, MPFR_RNDN);
        }
        /* each term within (D + 2) 2^-w relative (argument and exp), each add 2^-w of the
         * partial sum <= S: n adds; the left-out terms 2^-(w+2) S; doubled for second order */
        mpfr_set(s0, S, MPFR_RNDN);
        mpfr_set_prec(e, 64);
        mpfr_set_d(e, (D + 2.0 + (double)n + 1.0) * 2.0, MPFR_RNDU);
        mpfr_mul_2si(e, e, -w, MPFR_RNDU);
        mpfr_mul(e, e, S, MPFR_RNDU);
        done = settle(s0, e, M, dt, w, &r, ref->sum, cert, &ref->sum_relerr);
        mpfr_clears(S, d, t, (mpfr_ptr)0);
    }
    if (!done) {
        mpfr_clears(s0, e, cert, (mpfr_ptr)0);
        return sl_err_set(err, "lse reference: rounding not settled at 8192 bits");
    }
    ref->rounded = r;
    ref->rounded_f64 = mpfr_get_d(ref->sum, MPFR_RNDN);
    ref->rounded_f32 = (double)mpfr_get_flt(ref->sum, MPFR_RNDN);
    /* sum: only the certain bits (the roundings above come from the interval's midpoint, which
     * lies inside it: a value rounded to q bits could sit on a tie of double or float) */
    mpfr_set_prec(ref->sum, mpfr_get_prec(cert));
    mpfr_set(ref->sum, cert, MPFR_RNDN);
    mpfr_clears(s0, e, cert, (mpfr_ptr)0);
    ref->finite = isfinite(r);
    const double lse = ref->rounded_f64, S = sh + sl;
    ref->cond = lse == 0.0 ? (A == 0.0 ? 0.0 : INFINITY) : A / (S * fabs(lse));
    return 0;
}

int sl_reference_lse(sl_reference *ref, const void *x, uint64_t n, sl_dtype dt, unsigned threads,
                     sl_err *err)
{
    return sl_reference_lse_ex(ref, x, n, dt, threads, 0, 0, err);
}

int sl_lse_softmax_of(const sl_reference *ref, const void *x, uint64_t n, sl_dtype dt, double v,
                      sl_lse_softmax *out, sl_err *err)
{
    if (!x && n > 0) return sl_err_set(err, "lse softmax: no values");
    out->denom = out->p_rel = out->p_abs = out->sum_p_err = NAN;
    if (!ref->finite) return 0;
    double M = -INFINITY;
    for (uint64_t i = 0; i < n; i++) {
        const double t = load(x, dt, i);
        if (t > M) M = t;
    }
    mpfr_t a, b;
    const mpfr_prec_t w = mpfr_get_prec(ref->sum) + 64;
    mpfr_inits2(w, a, b, (mpfr_ptr)0);
    mpfr_sub_d(a, ref->sum, M, MPFR_RNDN);                 /* L - M >= 0 */
    mpfr_exp(b, a, MPFR_RNDN);
    out->denom = mpfr_get_d(b, MPFR_RNDN);
    mpfr_neg(a, a, MPFR_RNDN);
    mpfr_exp(a, a, MPFR_RNDN);                             /* p_max = exp(M - L) */
    const double pmax = mpfr_get_d(a, MPFR_RNDN);
    if (isnan(v)) {
        out->p_rel = out->p_abs = out->sum_p_err = NAN;
    } else if (isinf(v)) {
        out->p_rel = v > 0 ? 1.0 : INFINITY;
        out->p_abs = v > 0 ? pmax : INFINITY;
        out->sum_p_err = v > 0 ? -1.0 : INFINITY;
    } else {
        mpfr_set_d(a, v, MPFR_RNDN);
        mpfr_sub(a, ref->sum, a, MPFR_RNDN);               /* L - v */
        mpfr_expm1(b, a, MPFR_RNDN);                       /* sum_i p_i - 1 */
        out->sum_p_err = mpfr_get_d(b, MPFR_RNDN);
        out->p_rel = fabs(out->sum_p_err);
        out->p_abs = pmax * out->p_rel;
    }
    mpfr_clears(a, b, (mpfr_ptr)0);
    return 0;
}
