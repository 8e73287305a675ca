/* mpi.c: the MPI engine (sl_mpi_impl.h): checked calls, agreement on failure, slices, the
 * state MPI_Op, the three combine strategies with their timing, and `sumlab sum` under mpirun.
 * Floating-point: combines add in the input's format (float for f32, double for f64; float16 and
 * bfloat16: each add rounded once to the format, as a 16-bit all-reduce does). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sl_datasets.h"
#include "sl_gpu.h"
#include "sumlab/half.h"
#include "sl_mpi_impl.h"
#include "sl_verdict.h"
#include "sl_state.h"

int sl_mpi_compiled(void) { return 1; }

static int g_world_rank = -1;
int sl_mpi_world_rank(void) { return g_world_rank; }

void sl_mpi_fail(const char *call, int rc, const char *file, int line)
{
    char s[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (MPI_Error_string(rc, s, &len) != MPI_SUCCESS) snprintf(s, sizeof s, "MPI error %d", rc);
    fprintf(stderr, "sumlab: rank %d: %s failed: %s (%s:%d)\n", g_world_rank, call, s, file, line);
    MPI_Abort(MPI_COMM_WORLD, 1);   /* returns only if the abort itself failed: exit below */
    exit(1);
}

/* The rank's GPU: SUMLAB_GPU_DEVICE when set (every rank on it), else local rank modulo the
 * visible devices (set into SUMLAB_GPU_DEVICE, which the harness reads). */
static void pick_device(void)
{
    const char *env = getenv("SUMLAB_GPU_DEVICE");
    if (env && *env) return;
    int count = sl_gpu_device_count();
    if (count <= 0) return;
    MPI_Comm node;
    int lr = 0;
    SL_MPI_CK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    SL_MPI_CK(MPI_Comm_rank(node, &lr));
    SL_MPI_CK(MPI_Comm_free(&node));
    char b[32];
    snprintf(b, sizeof b, "%d", lr % count);
    setenv("SUMLAB_GPU_DEVICE", b, 1);
}

int sl_mpi_start(sl_err *err)
{
    int inited = 0;
    if (MPI_Initialized(&inited) != MPI_SUCCESS) return sl_err_set(err, "MPI_Initialized failed");
    if (!inited) {
        int rc = MPI_Init(NULL, NULL);
        if (rc != MPI_SUCCESS) return sl_err_set(err, "MPI_Init failed (error %d)", rc);
    }
    SL_MPI_CK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    SL_MPI_CK(MPI_Comm_rank(MPI_COMM_WORLD, &g_world_rank));
    pick_device();
    return 0;
}

static MPI_Op g_state_op = MPI_OP_NULL;   /* the states' reduction: created once, freed here */
static MPI_Op g_half_sum[2] = {MPI_OP_NULL, MPI_OP_NULL};   /* MPI_SUM in float16, bfloat16 (likewise) */

