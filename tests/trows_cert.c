/* trows_cert.c: superacc's certified row pass on the CPU (rows/rows_cert.h): sl_rcs_round equals
 * sumlab/half.h's rounding on random, tie, subnormal and near-overflow doubles; the row kernel's
 * model (sl_rcs_model_row: its additions in its order, a warp or a block a row, four row
 * alignments) and the host form on rows of every kind of trows_sacc.h, float32, float16 and
 * bfloat16, n from 1 to 32768, and float64's model (the 4-fold binned state's certified rounding,
 * exact/binned.h): every decided row equals the superacc twin (the exact sum rounded once) bit
 * for bit, the kinds that must not be decided are not, the ordinary kinds are (90 % or more of
 * their rows of 33 values and more), and the model's longest chain is within sl_rcs_chain's
 * bound. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sl_variants.h"
#include "rows/rows.h"
#include "rows/rows_cert.h"
#include "exact/binned.h"
#include "trows_sacc.h"

static int same_bits(double a, double b)
{
    if (isnan(a) && isnan(b)) return 1;
    return memcmp(&a, &b, sizeof a) == 0;
}

/* sl_rcs_round(v, dt) == sl_half_round(v, dt) for the 16-bit formats. */
static void check_round(sl_dtype dt)
{
    const int p = sr_prec(dt), emin = sr_emin(dt);
    const double max = sr_max(dt), qmax = sr_quantum(max, dt);
    uint64_t bad = 0, n = 0;
    for (int i = 0; i < 200000; i++) {
        const uint64_t r = sl_test_rand64();
        double v;
        const int emax = dt == SL_F16 ? 15 : 127;
        const int e = emin - p - 4 + (int)(r % (unsigned)(emax + 2 - (emin - p - 4) + 1));
        switch ((r >> 16) % 4u) {
        case 0:   /* any double in the format's range and a little beyond */
            v = ldexp((double)((r >> 20) | 1u) / 0x1p44, e);
            break;
        case 1: { /* a tie: a value of the format plus half its spacing */
            const double m = sl_rcs_round(ldexp(1.0 + (double)((r >> 20) & 0xffffu) / 0x1p16, e), dt);
            v = isinf(m) ? max + qmax / 2.0 : m + sr_quantum(m, dt) / 2.0;
            break;
        }
        case 2:   /* around the overflow threshold */
            v = max + qmax / 2.0 + ldexp((double)(int)((r >> 20) % 64u) - 32.0, (int)((r >> 30) % 40u) - 40) * qmax;
            break;
        default:  /* double subnormals and tiny values */
            v = ldexp((double)((r >> 20) | 1u), -1074 + (int)((r >> 8) % 60u));
            break;
        }
        if (r >> 63) v = -v;
        n++;
        const double a = sl_rcs_round(v, dt), b = sl_half_round(v, dt);
        if (!same_bits(a, b) && bad++ < 5)
            fprintf(stderr, "  %s: round(%a) = %a, half.h %a\n", sl_dtype_name(dt), v, a, b);
    }
    CHECK(bad == 0, "%s: sl_rcs_round differs from sl_half_round on %llu of %llu doubles",
          sl_dtype_name(dt), (unsigned long long)bad, (unsigned long long)n);
}

typedef struct {
    uint64_t rows[SR_KINDS], decided[SR_KINDS];
} tally;

