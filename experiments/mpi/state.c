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

/* The limb form's flag words: one 0/1 word per flag bit (summed over the ranks: set when > 0). */
#define FLAG_BITS 4u   /* SL_SACC_NAN, SL_SACC_PINF, SL_SACC_NINF, SL_SACC_ANYPOS */
static int flags_to_words(uint32_t flags, unsigned bits, int64_t *w)
{
    if (flags >> bits) return -1;
    for (unsigned b = 0; b < bits; b++) w[b] = (flags >> b) & 1u;
    return 0;
}
static uint32_t flags_from_words(const int64_t *w, unsigned bits)
{
    uint32_t f = 0;
    for (unsigned b = 0; b < bits; b++) f |= (w[b] > 0 ? 1u : 0u) << b;
    return f;
}

/* superacc's limb form: index 0; its normalised limbs, the flag words, n. */
static size_t sacc_nlimbs(sl_dtype dt) { return (size_t)sl_sacc_limbs(sl_dtype_is_half(dt) ? SL_F32 : dt) + FLAG_BITS + 1; }
static int32_t sacc_index(const void *saved, sl_dtype dt) { (void)saved; (void)dt; return 0; }
static int sacc_to_limbs(const void *saved, sl_dtype dt, int32_t index, int64_t *limb)
{
    const int L = sl_sacc_limbs(sl_dtype_is_half(dt) ? SL_F32 : dt);
    int64_t w[SL_SACC_LIMBS_MAX + 2];
    memcpy(w, saved, sizeof(int64_t) * (size_t)(L + 2));
    if (index != 0 || flags_to_words((uint32_t)w[L], FLAG_BITS, limb + L)) return -1;
    memcpy(limb, w, sizeof(int64_t) * (size_t)L);
    limb[L + FLAG_BITS] = w[L + 1];
    return 0;
}
static int sacc_from_limbs(const int64_t *limb, sl_dtype dt, int32_t index, void *saved)
{
    const int L = sl_sacc_limbs(sl_dtype_is_half(dt) ? SL_F32 : dt);
    int64_t w[SL_SACC_LIMBS_MAX + 2];
    if (index != 0) return -1;
    memcpy(w, limb, sizeof(int64_t) * (size_t)L);
    sl_sacc_normalise(w, L);   /* as sl_sacc_saved_merge: the canonical limbs of the sum */
    w[L] = (int64_t)flags_from_words(limb + L, FLAG_BITS);
    w[L + 1] = limb[L + FLAG_BITS];
    memcpy(saved, w, sizeof(int64_t) * (size_t)(L + 2));
    return 0;
}

/* normalised limbs (0..L-2 in [0, 2^32), the top one signed and far from overflow), flags of
 * the 4 known bits, n not negative */