int sl_mpi_end(int code)
{
    int inited = 0, fin = 0;
    if (MPI_Initialized(&inited) != MPI_SUCCESS || MPI_Finalized(&fin) != MPI_SUCCESS) {
        fprintf(stderr, "sumlab: MPI_Initialized or MPI_Finalized failed\n");
        return code ? code : 1;
    }
    if (!inited || fin) return code;
    int agreed = code;
    SL_MPI_CK(MPI_Allreduce(&code, &agreed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    if (g_state_op != MPI_OP_NULL) SL_MPI_CK(MPI_Op_free(&g_state_op));
    for (int i = 0; i < 2; i++)
        if (g_half_sum[i] != MPI_OP_NULL) SL_MPI_CK(MPI_Op_free(&g_half_sum[i]));
    SL_MPI_CK(MPI_Finalize());
    return agreed;
}

#define MSG_LEN 480
typedef struct {
    int rc;
    char msg[MSG_LEN];
} agree_msg;

int sl_mpi_agree(MPI_Comm comm, int rc, sl_err *err)
{
    int mx = 0, rank, size;
    SL_MPI_CK(MPI_Allreduce(&rc, &mx, 1, MPI_INT, MPI_MAX, comm));
    if (!mx) return 0;
    SL_MPI_CK(MPI_Comm_rank(comm, &rank));
    SL_MPI_CK(MPI_Comm_size(comm, &size));
    agree_msg mine;
    memset(&mine, 0, sizeof mine);
    mine.rc = rc;
    if (rc && err) snprintf(mine.msg, sizeof mine.msg, "%.*s", (int)sizeof mine.msg - 1, err->msg);
    agree_msg *all = rank == 0 ? calloc((size_t)size, sizeof *all) : NULL;
    if (rank == 0 && !all) {
        fprintf(stderr, "sumlab: rank 0: out of memory gathering the ranks' messages\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
        exit(1);   /* only if the abort failed */
    }
    SL_MPI_CK(MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, 0, comm));
    if (rank == 0) {
        int first = -1, others = 0;
        for (int r = 0; r < size; r++) {
            if (all[r].rc != mx) continue;
            if (first < 0) first = r;
            else others++;
        }
        char m[MSG_LEN];
        snprintf(m, sizeof m, "%s", all[first].msg);
        if (others)
            sl_err_set(err, "rank %d: %s (and %d more rank%s)", first, m, others, others > 1 ? "s" : "");
        else
            sl_err_set(err, "rank %d: %s", first, m);
        free(all);
    }
    return mx;
}

void sl_mpi_slice(uint64_t n, int k, int r, uint64_t *lo, uint64_t *len)
{
    uint64_t q = n / (uint64_t)k, rem = n % (uint64_t)k, ur = (uint64_t)r;
    *lo = q * ur + (ur < rem ? ur : rem);
    *len = q + (ur < rem);
}

/* ---- the state MPI_Op: exact merge of framed states (sl_state.h) ---------------------------- */
static void state_op_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
    int tsize = 0;
    SL_MPI_CK(MPI_Type_size(*type, &tsize));
    for (int i = 0; i < *len; i++)
        if (sl_state_blob_merge((char *)inout + (size_t)i * (size_t)tsize,
                                (const char *)in + (size_t)i * (size_t)tsize)) {
            fprintf(stderr, "sumlab: rank %d: the state MPI_Op got states of different kinds\n",
                    g_world_rank);
            MPI_Abort(MPI_COMM_WORLD, 1);
            exit(1);   /* only if the abort failed */
        }
}

static MPI_Op state_op(void)
{
    if (g_state_op == MPI_OP_NULL) SL_MPI_CK(MPI_Op_create(state_op_fn, 1 /* commutative */, &g_state_op));
    return g_state_op;
}

/* The integer-limb exchange over MPI (sl_state_exchange): MPI_MAX on MPI_INT32_T, MPI_SUM on
 * MPI_INT64_T; ctx is the MPI_Comm. */
static int mpi_max_i32(int32_t *v, void *ctx, sl_err *err)
{
    (void)err;
    SL_MPI_CK(MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_INT32_T, MPI_MAX, *(MPI_Comm *)ctx));
    return 0;
}
static int mpi_sum_i64(int64_t *v, size_t n, void *ctx, sl_err *err)
{
    if (n > (size_t)1 << 30) return sl_err_set(err, "%zu limbs in one MPI_Allreduce", n);
    SL_MPI_CK(MPI_Allreduce(MPI_IN_PLACE, v, (int)n, MPI_INT64_T, MPI_SUM, *(MPI_Comm *)ctx));
    return 0;
}

/* blob (bytes) reduced over comm into out on every rank. */
static void state_allreduce(MPI_Comm comm, const void *blob, void *out, size_t bytes, MPI_Datatype t)
{
    (void)bytes;
    SL_MPI_CK(MPI_Allreduce(blob, out, 1, t, state_op(), comm));
}

/* ---- the input ------------------------------------------------------------------------------ */
int sl_mpi_input_open(sl_mpi_input *in, sl_backend backend, uint32_t offset, char *msg, size_t len,
                      sl_err *err)
{
    in->s = NULL;
    in->ref_ok = 0;
    int rc = sl_session_open(&in->s, in->x, in->len, in->dt, backend, offset, msg, len, err) ? 1 : 0;
    if ((rc = sl_mpi_agree(in->comm, rc, err))) {
        sl_session_close(in->s);
        in->s = NULL;
        return rc;
    }
    const sl_state_kind *k = sl_state_kind_find("exact");
    size_t bytes = sl_state_blob_bytes(k, in->dt);
    unsigned char *a = malloc(bytes), *b = malloc(bytes);
    sl_exact *acc = sl_exact_new();
    rc = (!a || !b || !acc) ? SL_FAIL1(err, "out of memory for the exact state") : 0;
    if (!rc && sl_state_blob_sum(k, in->x, in->len, in->dt, a, err)) rc = 1;
    if (!(rc = sl_mpi_agree(in->comm, rc, err))) {
        MPI_Datatype t;
        SL_MPI_CK(MPI_Type_contiguous((int)bytes, MPI_BYTE, &t));
        SL_MPI_CK(MPI_Type_commit(&t));
        state_allreduce(in->comm, a, b, bytes, t);
        SL_MPI_CK(MPI_Type_free(&t));
        /* max |x| over the ranks (the binned bound's m): NaN anywhere gives NaN */
        const double m = sl_max_abs(in->x, in->len, in->dt, 1);
        int nan = m != m, any_nan = 0;
        double mm = nan ? 0.0 : m, all_max = 0.0;
        SL_MPI_CK(MPI_Allreduce(&nan, &any_nan, 1, MPI_INT, MPI_MAX, in->comm));
        SL_MPI_CK(MPI_Allreduce(&mm, &all_max, 1, MPI_DOUBLE, MPI_MAX, in->comm));
        if (sl_exact_load(acc, b + SL_STATE_HDR)) rc = SL_FAIL1(err, "merged exact state is malformed");
        else if (sl_reference_from_exact(&in->ref, acc, in->dt, err)) rc = 1;
        else {
            in->ref.maxabs = any_nan ? NAN : all_max;
            in->ref_ok = 1;
        }
        if (rc) in->ref_ok = 0;
        rc = sl_mpi_agree(in->comm, rc, err);
    }
    free(a);
    free(b);
    sl_exact_free(acc);
    if (rc) {
        sl_mpi_input_close(in);
        return rc;
    }
    return 0;
}

