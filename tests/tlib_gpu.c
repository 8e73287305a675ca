/* tlib_gpu.c (gpu): libsumlab's device side against its host side, through the public API alone:
 * sumlab_reduce_device equals sumlab_reduce_host bit for bit for every deterministic variant with
 * a kernel and a twin, in four dtypes, at several n (non-multiples of the vector width among
 * them), aligned and misaligned by one element (x + 1, the host copy at the same alignment), on
 * a created stream and the legacy default stream, before and after sumlab_release; the device
 * state equals the host state byte for byte; host memory given as device memory is refused.
 * Returns 77 (skip) without a GPU. */
#include <cuda_runtime_api.h>
#include <math.h>
#include "sl_test.h"
#include "sumlab/half.h"
#include "sumlab/sumlab.h"

static int same(double a, double b) { return (isnan(a) && isnan(b)) || !memcmp(&a, &b, sizeof a); }

#define CU(call)                                                                                \
    do {                                                                                        \
        cudaError_t e_ = (call);                                                                \
        if (e_ != cudaSuccess) {                                                                \
            fprintf(stderr, "FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)

static void fill(unsigned char *x, uint64_t n, sl_dtype dt)
{
    const size_t es = sl_dtype_size(dt);
    for (uint64_t i = 0; i < n; i++) {
        double u = (double)(sl_test_rand64() >> 11) * 0x1p-53 - 0.5;
        double v = ldexp(u, (int)(sl_test_rand64() % 25) - 12);
        if (dt == SL_F64) memcpy(x + i * es, &v, 8);
        else if (dt == SL_F32) { float f = (float)v; memcpy(x + i * es, &f, 4); }
        else { uint16_t h = sl_half_from_double(v, dt); memcpy(x + i * es, &h, 2); }
    }
}

static double from_device(const void *d_r, sl_dtype dt)
{
    unsigned char b[8];
    CU(cudaMemcpy(b, d_r, sl_dtype_size(dt), cudaMemcpyDeviceToHost));
    if (dt == SL_F64) { double d; memcpy(&d, b, 8); return d; }
    if (dt == SL_F32) { float f; memcpy(&f, b, 4); return (double)f; }
    uint16_t h;
    memcpy(&h, b, 2);
    return sl_half_to_double(h, dt);
}

int main(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1 || getenv("SUMLAB_NO_GPU")) {
        printf("tlib_gpu: no GPU: skipped\n");
        return SL_TEST_SKIP;
    }
    sl_test_rng = sl_test_seed();
    int dev = 0, sms = 0;
    CU(cudaGetDevice(&dev));
    CU(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    sumlab_launch launch = {0, 0, 0, (uint32_t)sms};   /* the host twin derives for this GPU */
    cudaStream_t stream;
    CU(cudaStreamCreate(&stream));
    const uint64_t ns[] = {1, 3, 1000, 65537, 1000003};
    const uint64_t nmax = 1000003;
    unsigned char *h = aligned_alloc(256, (size_t)(nmax + 1) * 8 + 256);
    void *d = NULL, *d_r = NULL;
    CU(cudaMalloc(&d, (size_t)(nmax + 1) * 8));
    CU(cudaMalloc(&d_r, 16));
    long compared = 0;
    for (int round = 0; round < 2; round++) {
        for (int di = 0; di < SL_NDTYPES; di++) {
            const sl_dtype dt = (sl_dtype)di;
            const size_t es = sl_dtype_size(dt);
            for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++) {
                const uint64_t n = ns[ni];
                fill(h, n + 1, dt);
                CU(cudaMemcpy(d, h, (size_t)(n + 1) * es, cudaMemcpyHostToDevice));
                for (int off = 0; off < 2; off++) {
                    const unsigned char *hx = h + off * es;
                    const unsigned char *dx = (const unsigned char *)d + off * es;
                    for (size_t i = 0; i < sumlab_variant_count(); i++) {
                        sumlab_variant_info vi;
                        sl_err e = {{0}};
                        CHECK(sumlab_variant_at(i, &vi, &e) == SUMLAB_OK, "%s", e.msg);
                        if (!vi.has_gpu || !vi.has_cpu || !strcmp(vi.determinism, "nondeterministic") ||
                            !(vi.dtypes & SL_DTYPE_MASK(dt)) || (vi.max_n && n > vi.max_n))
                            continue;
                        /* a two-input operation (dot) reads the array twice: x . x */
                        sumlab_op_info oi;
                        CHECK(sumlab_op_find(vi.op, &oi, &e) == SUMLAB_OK, "%s", e.msg);
                        const int two = oi.inputs == 2;
                        double want = NAN, got;
                        sumlab_status st = sumlab_reduce_host(vi.op, vi.name, hx, two ? hx : NULL, n, dt,
                                                              &launch, &want, &e);
                        CHECK(st == SUMLAB_OK, "%s host: %s", vi.name, e.msg);
                        CU(cudaMemsetAsync(d_r, 0xff, 16, round ? NULL : stream));
                        st = sumlab_reduce_device(vi.op, vi.name, dx, two ? dx : NULL, n, dt, NULL, d_r,
                                                  round ? NULL : (void *)stream, &e);
                        CHECK(st == SUMLAB_OK, "%s device: status %d: %s", vi.name, (int)st, e.msg);
                        CU(cudaStreamSynchronize(round ? NULL : stream));
                        got = from_device(d_r, dt);
                        CHECK(same(got, want), "%s %s n=%llu offset %d round %d: device %a, host %a", vi.name,
                              sl_dtype_name(dt), (unsigned long long)n, off, round, got, want);
                        compared++;
                    }
                }
            }
        }
        sumlab_release();   /* the second round allocates its scratch afresh */
    }
    CHECK(compared > 100, "only %ld comparisons", compared);

    /* device states: the same bytes as the host's (small: one malloc'ed piece; large: pieces of
     * 2^20 values through page-locked memory) */
    const char *states[] = {"superacc", "reproducible", "exact"};
    const uint64_t sn[] = {1000, nmax};
    for (int s = 0; s < 3; s++)
        for (int di = 0; di < 2 * SL_NDTYPES; di++) {
            const sl_dtype dt = (sl_dtype)(di % SL_NDTYPES);
            const uint64_t m = sn[di / SL_NDTYPES];
            const size_t es = sl_dtype_size(dt);
            fill(h, m, dt);
            CU(cudaMemcpy(d, h, (size_t)m * es, cudaMemcpyHostToDevice));
            sumlab_state *a = NULL, *b = NULL;
            sl_err e = {{0}};
            CHECK(sumlab_state_new(states[s], dt, &a, &e) == SUMLAB_OK, "%s", e.msg);
            CHECK(sumlab_state_new(states[s], dt, &b, &e) == SUMLAB_OK, "%s", e.msg);
            if (!a || !b) continue;
            CHECK(sumlab_state_add(a, h, m, &e) == SUMLAB_OK, "%s", e.msg);
            CHECK(sumlab_state_add_device(b, d, m, stream, &e) == SUMLAB_OK, "%s", e.msg);
            size_t z = sumlab_state_size(a);
            unsigned char *ba = malloc(z), *bb = malloc(z);
            CHECK(sumlab_state_save(a, ba, z, &e) == SUMLAB_OK && sumlab_state_save(b, bb, z, &e) == SUMLAB_OK,
                  "%s", e.msg);
            CHECK(!memcmp(ba, bb, z), "%s %s n=%llu: device state bytes differ from the host's", states[s],
                  sl_dtype_name(dt), (unsigned long long)m);
            free(ba);
            free(bb);
            sumlab_state_free(a);
            sumlab_state_free(b);
        }

    /* a launch request the kernel refuses (block 100: no power of two where one is needed) is
     * SUMLAB_EINVAL wherever the twin refuses it too */
    long refused = 0;
    for (size_t i = 0; i < sumlab_variant_count(); i++) {
        sumlab_variant_info vi;
        sl_err e1 = {{0}}, e2 = {{0}};
        sumlab_launch bad = {100, 0, 0, (uint32_t)sms};
        if (sumlab_variant_at(i, &vi, NULL) || !vi.has_gpu || !vi.has_cpu || !(vi.dtypes & SL_DTYPE_MASK(SL_F32)))
            continue;
        double hr;
        if (sumlab_reduce_host(vi.op, vi.name, h, NULL, 1000, SL_F32, &bad, &hr, &e1) != SUMLAB_EINVAL) continue;
        sumlab_status st = sumlab_reduce_device(vi.op, vi.name, d, NULL, 1000, SL_F32, &bad, d_r, NULL, &e2);
        CHECK(st == SUMLAB_EINVAL && e2.msg[0], "%s block 100: device status %d (%s), host refused (%s)",
              vi.name, (int)st, e2.msg, e1.msg);
        refused++;
    }
    CHECK(refused > 0, "no variant refused block 100");
    CU(cudaDeviceSynchronize());

    /* host memory handed over as device memory: refused, nothing launched */
    sl_err e = {{0}};
    CHECK(sumlab_reduce_device("sum", "serial", h, NULL, 10, SL_F32, NULL, d_r, NULL, &e) == SUMLAB_EINVAL &&
              e.msg[0], "host x accepted as device memory");
    CHECK(sumlab_reduce_device("sum", "serial", d, NULL, 10, SL_F32, NULL, h, NULL, &e) == SUMLAB_EINVAL,
          "host result accepted as device memory");
    CU(cudaDeviceSynchronize());
    /* a stream per call, 100 of them (all alive until the end: a destroyed stream's handle may
     * come back from cudaStreamCreate): the scratch held stays at 64 buffers (the least recently
     * used freed for a new stream; one was kept per stream ever used), every result right, also
     * on a stream whose buffer was freed and taken again; sumlab_release leaves none */
    {
        size_t nb = 0, bytes = 0;
        double want = NAN;
        cudaStream_t sk[100];
        fill(h, 5000, SL_F32);
        CU(cudaMemcpy(d, h, 5000 * sizeof(float), cudaMemcpyHostToDevice));
        CHECK(sumlab_reduce_host("sum", "superacc", h, NULL, 5000, SL_F32, NULL, &want, &e) == SUMLAB_OK, "%s", e.msg);
        sumlab_release();
        for (int k = 0; k < 100; k++) CU(cudaStreamCreate(&sk[k]));
        for (int k = 0; k < 110; k++) {   /* the last 10 back on streams 0..9, evicted long ago */
            cudaStream_t s = sk[k % 100];
            CU(cudaMemsetAsync(d_r, 0xff, 16, s));
            CHECK(sumlab_reduce_device("sum", "superacc", d, NULL, 5000, SL_F32, NULL, d_r, s, &e) == SUMLAB_OK,
                  "call %d: %s", k, e.msg);
            CU(cudaStreamSynchronize(s));
            const double got = from_device(d_r, SL_F32);
            CHECK(same(got, want), "call %d: %a, host %a", k, got, want);
            sumlab_cache_info(&nb, &bytes, NULL);
            CHECK(nb == (size_t)(k < 64 ? k + 1 : 64) && bytes > 0, "after %d calls: %zu scratch buffers (%zu bytes)",
                  k + 1, nb, bytes);
        }
        for (int k = 0; k < 100; k++) CU(cudaStreamDestroy(sk[k]));
        sumlab_release();
        sumlab_cache_info(&nb, &bytes, NULL);
        CHECK(nb == 0 && bytes == 0, "after sumlab_release: %zu buffers, %zu bytes", nb, bytes);
    }
    sumlab_release();
    CU(cudaFree(d));
    CU(cudaFree(d_r));
    CU(cudaStreamDestroy(stream));
    free(h);
    return sl_test_done("tlib_gpu");
}
