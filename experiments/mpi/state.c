/* state.c: the table of mergeable accumulator states (sl_state.h) and their framing. float16 and
 * bfloat16 states are the float32 ones over the inputs widened exactly, merged exactly and
 * rounded once: to odd in float32, then to nearest even in the 16-bit format (the correctly
 * rounded sum, as the variants' own 16-bit paths). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sumlab/half.h"
#include "sl_reference.h"
#include "sl_state.h"
#include "reproducible/reproducible.h"
#include "superacc/superacc.h"

/* ---- superacc: the twin's limbs + flags (kernels/superacc.h) ------------------------------ */
static size_t sacc_bytes(sl_dtype dt) { return SL_SACC_SAVED_BYTES(dt); }
static int sacc_sum(const void *x, uint64_t n, sl_dtype dt, void *saved, sl_err *err)
{
    sl_sacc_state st;
    if (!sl_dtype_is_half(dt)) {
        sl_sacc_state_init(&st, dt);
        if (sl_sacc_state_add(&st, x, n, err)) return -1;
    } else {                                  /* a float32 state of the widened inputs */
        sl_sacc_state_init(&st, SL_F32);
        float buf[4096];
        for (uint64_t i = 0; i < n; i += 4096) {
            const size_t m = n - i < 4096 ? (size_t)(n - i) : 4096;
            sl_half_widen((const uint16_t *)x + i, m, dt, buf);
            if (sl_sacc_state_add(&st, buf, m, err)) return -1;
        }
    }
    sl_sacc_state_save(&st, saved);
    return 0;
}
static void sacc_merge(void *dst, const void *src, sl_dtype dt) { sl_sacc_saved_merge(dst, src, dt); }
static double sacc_finish(const void *saved, sl_dtype dt)
{
    if (!sl_dtype_is_half(dt)) return sl_sacc_saved_round(saved, dt);
    const int L = SL_SACC_LIMBS_F32;
    int64_t w[SL_SACC_LIMBS_MAX + 2];
    memcpy(w, saved, sizeof(int64_t) * (size_t)(L + 2));
    if (w[L + 1] == 0) return 0.0;            /* n = 0: +0, as the twin */
    return sl_half_round(sl_sacc_round_mode(w, L, 0, SL_F32, (unsigned)w[L], 1), dt);
}

/* ---- exact: the reference's superaccumulator (reference/sl_exact.c) ------------------------ */
static size_t exact_bytes(sl_dtype dt) { (void)dt; return SL_EXACT_STATE_BYTES; }
static int exact_sum(const void *x, uint64_t n, sl_dtype dt, void *saved, sl_err *err)
{
    sl_exact *acc = sl_exact_new();
    if (!acc) return sl_err_set(err, "exact: out of memory for the superaccumulator");
    if (sl_dtype_is_half(dt)) sl_exact_add_half(acc, x, n, dt);
    else sl_exact_add(acc, x, n, dt);
    sl_exact_save(acc, saved);
    sl_exact_free(acc);
    return 0;
}
static void exact_merge(void *dst, const void *src, sl_dtype dt) { (void)dt; sl_exact_merge_saved(dst, src); }
static double exact_finish(const void *saved, sl_dtype dt)
{
    sl_exact *acc = sl_exact_new();
    if (!acc || sl_exact_load(acc, saved)) {
        sl_exact_free(acc);
        return NAN;
    }
    double r = sl_dtype_is_half(dt) ? sl_exact_round_half(acc, dt) : sl_exact_round(acc, dt);
    sl_exact_free(acc);
    return r;
}

/* ---- reproducible: the binned state (kernels/reproducible.h), a plain struct ---------------- */
static size_t repro_bytes(sl_dtype dt) { (void)dt; return sizeof(sl_rsum_state); }
static int repro_sum(const void *x, uint64_t n, sl_dtype dt, void *saved, sl_err *err)
{
    sl_rsum_state st;
    sl_rsum_state_zero(&st);
    if (sl_rsum_add(&st, x, n, dt))
        return sl_err_set(err, "reproducible: a slice of %llu values is beyond the state's capacity",
                          (unsigned long long)n);
    memcpy(saved, &st, sizeof st);
    return 0;
}
static void repro_merge(void *dst, const void *src, sl_dtype dt)
{
    (void)dt;
    sl_rsum_state a, b;
    memcpy(&a, dst, sizeof a);
    memcpy(&b, src, sizeof b);
    sl_rsum_state_merge(&a, &b);   /* exact, commutative, canonical (normalised) */
    memcpy(dst, &a, sizeof a);
}
static double repro_finish(const void *saved, sl_dtype dt)
{
    sl_rsum_state a;
    memcpy(&a, saved, sizeof a);
    return sl_dtype_is_half(dt) ? sl_rsum_state_round_half(&a, dt) : sl_rsum_state_round(&a, dt);
}