void sl_mpi_input_close(sl_mpi_input *in)
{
    if (in->s) sl_session_close(in->s);
    in->s = NULL;
    if (in->ref_ok) sl_reference_clear(&in->ref);
    in->ref_ok = 0;
}

/* ---- one variant, one strategy -------------------------------------------------------------- */
static double now_ms(void) { return MPI_Wtime() * 1e3; }

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, sl_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* a + b in dt (a and b values of dt). 16-bit: the double sum rounded once to the format, which is
 * the correctly rounded 16-bit add: a + b is exact in double when the exponents differ by at most
 * 45 (every float16 pair; 8 + 45 bits), and beyond that b is far below half an ulp of a, where
 * the double's own rounding cannot reach a 16-bit midpoint. */
static double add_in(sl_dtype dt, double a, double b)
{
    if (dt == SL_F32) return (double)((float)a + (float)b);
    if (dt == SL_F64) return a + b;
    return sl_half_round(a + b, dt);
}

/* MPI_SUM of 16-bit values carried in doubles: inout = in + inout in the format (add_in). */
static void half_sum_fn(sl_dtype dt, const void *in, void *inout, int len)
{
    const double *a = in;
    double *b = inout;
    for (int i = 0; i < len; i++) b[i] = add_in(dt, a[i], b[i]);
}
static void f16_sum_fn(void *in, void *inout, int *len, MPI_Datatype *t) { (void)t; half_sum_fn(SL_F16, in, inout, *len); }
static void bf16_sum_fn(void *in, void *inout, int *len, MPI_Datatype *t) { (void)t; half_sum_fn(SL_BF16, in, inout, *len); }

static MPI_Op half_sum_op(sl_dtype dt)
{
    MPI_Op *op = &g_half_sum[dt == SL_BF16];
    if (*op == MPI_OP_NULL) SL_MPI_CK(MPI_Op_create(dt == SL_BF16 ? bf16_sum_fn : f16_sum_fn, 1, op));
    return *op;
}

/* mpi-sum or ordered of one partial (a value of dt); *res valid on rank 0 (mpi-sum: everywhere). */
static void combine_value(MPI_Comm comm, int rank, int size, sl_combine how, sl_dtype dt, double partial,
                          double *gathered, double *res)
{
    if (how == SL_COMBINE_MPI_SUM) {
        if (dt == SL_F32) {
            float p = (float)partial, r = 0;
            SL_MPI_CK(MPI_Allreduce(&p, &r, 1, MPI_FLOAT, MPI_SUM, comm));
            *res = r;
        } else {
            double r = 0;
            SL_MPI_CK(MPI_Allreduce(&partial, &r, 1, MPI_DOUBLE,
                                    sl_dtype_is_half(dt) ? half_sum_op(dt) : MPI_SUM, comm));
            *res = r;
        }
        return;
    }
    SL_MPI_CK(MPI_Gather(&partial, 1, MPI_DOUBLE, gathered, 1, MPI_DOUBLE, 0, comm));
    if (rank != 0) return;
    double acc = gathered[0];
    for (int r = 1; r < size; r++) acc = add_in(dt, acc, gathered[r]);
    *res = acc;
}

static int same_bits(double a, double b)
{
    if (isnan(a) && isnan(b)) return 1;
    return !memcmp(&a, &b, sizeof a);
}

/* Whether v can run on the whole input here (same answer on every rank). */
static int cannot_run(const sl_mpi_input *in, const sl_variant *v, sl_combine how, sl_err *err)
{
    if (sl_combine_is_nccl(how) && !in->nccl)
        return sl_err_set(err, "%s needs a build with NCCL and a GPU per rank", sl_combine_name(how)), 1;
    if (!(v->dtypes & SL_DTYPE_MASK(in->dt)))
        return sl_err_set(err, "does not take %s input", sl_dtype_name(in->dt)), 1;
    if (v->max_n && in->n > v->max_n)
        return sl_err_set(err, "accepts at most n = %llu", (unsigned long long)v->max_n), 1;
    if (sl_combine_is_state(how) && !sl_state_kind_find(v->name))
        return sl_err_set(err, "has no mergeable state (the %s combine is for order-independent "
                               "variants: superacc, exact, reproducible)", sl_combine_name(how)), 1;
    return 0;
}