static void check_rows(sl_dtype dt, const sl_variant *sacc)
{
    static const uint64_t Ns[] = {1, 2, 3, 13, 14, 33, 4095, 4103, 8192, 8193, 32768};
    const size_t es = sl_dtype_size(dt);
    tally t;
    memset(&t, 0, sizeof t);
    uint64_t wrong = 0, undecided_must = 0, long_chain = 0, gen_fail = 0, want = 0, got = 0;
    for (size_t ni = 0; ni < sizeof Ns / sizeof Ns[0]; ni++) {
        const uint64_t n = Ns[ni];
        char *buf = malloc(n * es + 16);
        if (!buf) { CHECK(0, "out of memory"); return; }
        const unsigned naddr = n > 8193 ? 1u : 4u;
        for (int kind = 0; kind < SR_KINDS; kind++)
            for (unsigned ai = 0; ai < naddr; ai++) {
                const unsigned addr16 = (unsigned)(ai * (es == 2 ? 6u : (unsigned)es)) & 15u;
                char *row = buf + addr16;        /* buf is 16-byte aligned (malloc) */
                const int k = sr_fill(row, n, dt, kind);
                if (k < 0) { gen_fail++; continue; }
                double exact, r;
                sl_err err = {{0}};
                sl_launch cfg;
                memset(&cfg, 0, sizeof cfg);
                sl_variant_resolve(sacc, &cfg, n, dt);
                if (sl_variant_cpu(sacc, row, n, dt, &cfg, &exact, &err)) {
                    CHECK(0, "superacc twin: %s", err.msg);
                    continue;
                }
                const int must = sr_must(k, dt);
                const uint64_t W = 16u / es;
                uint64_t head = ((16u - addr16) & 15u) / es;
                if (head > n) head = n;
                const uint64_t nv = (n - head) / W;
                /* the kernel's choice of T first (tallied), then the other */
                const unsigned Tk = n <= SL_ROWS_SACC_WARP_ROW_MAX ? 32u : SL_ROWS_SACC_BLOCK;
                /* float64: the 4-fold binned state's certified rounding (a function of the
                 * row's values alone: one model for every kernel shape) */
                for (int pass = 0; pass < (dt == SL_F64 ? 1 : 3); pass++) {
                    int dec;
                    if (dt == SL_F64) {
                        dec = sl_rsum_certify_f64((const double *)row, n, &r);
                    } else if (pass < 2) {
                        const unsigned T = pass == 0 ? Tk : (Tk == 32u ? SL_ROWS_SACC_BLOCK : 32u);
                        uint64_t chain = 0;
                        dec = sl_rcs_model_row(row, n, dt, T, addr16, &r, &chain);
                        if (chain > sl_rcs_chain(nv, T, (unsigned)W)) long_chain++;
                    } else {
                        dec = sl_rcs_certify_host(row, n, dt, &r);
                    }
                    if (pass == 0) {
                        t.rows[k]++;
                        t.decided[k] += (uint64_t)dec;
                        /* the ordinary kinds: sums of a few values land on ties often in the
                         * 16-bit formats (8 or 11 bits), of many values seldom */
                        if (must == -1 && n >= 33) {
                            want++;
                            got += (uint64_t)dec;
                        }
                    }
                    if (dec && !same_bits(r, exact) && wrong++ < 5)
                        fprintf(stderr, "  %s n=%llu %s pass %d: decided %a, exact %a\n",
                                sl_dtype_name(dt), (unsigned long long)n, sr_kind_name[k], pass, r, exact);
                    if (dec && must == 1 && undecided_must++ < 5)
                        fprintf(stderr, "  %s n=%llu %s pass %d: decided (%a), must not be\n",
                                sl_dtype_name(dt), (unsigned long long)n, sr_kind_name[k], pass, r);
                }
            }
        free(buf);
    }
    CHECK(gen_fail == 0, "%s: %llu tie rows did not fit their correction", sl_dtype_name(dt),
          (unsigned long long)gen_fail);
    CHECK(wrong == 0, "%s: %llu decisions differ from the exact sum rounded once", sl_dtype_name(dt),
          (unsigned long long)wrong);
    CHECK(undecided_must == 0, "%s: %llu rows decided that must not be", sl_dtype_name(dt),
          (unsigned long long)undecided_must);
    CHECK(long_chain == 0, "%s: %llu rows with a chain beyond sl_rcs_chain", sl_dtype_name(dt),
          (unsigned long long)long_chain);
    printf("%s, the kernel's model (rows decided / rows):", sl_dtype_name(dt));
    for (int k = 0; k < SR_KINDS; k++) {
        printf(" %s %llu/%llu", sr_kind_name[k], (unsigned long long)t.decided[k],
               (unsigned long long)t.rows[k]);
        if (sr_must(k, dt) == 1)
            CHECK(t.rows[k] > 0, "%s: no %s row", sl_dtype_name(dt), sr_kind_name[k]);
    }
    printf("\n");
    CHECK(want > 0 && got * 10u >= want * 9u, "%s: the ordinary kinds decided %llu of %llu rows of 33 values and more",
          sl_dtype_name(dt), (unsigned long long)got, (unsigned long long)want);
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    check_round(SL_F16);
    check_round(SL_BF16);
    const sl_variant *sacc = sl_variant_find_op("sum", "superacc");
    CHECK(sacc != NULL, "superacc not in the registry");
    if (!sacc) return sl_test_done("trows_cert");
    check_rows(SL_F32, sacc);
    check_rows(SL_F16, sacc);
    check_rows(SL_BF16, sacc);
    check_rows(SL_F64, sacc);
    return sl_test_done("trows_cert");
}