static int sacc_valid(const void *saved, sl_dtype dt)
{
    const int L = sl_sacc_limbs(sl_dtype_is_half(dt) ? SL_F32 : dt);
    int64_t w[SL_SACC_LIMBS_MAX + 2];
    memcpy(w, saved, sizeof(int64_t) * (size_t)(L + 2));
    for (int i = 0; i < L - 1; i++)
        if (w[i] < 0 || w[i] > 0xffffffffll) return 0;
    return w[L - 1] > -((int64_t)1 << 62) && w[L - 1] < ((int64_t)1 << 62) && w[L] >= 0 &&
           w[L] < (1 << FLAG_BITS) && w[L + 1] >= 0;
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

/* exact's limb form: index 0; the saved words but the last (chunk[68], achunk[68], n, nan, pinf,
 * ninf, notnegzero; sl_reference.h), the magic word taken from an empty state. The sum is
 * normalised (and notnegzero made 0/1) by merging an empty saved state into it. */
#define EXACT_WORDS (SL_EXACT_STATE_BYTES / 8 - 1)
static size_t exact_nlimbs(sl_dtype dt) { (void)dt; return EXACT_WORDS; }
static int32_t exact_index(const void *saved, sl_dtype dt) { (void)saved; (void)dt; return 0; }
static int exact_to_limbs(const void *saved, sl_dtype dt, int32_t index, int64_t *limb)
{
    (void)dt;
    if (index != 0) return -1;
    memcpy(limb, saved, EXACT_WORDS * 8);
    return 0;
}
static int exact_from_limbs(const int64_t *limb, sl_dtype dt, int32_t index, void *saved)
{
    (void)dt;
    sl_exact *acc = index == 0 ? sl_exact_new() : NULL;
    if (!acc) return -1;
    unsigned char zero[SL_EXACT_STATE_BYTES];
    sl_exact_save(acc, zero);
    sl_exact_free(acc);
    memcpy(saved, limb, EXACT_WORDS * 8);
    memcpy((unsigned char *)saved + EXACT_WORDS * 8, zero + EXACT_WORDS * 8, 8);
    sl_exact_merge_saved(saved, zero);
    return 0;
}

/* ---- reproducible: the binned state (kernels/reproducible.h), a plain struct ---------------- */
/* The binned state keeps no count, so a state of -0 inputs (flags 0, folds 0: -0, as IEEE sums
 * them) would be one with nothing added. The states here carry one more flag: REPRO_SEEN, set
 * once a value (any value) is added and ORed by the merge. Without it the state is the empty one
 * (repro_valid: nothing else set) and its result is +0, as the variant's on an empty array. */
#define REPRO_SEEN 16u
#define REPRO_FLAG_BITS 5u   /* FLAG_BITS and REPRO_SEEN */
static size_t repro_bytes(sl_dtype dt) { (void)dt; return sizeof(sl_rsum_state); }
static int repro_sum(const void *x, uint64_t n, sl_dtype dt, void *saved, sl_err *err)
{
    sl_rsum_state st;
    sl_rsum_state_zero(&st);
    if (sl_rsum_add(&st, x, n, dt))
        return sl_err_set(err, "reproducible: a slice of %llu values is beyond the state's capacity",
                          (unsigned long long)n);
    if (n) st.flags |= REPRO_SEEN;
    memcpy(saved, &st, sizeof st);
    return 0;
}
static void repro_merge(void *dst, const void *src, sl_dtype dt)
{
    (void)dt;
    sl_rsum_state a, b;
    memcpy(&a, dst, sizeof a);
    memcpy(&b, src, sizeof b);
    sl_rsum_state_merge(&a, &b);   /* exact, commutative, canonical (normalised); flags ORed */
    memcpy(dst, &a, sizeof a);
}
static double repro_finish(const void *saved, sl_dtype dt)
{
    sl_rsum_state a;
    memcpy(&a, saved, sizeof a);
    if (!(a.flags & REPRO_SEEN)) return 0.0;   /* nothing added: +0 */
    a.flags &= ~REPRO_SEEN;
    return sl_dtype_is_half(dt) ? sl_rsum_state_round_half(&a, dt) : sl_rsum_state_round(&a, dt);
}

/* reproducible's limb form: index top; at a common index >= top the state raised as the merge
 * raises it (sl_rsum_state_shift_k: lowest folds dropped), then hi[0..K), lo[0..K), flag words.
 * The sum normalised (sl_rsum_state_norm_k) is the merge's canonical state. */
static size_t repro_nlimbs(sl_dtype dt) { (void)dt; return 2 * SL_RSUM_K + REPRO_FLAG_BITS; }
static int32_t repro_index(const void *saved, sl_dtype dt)
{
    (void)dt;
    sl_rsum_state a;
    memcpy(&a, saved, sizeof a);
    return a.top;
}
static int repro_to_limbs(const void *saved, sl_dtype dt, int32_t index, int64_t *limb)
{
    (void)dt;
    sl_rsum_state a;
    memcpy(&a, saved, sizeof a);
    if (index < a.top || flags_to_words(a.flags, REPRO_FLAG_BITS, limb + 2 * SL_RSUM_K)) return -1;
    sl_rsum_state_shift_k(&a, index, SL_RSUM_K);
    for (int k = 0; k < SL_RSUM_K; k++) {
        limb[k] = a.hi[k];
        limb[SL_RSUM_K + k] = a.lo[k];
    }
    return 0;
}
static int repro_from_limbs(const int64_t *limb, sl_dtype dt, int32_t index, void *saved)
{
    (void)dt;
    sl_rsum_state a;
    sl_rsum_state_zero_k(&a, SL_RSUM_K);
    a.top = index;
    for (int k = 0; k < SL_RSUM_K; k++) {
        a.hi[k] = limb[k];
        a.lo[k] = limb[SL_RSUM_K + k];
    }
    a.flags = flags_from_words(limb + 2 * SL_RSUM_K, REPRO_FLAG_BITS);
    sl_rsum_state_norm_k(&a, SL_RSUM_K);
    memcpy(saved, &a, sizeof a);
    return 0;
}

static int exact_valid(const void *saved, sl_dtype dt)
{
    (void)dt;
    return sl_exact_saved_valid(saved);
}

/* the index within the format's positions (top - K + 1 .. top all positions), normalised folds
 * (lo in [0, 2^32), hi far from overflow), the folds beyond K empty, flags of the 5 known bits;
 * without REPRO_SEEN, the empty state itself */
static int repro_valid(const void *saved, sl_dtype dt)
{
    sl_rsum_state a;
    memcpy(&a, saved, sizeof a);
    if (a.top < SL_RSUM_K - 1 || a.top >= sl_rsum_npos(dt) || a.flags >> REPRO_FLAG_BITS) return 0;
    const int seen = (a.flags & REPRO_SEEN) != 0;
    if (!seen && (a.flags || a.top != SL_RSUM_K - 1)) return 0;
    for (int k = 0; k < SL_RSUM_KMAX; k++) {
        if ((k >= SL_RSUM_K || !seen) && (a.hi[k] || a.lo[k])) return 0;
        if (a.lo[k] < 0 || a.lo[k] > 0xffffffffll || a.hi[k] <= -((int64_t)1 << 62) || a.hi[k] >= ((int64_t)1 << 62))
            return 0;
    }
    return 1;
}

/* One entry per order-independent variant with a state. */
static const sl_state_kind kinds[] = {
    {"superacc", "the twin's exact accumulation (limbs + flags) on the rank's CPU", sacc_bytes,
     sacc_sum, sacc_merge, sacc_finish, sacc_nlimbs, sacc_index, sacc_to_limbs, sacc_from_limbs, sacc_valid},
    {"exact", "reference/'s superaccumulator (sl_exact_save)", exact_bytes, exact_sum, exact_merge,
     exact_finish, exact_nlimbs, exact_index, exact_to_limbs, exact_from_limbs, exact_valid},
    {"reproducible", "the binned state (index + exact fold sums, sl_rsum_state) on the rank's CPU",
     repro_bytes, repro_sum, repro_merge, repro_finish, repro_nlimbs, repro_index, repro_to_limbs,
     repro_from_limbs, repro_valid},
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

int sl_state_blob_valid(const void *blob)
{
    blob_hdr h;
    const sl_state_kind *k = blob_kind(blob, &h);
    return k && k->valid((const unsigned char *)blob + SL_STATE_HDR, (sl_dtype)h.dt);
}

int sl_state_blob_merge(void *dst, const void *src)
{
    blob_hdr hd, hs;
    const sl_state_kind *kd = blob_kind(dst, &hd), *ks = blob_kind(src, &hs);
    if (!kd || kd != ks || hd.dt != hs.dt) return -1;
    if (!kd->valid((const unsigned char *)dst + SL_STATE_HDR, (sl_dtype)hd.dt) ||
        !kd->valid((const unsigned char *)src + SL_STATE_HDR, (sl_dtype)hs.dt))
        return -1;
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

/* ---- the integer-limb form (sl_state.h) --------------------------------------------------- */
size_t sl_state_blob_nlimbs(const void *blob)
{
    blob_hdr h;
    const sl_state_kind *k = blob_kind(blob, &h);
    return k ? k->nlimbs((sl_dtype)h.dt) : 0;
}

int sl_state_blob_index(const void *blob, int32_t *index)
{
    blob_hdr h;
    const sl_state_kind *k = blob_kind(blob, &h);
    if (!k) return -1;
    *index = k->index((const unsigned char *)blob + SL_STATE_HDR, (sl_dtype)h.dt);
    return 0;
}

int sl_state_blob_to_limbs(const void *blob, int32_t index, int64_t *limb)
{
    blob_hdr h;
    const sl_state_kind *k = blob_kind(blob, &h);
    return k ? k->to_limbs((const unsigned char *)blob + SL_STATE_HDR, (sl_dtype)h.dt, index, limb) : -1;
}

int sl_state_blob_from_limbs(void *blob, int32_t index, const int64_t *limb)
{
    blob_hdr h;
    const sl_state_kind *k = blob_kind(blob, &h);
    unsigned char *saved = (unsigned char *)blob + SL_STATE_HDR;
    if (!k) return -1;
    const size_t bytes = k->bytes((sl_dtype)h.dt);
    unsigned char stack[2048];            /* every kind's state today (exact's, the largest: 1,136) */
    unsigned char *keep = bytes <= sizeof stack ? stack : malloc(bytes);
    if (!keep) return -1;
    memcpy(keep, saved, bytes);
    /* limbs that make no state this kind makes (an index out of range, words beyond a
     * normalised state's): blob unchanged */
    int rc = k->from_limbs(limb, (sl_dtype)h.dt, index, saved);
    if (!rc && !k->valid(saved, (sl_dtype)h.dt)) rc = -1;
    if (rc) memcpy(saved, keep, bytes);
    if (keep != stack) free(keep);
    return rc;
}

int sl_state_blob_allreduce(void *blob, const sl_state_exchange *x, sl_err *err)
{
    blob_hdr h;
    const sl_state_kind *k = blob_kind(blob, &h);
    if (!k) return sl_err_set(err, "allreduce: the bytes are no state");
    if (x->ranks < 1 || x->ranks > SL_STATE_MAX_RANKS)
        return sl_err_set(err, "allreduce: %d ranks (the integer limbs have headroom for 1..%ld)", x->ranks,
                          (long)SL_STATE_MAX_RANKS);
    int32_t index;
    if (sl_state_blob_index(blob, &index)) return sl_err_set(err, "allreduce: the bytes are no state");
    if (x->max_i32(&index, x->ctx, err)) return -1;
    const size_t m = k->nlimbs((sl_dtype)h.dt), bytes = sl_state_blob_bytes(k, (sl_dtype)h.dt);
    int64_t *w = malloc(m * sizeof *w);
    unsigned char *out = malloc(bytes);
    int rc = -1;
    if (!w || !out) {
        sl_err_set(err, "allreduce: out of memory for %zu limbs", m);
    } else if (sl_state_blob_to_limbs(blob, index, w)) {
        sl_err_set(err, "allreduce: the common index %d is below this rank's (%s %s state)", (int)index,
                   k->variant, sl_dtype_name((sl_dtype)h.dt));
    } else if (!x->sum_i64(w, m, x->ctx, err)) {
        memcpy(out, blob, bytes);
        if (sl_state_blob_from_limbs(out, index, w)) sl_err_set(err, "allreduce: the summed limbs make no state");
        else {
            memcpy(blob, out, bytes);
            rc = 0;
        }
    }
    free(w);
    free(out);
    return rc;
}