int sl_mpi_measure(sl_mpi_input *in, const sl_variant *v, sl_combine how, const sl_launch *req,
                   int reps, int check_twin, sl_mpi_row *out, sl_err *err)
{
    memset(out, 0, sizeof *out);
    sl_row_empty(&out->row, "cpu", in->dt, in->n);
    out->row.variant = v;
    out->combine = how;
    out->ranks = in->size;
    out->state_check = -1;
    if (cannot_run(in, v, how, err)) return 1;
    const int rank = in->rank, size = in->size;
    double *partial = calloc((size_t)reps, sizeof *partial);
    double *result = calloc((size_t)reps, sizeof *result);
    double *tloc = calloc((size_t)reps, sizeof *tloc), *tcomb = calloc((size_t)reps, sizeof *tcomb);
    double *tone = calloc((size_t)reps, sizeof *tone), *tmax = calloc((size_t)reps, sizeof *tmax);
    double *gathered = calloc((size_t)size, sizeof *gathered);
    unsigned char *blob = NULL, *merged = NULL;
    const sl_state_kind *k = sl_combine_is_state(how) ? sl_state_kind_find(v->name) : NULL;
    size_t bytes = k ? sl_state_blob_bytes(k, in->dt) : 0;
    if (k) {
        blob = malloc(bytes);
        merged = malloc(bytes);
    }
    int rc = 0, twin_ok = 1, twin_checked = 0;
    const char *backend = "cpu";
    sl_launch cfg;
    memset(&cfg, 0, sizeof cfg);
    /* codes: 1 this variant/strategy cannot run here (a skip), SL_MPI_FAILED a failure (the
     * caller stops) */
    if (!partial || !result || !tloc || !tcomb || !tone || !tmax || !gathered || (k && (!blob || !merged)))
        rc = (sl_err_set(err, "out of memory"), SL_MPI_FAILED);

    /* the local step: the state (the twin's accumulation, timed R times), or R runs of v */
    if (!rc && k) {
        for (int r = 0; r < reps && !rc; r++) {
            double t0 = now_ms();
            if (sl_state_blob_sum(k, in->x, in->len, in->dt, blob, err)) rc = 1;
            tloc[r] = now_ms() - t0;
        }
        backend = !strcmp(v->name, "exact") ? "reference" : "cpu";
        if (!rc && v->gpu && sl_session_on_gpu(in->s)) {   /* the GPU's local sum, checked */
            sl_row lr;
            int m = sl_measure(in->s, v, req, 1, 0, &lr, err);
            if (m < 0) rc = SL_MPI_FAILED;
            else if (m == 0) {
                out->state_check = same_bits(lr.result, sl_state_blob_finish(blob));
                cfg = lr.cfg;
                sl_row_free(&lr);
            }
        }
    } else if (!rc) {
        sl_row lr;
        int m = sl_measure_results(in->s, v, req, reps, check_twin, &lr, partial, err);
        /* a skip here (no twin on this backend) is the same on every rank; a failure (m < 0: the
         * run or its check failed) is one, not a skip */
        if (m != 0) rc = m < 0 ? SL_MPI_FAILED : 1;
        else {
            /* a reference row holds one result (lr.reps = 1): every repetition is that one */
            for (int r = lr.reps; r < reps; r++) partial[r] = partial[lr.reps - 1];
            for (int r = 0; r < reps; r++) tloc[r] = lr.time_ms_median;   /* per-rep times: median */
            backend = lr.backend;
            cfg = lr.cfg;
            twin_checked = lr.twin_checked;
            twin_ok = !lr.twin_checked || lr.twin_match;
            sl_row_free(&lr);
        }
    }
    if ((rc = sl_mpi_agree(in->comm, rc, err))) goto done;

    /* the combine, timed; then one double's MPI_Allreduce, timed alike */
    MPI_Datatype t = MPI_DATATYPE_NULL;
    if (k) {
        SL_MPI_CK(MPI_Type_contiguous((int)bytes, MPI_BYTE, &t));
        SL_MPI_CK(MPI_Type_commit(&t));
    }
    for (int r = 0; r < reps; r++) {
        SL_MPI_CK(MPI_Barrier(in->comm));
        double t0 = now_ms();
        if (k && how == SL_COMBINE_STATE) {
            state_allreduce(in->comm, blob, merged, bytes, t);
            result[r] = sl_state_blob_finish(merged);
        } else if (k) {   /* the integer limbs: over MPI or NCCL */
            sl_err xe = {{0}};
            memcpy(merged, blob, bytes);
            sl_state_exchange x = {mpi_max_i32, mpi_sum_i64, &in->comm, size};
            int xr = how == SL_COMBINE_LIMBS ? sl_state_blob_allreduce(merged, &x, &xe)
                                             : sl_nccl_state_allreduce(in->nccl, size, merged, &xe);
            if (xr) {   /* out of memory only: the other ranks wait in the collective */
                fprintf(stderr, "sumlab: rank %d: %s: %s\n", g_world_rank, sl_combine_name(how), xe.msg);
                MPI_Abort(MPI_COMM_WORLD, 1);
                exit(1);
            }
            result[r] = sl_state_blob_finish(merged);
        } else if (how == SL_COMBINE_NCCL_SUM) {
            sl_nccl_sum_value(in->nccl, in->dt, partial[r], &result[r], err);
        } else {
            combine_value(in->comm, rank, size, how, in->dt, partial[r], gathered, &result[r]);
        }
        tcomb[r] = now_ms() - t0;
    }
    if (k) SL_MPI_CK(MPI_Type_free(&t));
    for (int r = 0; r < reps; r++) {
        double one = 1.0, sum = 0;
        SL_MPI_CK(MPI_Barrier(in->comm));
        double t0 = now_ms();
        SL_MPI_CK(MPI_Allreduce(&one, &sum, 1, MPI_DOUBLE, MPI_SUM, in->comm));
        tone[r] = now_ms() - t0;
    }

    /* figures over the ranks: slowest combine per rep, local times, distinct results */
    double lmed = median(tloc, reps), lmax = 0, lmin = 0;
    SL_MPI_CK(MPI_Reduce(&lmed, &lmax, 1, MPI_DOUBLE, MPI_MAX, 0, in->comm));
    SL_MPI_CK(MPI_Reduce(&lmed, &lmin, 1, MPI_DOUBLE, MPI_MIN, 0, in->comm));
    SL_MPI_CK(MPI_Reduce(tcomb, tmax, reps, MPI_DOUBLE, MPI_MAX, 0, in->comm));
    memcpy(tcomb, tmax, (size_t)reps * sizeof *tcomb);
    SL_MPI_CK(MPI_Reduce(tone, tmax, reps, MPI_DOUBLE, MPI_MAX, 0, in->comm));
    memcpy(tone, tmax, (size_t)reps * sizeof *tone);
    int ok_all = 1, sc = out->state_check, sc_min = sc, sc_max = sc;
    SL_MPI_CK(MPI_Reduce(&twin_ok, &ok_all, 1, MPI_INT, MPI_MIN, 0, in->comm));
    SL_MPI_CK(MPI_Reduce(&sc, &sc_min, 1, MPI_INT, MPI_MIN, 0, in->comm));
    SL_MPI_CK(MPI_Reduce(&sc, &sc_max, 1, MPI_INT, MPI_MAX, 0, in->comm));
    double mine = how == SL_COMBINE_ORDERED ? 0.0 : result[0];
    SL_MPI_CK(MPI_Gather(&mine, 1, MPI_DOUBLE, gathered, 1, MPI_DOUBLE, 0, in->comm));
    if (rank == 0) {
        out->rank_distinct = how == SL_COMBINE_ORDERED ? 1 : sl_count_distinct(gathered, size);
        out->local_ms_max = lmax;
        out->local_ms_min = lmin;
        out->combine_ms = median(tcomb, reps);
        out->allreduce1_ms = median(tone, reps);
        out->state_check = sc_max < 0 ? -1 : sc_min == 0 ? 0 : 1;
        sl_row *row = &out->row;
        row->backend = backend;
        row->have_run = row->have_cfg = 1;
        row->reps = reps;
        row->cfg = cfg;
        row->twin_checked = twin_checked;
        row->twin_match = ok_all;
        for (int r = 0; r < reps; r++) tmax[r] = lmax + tcomb[r];   /* local (slowest) + combine */
        if (sl_judge_row(&in->ref, v, row, result, tmax)) rc = (sl_err_set(err, "out of memory"), SL_MPI_FAILED);
        else if (!sl_combine_is_state(how))   /* partials combined by adds: K - 1 more roundings */
            sl_judge_set_bound(&in->ref, row,
                               sl_combined_bound(v, &in->ref, row->n, row->dt, &row->cfg, size));
    }
    rc = sl_mpi_agree(in->comm, rc, err);
done:
    free(partial);
    free(result);
    free(tloc);
    free(tcomb);
    free(tone);
    free(tmax);
    free(gathered);
    free(blob);
    free(merged);
    if (rc) sl_row_free(&out->row);
    return rc;
}

