/* tnccl.c (gpu): sumlab_nccl_allreduce_limbs (ncclMax on the index, ncclSum on int64 limbs) over
 * one communicator of every visible GPU (ncclCommInitAll, one thread per rank; K = 1 on a one-GPU
 * machine): each rank adds its uneven slice from device memory, allreduces, and its bytes must
 * equal one host state over the whole input and sumlab_state_merge of the slices' states, for
 * superacc, reproducible and exact in four dtypes; then across NCCL_ALGO's choice the bits do not
 * move (tests/nccl.cmake reruns it as tnccl_tree and tnccl_ring under NCCL_ALGO). A state of
 * another dtype on one rank (K >= 2) is refused on every rank. Returns 77 without a GPU. */
#include <cuda_runtime_api.h>
#include <math.h>
#include <nccl.h>
#include <pthread.h>
#include "sl_test.h"
#include "sumlab/half.h"
#include "sumlab/sumlab_nccl.h"

#define MAXR 16

typedef struct {
    int rank, K;
    ncclComm_t comm;
    const unsigned char *x;    /* host input (whole) */
    uint64_t lo, hi;           /* this rank's slice */
    sl_dtype dt;
    const char *variant;
    int mixed;                 /* 1: rank 1 passes a state of another dtype */
    unsigned char *out;        /* the allreduced bytes */
    size_t size;
    sumlab_status st;
    sl_err err;
} job;

static void *run_rank(void *arg)
{
    job *j = arg;
    const size_t es = sl_dtype_size(j->dt);
    sumlab_state *s = NULL;
    void *d_x = NULL;
    cudaStream_t str = NULL;
    j->st = SUMLAB_ECUDA;
    int dev = -1;
    if (ncclCommCuDevice(j->comm, &dev) != ncclSuccess || cudaSetDevice(dev) != cudaSuccess ||
        cudaStreamCreate(&str) != cudaSuccess) {
        snprintf(j->err.msg, sizeof j->err.msg, "rank %d: device set-up failed", j->rank);
        return NULL;
    }
    const sl_dtype dt = j->mixed && j->rank == 1 ? (j->dt == SL_F64 ? SL_F32 : SL_F64) : j->dt;
    if ((j->st = sumlab_state_new(j->variant, dt, &s, &j->err))) goto done;
    const uint64_t m = j->hi - j->lo;
    if (m && dt == j->dt) {
        if (cudaMalloc(&d_x, m * es) != cudaSuccess ||
            cudaMemcpy(d_x, j->x + j->lo * es, m * es, cudaMemcpyHostToDevice) != cudaSuccess) {
            j->st = SUMLAB_ECUDA;
            snprintf(j->err.msg, sizeof j->err.msg, "rank %d: device input failed", j->rank);
            goto done;
        }
        if ((j->st = sumlab_state_add_device(s, d_x, m, str, &j->err))) goto done;
    }
    j->st = sumlab_nccl_allreduce_limbs(s, j->comm, str, &j->err);
    if (j->st == SUMLAB_OK) {
        j->size = sumlab_state_size(s);
        j->out = malloc(j->size);
        if (j->out) j->st = sumlab_state_save(s, j->out, j->size, &j->err);
    }
done:
    cudaFree(d_x);
    cudaStreamDestroy(str);
    sumlab_state_free(s);
    return NULL;
}

static void fill(unsigned char *x, uint64_t n, sl_dtype dt)
{
    const size_t es = sl_dtype_size(dt);
    for (uint64_t i = 0; i < n; i++) {
        double u = (double)(sl_test_rand64() >> 11) * 0x1p-53 - 0.5;
        double v = ldexp(u, (int)(sl_test_rand64() % 60) - 30);   /* 60 binades: several indices */
        if (dt == SL_F64) memcpy(x + i * es, &v, 8);
        else if (dt == SL_F32) { float f = (float)v; memcpy(x + i * es, &f, 4); }
        else { uint16_t h = sl_half_from_double(v, dt); memcpy(x + i * es, &h, 2); }
    }
}

/* One collective over K ranks (threads); every rank's outcome in jobs. */
static void collective(job *jobs, int K)
{
    pthread_t tid[MAXR];
    for (int r = 0; r < K; r++) CHECK(!pthread_create(&tid[r], NULL, run_rank, &jobs[r]), "pthread_create");
    for (int r = 0; r < K; r++) pthread_join(tid[r], NULL);
}