/* One entry per order-independent variant with a state. */
static const sl_state_kind kinds[] = {
    {"superacc", "the twin's exact accumulation (limbs + flags) on the rank's CPU", sacc_bytes,
     sacc_sum, sacc_merge, sacc_finish},
    {"exact", "reference/'s superaccumulator (sl_exact_save)", exact_bytes, exact_sum, exact_merge,
     exact_finish},
    {"reproducible", "the binned state (index + exact fold sums, sl_rsum_state) on the rank's CPU",
     repro_bytes, repro_sum, repro_merge, repro_finish},
};

size_t sl_state_kind_count(void) { return sizeof kinds / sizeof kinds[0]; }
const sl_state_kind *sl_state_kind_at(size_t i) { return i < sl_state_kind_count() ? &kinds[i] : NULL; }
const sl_state_kind *sl_state_kind_find(const char *variant)
{
    for (size_t i = 0; variant && i < sl_state_kind_count(); i++)
        if (!strcmp(kinds[i].variant, variant)) return &kinds[i];
    return NULL;
}

/* ---- framing ------------------------------------------------------------------------------ */
#define BLOB_MAGIC 0x54534c53u /* "SLST" */
typedef struct {
    uint32_t magic;
    uint16_t kind, dt;
    uint64_t payload;
} blob_hdr;
_Static_assert(sizeof(blob_hdr) == SL_STATE_HDR, "SL_STATE_HDR");

size_t sl_state_blob_bytes(const sl_state_kind *k, sl_dtype dt)
{
    return SL_STATE_HDR + ((k->bytes(dt) + 7) & ~(size_t)7);
}

int sl_state_blob_sum(const sl_state_kind *k, const void *x, uint64_t n, sl_dtype dt, void *blob,
                      sl_err *err)
{
    size_t total = sl_state_blob_bytes(k, dt);
    memset(blob, 0, total);
    blob_hdr h = {BLOB_MAGIC, (uint16_t)(k - kinds), (uint16_t)dt, k->bytes(dt)};
    memcpy(blob, &h, sizeof h);
    return k->sum(x, n, dt, (unsigned char *)blob + SL_STATE_HDR, err);
}

static const sl_state_kind *blob_kind(const void *blob, blob_hdr *h)
{
    memcpy(h, blob, sizeof *h);
    if (h->magic != BLOB_MAGIC || h->kind >= sl_state_kind_count()) return NULL;
    if (h->dt != SL_F32 && h->dt != SL_F64 && h->dt != SL_F16 && h->dt != SL_BF16) return NULL;
    const sl_state_kind *k = &kinds[h->kind];
    return h->payload == k->bytes((sl_dtype)h->dt) ? k : NULL;
}

int sl_state_blob_merge(void *dst, const void *src)
{
    blob_hdr hd, hs;
    const sl_state_kind *kd = blob_kind(dst, &hd), *ks = blob_kind(src, &hs);
    if (!kd || kd != ks || hd.dt != hs.dt) return -1;
    kd->merge((unsigned char *)dst + SL_STATE_HDR, (const unsigned char *)src + SL_STATE_HDR,
              (sl_dtype)hd.dt);
    return 0;
}

double sl_state_blob_finish(const void *blob)
{
    blob_hdr h;
    const sl_state_kind *k = blob_kind(blob, &h);
    return k ? k->finish((const unsigned char *)blob + SL_STATE_HDR, (sl_dtype)h.dt) : NAN;
}

const sl_state_kind *sl_state_blob_kind(const void *blob, sl_dtype *dt)
{
    blob_hdr h;
    const sl_state_kind *k = blob_kind(blob, &h);
    if (k && dt) *dt = (sl_dtype)h.dt;
    return k;
}