void sl_mpi_rows_free(sl_mpi_row *rows, size_t n)
{
    for (size_t i = 0; rows && i < n; i++) sl_row_free(&rows[i].row);
    free(rows);
}

/* ---- `sumlab sum FILE` across ranks ----------------------------------------------------------- */
/* The ranks must sum one input: every rank reads the whole input's bytes once (its own slice into
 * its buffer, the others through a scratch chunk) and hashes each rank's slice; the slice hashes
 * combined in rank order, with n and the format, are that rank's view of the input. The ranks
 * compare views before anything is summed, and this rank's buffer must hash as its slice did.
 * Hash: four lanes of xxHash64's round over little-endian 64-bit words, the lanes, the byte
 * count and the zero-padded tail mixed by SplitMix64's finaliser (not cryptographic: it tells
 * copies apart, not an adversary's collisions). */
typedef struct {
    uint64_t v[4], bytes;   /* four lanes over 32-byte stripes (xxHash64's round), bytes seen */
    unsigned char tail[32];
    unsigned ntail;
} slice_hash;

#define HP1 0x9e3779b185ebca87ull
#define HP2 0xc2b2ae3d27d4eb4full

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
static uint64_t le64(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);   /* one load (a byte-by-byte build runs 2.5x slower at -O2) */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

static void hash_init(slice_hash *sh)
{
    memset(sh, 0, sizeof *sh);
    for (int l = 0; l < 4; l++) sh->v[l] = mix64(0x5eed5eed5eed5eedull + (uint64_t)l);
}