int main(void)
{
    int K = 0;
    if (cudaGetDeviceCount(&K) != cudaSuccess || K < 1) {
        printf("tnccl: no GPU: skipped\n");
        return 77;
    }
    if (K > MAXR) K = MAXR;
    int devs[MAXR];
    for (int r = 0; r < K; r++) devs[r] = r;
    ncclComm_t comm[MAXR];
    ncclResult_t nr = ncclCommInitAll(comm, K, devs);
    if (nr != ncclSuccess) {
        fprintf(stderr, "FAIL: ncclCommInitAll over %d GPUs: %s\n", K, ncclGetErrorString(nr));
        return 1;
    }
    int ver = 0;
    CHECK(ncclGetVersion(&ver) == ncclSuccess, "ncclGetVersion");
    fprintf(stderr, "tnccl: NCCL %d, K = %d ranks (one per GPU), NCCL_ALGO=%s\n", ver, K,
            getenv("NCCL_ALGO") ? getenv("NCCL_ALGO") : "(NCCL's choice)");
    const uint64_t n = 300007;
    const char *variants[] = {"superacc", "reproducible", "exact"};
    for (int di = 0; di < SL_NDTYPES; di++) {
        const sl_dtype dt = (sl_dtype)di;
        const size_t es = sl_dtype_size(dt);
        unsigned char *x = malloc(n * es);
        CHECK(x != NULL, "out of memory");
        if (!x) break;
        sl_test_rng = sl_test_seed() + (uint64_t)di;
        fill(x, n, dt);
        for (int vi = 0; vi < 3; vi++) {
            sumlab_state *whole = NULL, *merged = NULL;
            sl_err e = {{0}};
            CHECK(sumlab_state_new(variants[vi], dt, &whole, &e) == SUMLAB_OK, "%s", e.msg);
            CHECK(sumlab_state_new(variants[vi], dt, &merged, &e) == SUMLAB_OK, "%s", e.msg);
            if (!whole || !merged) break;
            CHECK(sumlab_state_add(whole, x, n, &e) == SUMLAB_OK, "%s", e.msg);
            job jobs[MAXR];
            for (int r = 0; r < K; r++) {   /* uneven: rank r gets [n r^2 / K^2, n (r+1)^2 / K^2) */
                jobs[r] = (job){r, K, comm[r], x, n * (uint64_t)r * r / ((uint64_t)K * K),
                                n * (uint64_t)(r + 1) * (r + 1) / ((uint64_t)K * K), dt, variants[vi], 0,
                                NULL, 0, SUMLAB_OK, {{0}}};
                sumlab_state *p = NULL;   /* the state merge of the same slices, on the host */
                CHECK(sumlab_state_new(variants[vi], dt, &p, &e) == SUMLAB_OK, "%s", e.msg);
                CHECK(sumlab_state_add(p, x + jobs[r].lo * es, jobs[r].hi - jobs[r].lo, &e) == SUMLAB_OK, "%s", e.msg);
                CHECK(sumlab_state_merge(merged, p, &e) == SUMLAB_OK, "%s", e.msg);
                sumlab_state_free(p);
            }
            collective(jobs, K);
            const size_t z = sumlab_state_size(whole);
            unsigned char *w = malloc(z), *mg = malloc(z);
            CHECK(w && mg && sumlab_state_save(whole, w, z, &e) == SUMLAB_OK &&
                  sumlab_state_save(merged, mg, z, &e) == SUMLAB_OK, "%s", e.msg);
            double r0 = NAN;
            CHECK(sumlab_state_result(whole, &r0, &e) == SUMLAB_OK, "%s", e.msg);
            for (int r = 0; r < K; r++) {
                CHECK(jobs[r].st == SUMLAB_OK, "%s %s rank %d: %s", variants[vi], sl_dtype_name(dt), r, jobs[r].err.msg);
                CHECK(jobs[r].out && jobs[r].size == z && w && !memcmp(jobs[r].out, w, z),
                      "%s %s rank %d of %d: allreduced bytes differ from one state over the whole input",
                      variants[vi], sl_dtype_name(dt), r, K);
                CHECK(jobs[r].out && jobs[r].size == z && mg && !memcmp(jobs[r].out, mg, z),
                      "%s %s rank %d of %d: allreduced bytes differ from the state merge", variants[vi],
                      sl_dtype_name(dt), r, K);
                free(jobs[r].out);
            }
            printf("%s %s K=%d %a\n", variants[vi], sl_dtype_name(dt), K, r0);
            free(w);
            free(mg);
            sumlab_state_free(whole);
            sumlab_state_free(merged);
        }
        /* a state of another dtype on rank 1: refused on every rank */
        if (K >= 2) {
            job jobs[MAXR];
            for (int r = 0; r < K; r++)
                jobs[r] = (job){r, K, comm[r], x, 0, 0, dt, "reproducible", 1, NULL, 0, SUMLAB_OK, {{0}}};
            collective(jobs, K);
            for (int r = 0; r < K; r++) {
                CHECK(jobs[r].st == SUMLAB_EINVAL && jobs[r].err.msg[0], "rank %d: mixed dtypes not refused (%d)", r,
                      (int)jobs[r].st);
                free(jobs[r].out);
            }
        }
        free(x);
    }
    for (int r = 0; r < K; r++) CHECK(ncclCommDestroy(comm[r]) == ncclSuccess, "ncclCommDestroy");
    return sl_test_done("tnccl");
}