/* len bytes into the hash; every call but a slice's last passes a multiple of 32 bytes. */
static void hash_add(slice_hash *sh, const unsigned char *p, uint64_t len)
{
    uint64_t v0 = sh->v[0], v1 = sh->v[1], v2 = sh->v[2], v3 = sh->v[3], i = 0;
    for (; i + 32 <= len; i += 32) {
        v0 = rotl64(v0 + le64(p + i) * HP2, 31) * HP1;
        v1 = rotl64(v1 + le64(p + i + 8) * HP2, 31) * HP1;
        v2 = rotl64(v2 + le64(p + i + 16) * HP2, 31) * HP1;
        v3 = rotl64(v3 + le64(p + i + 24) * HP2, 31) * HP1;
    }
    sh->v[0] = v0, sh->v[1] = v1, sh->v[2] = v2, sh->v[3] = v3;
    sh->ntail = (unsigned)(len - i);
    memcpy(sh->tail, p + i, sh->ntail);
    sh->bytes += len;
}
static uint64_t hash_end(const slice_hash *sh)
{
    uint64_t h = mix64(sh->bytes);
    for (int l = 0; l < 4; l++) h = mix64(h ^ sh->v[l]);
    unsigned char t[32] = {0};
    memcpy(t, sh->tail, sh->ntail);
    for (int w = 0; w < 4; w++) h = mix64(h ^ le64(t + 8 * w));
    return h;
}
static uint64_t hash_of(const void *p, uint64_t len)
{
    slice_hash sh;
    hash_init(&sh);
    hash_add(&sh, p, len);
    return hash_end(&sh);
}

/* What a rank saw: n, the format, the payload's bytes, the hash of its whole input (its slice
 * hashes combined in rank order) and the hash of the slice it keeps (from its buffer). */
typedef struct {
    uint64_t n, bytes, whole, mine_buf, mine_file;
    int64_t dt;
    uint64_t opts;     /* the hash of the options every rank must share (opts_hash) */
} input_view;

/* The options that decide what the ranks combine: the variants (by name, in order), the
 * combines, the repetitions, the twin check, the offset, the backend and the launch request.
 * Ranks started with other ones would combine other variants' partials under one name. */
static uint64_t opts_hash(const sl_mpi_sum_opts *o)
{
    uint64_t h = mix64((uint64_t)o->nvariants + 1);
    for (size_t i = 0; i < o->nvariants; i++) {   /* each name with its NUL */
        const char *nm = o->variants[i]->name;
        h = mix64(h ^ hash_of(nm, strlen(nm) + 1));
    }
    const int64_t w[] = {(int64_t)o->combines, o->reps, o->check_twin, (int64_t)o->offset, (int64_t)o->backend,
                         (int64_t)o->req.block, (int64_t)o->req.grid, (int64_t)o->req.items, (int64_t)o->req.accs};
    for (size_t i = 0; i < sizeof w / sizeof *w; i++) h = mix64(h ^ (uint64_t)w[i]) + i;
    return h;
}

static uint64_t combine_hashes(const uint64_t *hs, int k, const input_view *v)
{
    uint64_t c = mix64(v->n ^ mix64((uint64_t)v->dt + 1));
    for (int r = 0; r < k; r++) c = mix64(c ^ hs[r]) + (uint64_t)r;
    return c;
}

/* Reads [at, at + want) of fd into buf. 0, or 2 with err set. */
static int pread_all(int fd, const char *path, unsigned char *buf, uint64_t want, off_t at, sl_err *err)
{
    uint64_t got = 0;
    while (got < want) {
        ssize_t k2 = pread(fd, buf + got, (size_t)(want - got), at + (off_t)got);
        if (k2 < 0 && errno == EINTR) continue;
        if (k2 <= 0)
            return sl_err_set(err, "'%s': pread of bytes [%llu, %llu) failed: %s", path,
                              (unsigned long long)(at + (off_t)got), (unsigned long long)(at + (off_t)want),
                              k2 < 0 ? strerror(errno) : "unexpected end of file"), 2;
        got += (uint64_t)k2;
    }
    return 0;
}

#define HASH_CHUNK ((uint64_t)1 << 22)   /* bytes of another rank's slice read at once (multiple of 8) */

/* This rank's slice of path: pread of a .npy/raw file's bytes, or the whole .npz member read and
 * cut; every slice hashed into view (above). 0, 2 (bad input) or 1 (runtime), err set. */
static int read_slice(const char *path, int have_dtype, sl_dtype raw_dt, int k, int r, void **x,
                      uint64_t *lo, uint64_t *len, uint64_t *n, sl_dtype *dt, input_view *view,
                      sl_err *err)
{
    sl_array_layout lay;
    *x = NULL;
    memset(view, 0, sizeof *view);
    uint64_t *hs = calloc((size_t)k, sizeof *hs);
    if (!hs) return sl_err_set(err, "out of memory"), 1;
    if (sl_array_layout_get(path, have_dtype, raw_dt, &lay, err)) {
        /* an .npz member: every rank reads it whole and keeps its slice */
        if (!strstr(err->msg, "no byte layout")) {
            free(hs);
            return 2;
        }
        void *all = NULL;
        if (sl_array_load(path, have_dtype, raw_dt, &all, n, dt, err)) {
            free(hs);
            return 2;
        }
        sl_mpi_slice(*n, k, r, lo, len);
        size_t sz = sl_dtype_size(*dt);
        *x = malloc(*len ? *len * sz : 1);
        if (!*x) {
            free(all);
            free(hs);
            return sl_err_set(err, "out of memory for %llu values", (unsigned long long)*len), 1;
        }
        memcpy(*x, (char *)all + *lo * sz, *len * sz);
        for (int s = 0; s < k; s++) {
            uint64_t slo, slen;
            sl_mpi_slice(*n, k, s, &slo, &slen);
            hs[s] = hash_of((char *)all + slo * sz, slen * sz);
        }
        free(all);
        view->n = *n;
        view->dt = (int64_t)*dt;
        view->bytes = *n * sz;
        view->mine_file = hs[r];
        view->mine_buf = hash_of(*x, *len * sz);
        view->whole = combine_hashes(hs, k, view);
        free(hs);
        return 0;
    }
    *n = lay.n;
    *dt = lay.dt;
    if (have_dtype && lay.dt != raw_dt) {
        free(hs);
        return sl_err_set(err, "'%s' holds %s values but --dtype %s was given", path,
                          sl_dtype_name(lay.dt), sl_dtype_name(raw_dt)), 2;
    }
    sl_mpi_slice(lay.n, k, r, lo, len);
    const size_t sz = sl_dtype_size(lay.dt);
    unsigned char *buf = malloc(*len ? *len * sz : 1);
    unsigned char *chunk = k > 1 ? malloc((size_t)HASH_CHUNK) : NULL;
    if (!buf || (k > 1 && !chunk)) {
        free(buf);
        free(chunk);
        free(hs);
        return sl_err_set(err, "out of memory for %llu values", (unsigned long long)*len), 1;
    }
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        free(buf);
        free(chunk);
        free(hs);
        return sl_err_set(err, "cannot open '%s': %s", path, strerror(errno)), 2;
    }
    int rc = 0;
    for (int s = 0; s < k && !rc; s++) {
        uint64_t slo, slen;
        sl_mpi_slice(lay.n, k, s, &slo, &slen);
        const off_t at = (off_t)(lay.offset + slo * sz);
        if (s == r) {
            rc = pread_all(fd, path, buf, slen * sz, at, err);
            if (!rc) hs[s] = hash_of(buf, slen * sz);
            continue;
        }
        slice_hash sh;
        hash_init(&sh);
        for (uint64_t done = 0; done < slen * sz && !rc; done += HASH_CHUNK) {
            uint64_t part = slen * sz - done < HASH_CHUNK ? slen * sz - done : HASH_CHUNK;
            rc = pread_all(fd, path, chunk, part, at + (off_t)done, err);
            if (!rc) hash_add(&sh, chunk, part);
        }
        hs[s] = hash_end(&sh);
    }
    close(fd);
    free(chunk);
    if (rc) {
        free(buf);
        free(hs);
        return rc;
    }
    view->n = lay.n;
    view->dt = (int64_t)lay.dt;
    view->bytes = lay.n * sz;
    view->mine_file = view->mine_buf = hs[r];
    view->whole = combine_hashes(hs, k, view);
    free(hs);
    if (lay.swap) {
        for (uint64_t i = 0; i < *len; i++)
            for (size_t a = 0, b = sz - 1; a < b; a++, b--) {
                unsigned char c = buf[i * sz + a];
                buf[i * sz + a] = buf[i * sz + b];
                buf[i * sz + b] = c;
            }
    }
    *x = buf;
    return 0;
}

/* Every rank's view gathered and compared: 0 when all ranks read the same input, else 1 on every
 * rank with err (rank 0) naming the first rank whose input differs from rank 0's. Collective. */
static int views_agree(MPI_Comm comm, int rank, int size, const input_view *mine, sl_err *err)
{
    input_view *all = calloc((size_t)size, sizeof *all);
    int oom = !all, any_oom = 0;
    SL_MPI_CK(MPI_Allreduce(&oom, &any_oom, 1, MPI_INT, MPI_MAX, comm));
    if (any_oom) {
        free(all);
        return SL_FAIL1(err, "out of memory comparing the ranks' inputs");
    }
    SL_MPI_CK(MPI_Allgather(mine, (int)sizeof *mine, MPI_BYTE, all, (int)sizeof *mine, MPI_BYTE, comm));
    int bad = -1;
    const char *what = "";
    for (int q = 0; q < size && bad < 0; q++) {
        if (all[q].mine_buf != all[q].mine_file) bad = q, what = "its slice changed while it was read";
        else if (all[q].opts != all[0].opts) bad = q, what = "different options";
        else if (all[q].n != all[0].n || all[q].dt != all[0].dt) bad = q, what = "different length or format";
        else if (all[q].whole != all[0].whole) bad = q, what = "different values";
    }
    if (bad >= 0 && rank == 0 && all[bad].opts != all[0].opts && all[bad].mine_buf == all[bad].mine_file)
        sl_err_set(err, "rank %d was started with other options than rank 0 (the variants, --combine, --reps, "
                        "--check-twin, --offset, the backend or the launch request): every rank must run the same "
                        "command", bad);
    else if (bad >= 0 && rank == 0) {
        const input_view *a = &all[0], *b = &all[bad];
        sl_err_set(err, "the ranks read different inputs (%s): rank 0 saw n = %llu %s values (%llu bytes, "
                        "checksum 0x%016llx), rank %d saw n = %llu %s values (%llu bytes, checksum 0x%016llx); "
                        "every rank must read the same file",
                   what, (unsigned long long)a->n, sl_dtype_name((sl_dtype)a->dt), (unsigned long long)a->bytes,
                   (unsigned long long)a->whole, bad, (unsigned long long)b->n,
                   sl_dtype_name((sl_dtype)b->dt), (unsigned long long)b->bytes, (unsigned long long)b->whole);
    }
    free(all);
    return bad >= 0;
}

int sl_mpi_sum_file(const sl_mpi_sum_opts *o, sl_mpi_row **rows, size_t *nrows, sl_reference *ref,
                    int *have_ref, int *is_root, char *backend_msg, size_t msg_len, sl_err *err)
{
    *have_ref = 0;
    *rows = NULL;
    *nrows = 0;
    *is_root = 1;
    if (sl_mpi_start(err)) return 1;
    sl_mpi_input in;
    memset(&in, 0, sizeof in);
    in.comm = MPI_COMM_WORLD;
    SL_MPI_CK(MPI_Comm_rank(in.comm, &in.rank));
    SL_MPI_CK(MPI_Comm_size(in.comm, &in.size));
    *is_root = in.rank == 0;
    void *x = NULL;
    input_view view;
    int rc = read_slice(o->path, o->have_dtype, o->raw_dt, in.size, in.rank, &x, &in.lo, &in.len,
                        &in.n, &in.dt, &view, err);
    view.opts = opts_hash(o);
    if ((rc = sl_mpi_agree(in.comm, rc, err)) || (rc = views_agree(in.comm, in.rank, in.size, &view, err))) {
        free(x);
        return rc;
    }
    in.x = x;
    if ((rc = sl_mpi_input_open(&in, o->backend, o->offset, backend_msg, msg_len, err))) {
        free(x);
        return rc;
    }
    size_t cap = o->nvariants * SL_COMBINE_COUNT;
    sl_mpi_row *out = calloc(cap ? cap : 1, sizeof *out);
    rc = out ? 0 : (SL_FAIL1(err, "out of memory"));
    rc = sl_mpi_agree(in.comm, rc, err);
    int check_twin = o->check_twin >= 0 ? o->check_twin : in.len <= ((uint64_t)1 << 24);
    int bad = 0;
    for (size_t i = 0; !rc && i < o->nvariants; i++) {
        for (int c = 0; c < SL_COMBINE_COUNT && !rc; c++) {
            if (!(o->combines & (1u << c))) continue;
            const sl_variant *v = o->variants[i];
            if (sl_combine_is_state((sl_combine)c) && !sl_state_kind_find(v->name)) continue;  /* silently: not applicable */
            sl_mpi_row row;
            sl_err e = {{0}};
            int m = sl_mpi_measure(&in, v, (sl_combine)c, &o->req, o->reps, check_twin, &row, &e);
            if (m == 1) {
                if (in.rank == 0) fprintf(stderr, "sumlab sum: skipping %s (%s): %s\n", v->name,
                                          sl_combine_name((sl_combine)c), e.msg);
                continue;
            }
            if (m) {
                *err = e;
                rc = m == SL_MPI_FAILED ? 1 : m;   /* a runtime failure: exit 1 (2 is bad input) */
                break;
            }
            if (in.rank == 0) {
                /* the self-checks (sl_verdict.h) against the bound of the combination */
                sl_verdict_facts f;
                sl_verdict vd;
                sl_verdict_facts_of_row(&in.ref, v, &row.row, &f);
                f.bound = row.row.bound;
                f.where = sl_combine_name((sl_combine)c);
                /* partial results combined by adds: at most run-to-run whatever the variant's class
                 * (the state combine merges exactly and keeps it) */
                if (!sl_combine_is_state((sl_combine)c) && f.claim > SL_DET_RUN_TO_RUN) f.claim = SL_DET_RUN_TO_RUN;
                for (int k = 0; k < sl_verdict_decide(&in.ref, &f, &vd); k++)
                    fprintf(stderr, "sumlab sum: %s%s\n", vd.msg[k],
                            row.row.twin_checked && !row.row.twin_match ? " (on at least one rank)" : "");
                bad |= vd.failed > 0;
                if (row.state_check == 0) {
                    fprintf(stderr, "sumlab sum: SELF-CHECK FAILED: %s: a rank's GPU result differs from "
                                    "the rounding of its state\n", v->name);
                    bad = 1;
                }
                out[(*nrows)++] = row;
            } else {
                sl_row_free(&row.row);
            }
        }
    }
    if (in.rank == 0 && in.ref_ok) {   /* the caller's now (sl_reference_clear) */
        memcpy(ref, &in.ref, sizeof *ref);
        in.ref_ok = 0;
        *have_ref = 1;
    }
    sl_mpi_input_close(&in);
    free(x);
    *rows = out;
    return rc ? rc : bad;
}
