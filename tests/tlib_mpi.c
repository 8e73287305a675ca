/* tlib_mpi.c: sumlab_mpi_allreduce_state and sumlab_mpi_allreduce_limbs (MPI_MAX of the index,
 * MPI_SUM of int64 limbs) under mpirun (tests/tlib_mpi.sh runs K = 1..8 ranks):
 * every rank builds the same input, adds its own uneven slice to a state in random pieces,
 * allreduces, and checks the merged bytes against one state over the whole input; rank 0 prints
 * each state's result and a digest of its bytes for both forms (the script compares them over K).
 * Then states of different variants across ranks: SUMLAB_EINVAL on every rank, in both forms. Exit 0, or 1 on a failure. */
#include <math.h>
#include <mpi.h>
#include "sl_test.h"
#include "sumlab/half.h"
#include "sumlab/sumlab_mpi.h"

static uint64_t digest(const unsigned char *b, size_t n)
{
    uint64_t h = 1469598103934665603ull;   /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, K;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &K);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const uint64_t n = 200003;
    const char *variants[] = {"superacc", "reproducible", "exact"};
    for (int di = 0; di < SL_NDTYPES; di++) {
        const sl_dtype dt = (sl_dtype)di;
        const size_t es = sl_dtype_size(dt);
        unsigned char *x = malloc(n * es);
        sl_test_rng = sl_test_seed() + (uint64_t)di;   /* the same input on every rank */
        for (uint64_t i = 0; i < n; i++) {
            double u = (double)(sl_test_rand64() >> 11) * 0x1p-53 - 0.5;
            double v = ldexp(u, (int)(sl_test_rand64() % 25) - 12);
            if (dt == SL_F64) memcpy(x + i * es, &v, 8);
            else if (dt == SL_F32) { float f = (float)v; memcpy(x + i * es, &f, 4); }
            else { uint16_t h = sl_half_from_double(v, dt); memcpy(x + i * es, &h, 2); }
        }
        /* an uneven split: rank r gets [n r^2 / K^2, n (r+1)^2 / K^2) */
        uint64_t lo = n * (uint64_t)rank * rank / ((uint64_t)K * K);
        uint64_t hi = n * (uint64_t)(rank + 1) * (rank + 1) / ((uint64_t)K * K);
        for (int vi = 0; vi < 3; vi++) {
            sumlab_state *s = NULL, *whole = NULL;
            sl_err e = {{0}};
            CHECK(sumlab_state_new(variants[vi], dt, &s, &e) == SUMLAB_OK, "%s", e.msg);
            CHECK(sumlab_state_new(variants[vi], dt, &whole, &e) == SUMLAB_OK, "%s", e.msg);
            if (!s || !whole) break;
            sl_test_rng = sl_test_seed() * 31 + (uint64_t)rank;   /* pieces differ per rank */
            for (uint64_t i = lo; i < hi;) {
                uint64_t m = 1 + sl_test_rand64() % 40000;
                if (m > hi - i) m = hi - i;
                CHECK(sumlab_state_add(s, x + i * es, m, &e) == SUMLAB_OK, "%s", e.msg);
                i += m;
            }
            CHECK(sumlab_state_add(whole, x, n, &e) == SUMLAB_OK, "%s", e.msg);
            size_t z = sumlab_state_size(s);
            unsigned char *a = malloc(z), *b = malloc(z), *c = malloc(z);
            sumlab_state *lim = NULL;   /* the same slice, through the limb form */
            CHECK(sumlab_state_save(s, c, z, &e) == SUMLAB_OK && sumlab_state_load(c, z, &lim, &e) == SUMLAB_OK,
                  "%s", e.msg);
            CHECK(sumlab_mpi_allreduce_state(s, MPI_COMM_WORLD, &e) == SUMLAB_OK, "%s", e.msg);
            CHECK(sumlab_mpi_allreduce_limbs(lim, MPI_COMM_WORLD, &e) == SUMLAB_OK, "%s", e.msg);
            CHECK(sumlab_state_save(s, a, z, &e) == SUMLAB_OK && sumlab_state_save(whole, b, z, &e) == SUMLAB_OK,
                  "%s", e.msg);
            CHECK(!memcmp(a, b, z), "rank %d of %d: %s %s: allreduced bytes differ from the whole input's",
                  rank, K, variants[vi], sl_dtype_name(dt));
            CHECK(sumlab_state_save(lim, c, z, &e) == SUMLAB_OK, "%s", e.msg);
            CHECK(!memcmp(c, b, z), "rank %d of %d: %s %s: limb-allreduced bytes differ from the whole input's",
                  rank, K, variants[vi], sl_dtype_name(dt));
            double r = NAN, rl = NAN;
            CHECK(sumlab_state_result(s, &r, &e) == SUMLAB_OK, "%s", e.msg);
            CHECK(sumlab_state_result(lim, &rl, &e) == SUMLAB_OK, "%s", e.msg);
            if (rank == 0) {
                printf("%s %s %a %016llx\n", variants[vi], sl_dtype_name(dt), r,
                       (unsigned long long)digest(a, z));
                printf("%s %s limbs %a %016llx\n", variants[vi], sl_dtype_name(dt), rl,
                       (unsigned long long)digest(c, z));
            }
            free(a);
            free(b);
            free(c);
            sumlab_state_free(lim);
            sumlab_state_free(s);
            sumlab_state_free(whole);
        }
        free(x);
    }
    /* ranks holding states of different variants: refused on every rank, states unchanged */
    if (K > 1) {
        sumlab_state *s = NULL;
        sl_err e = {{0}};
        CHECK(sumlab_state_new(rank ? "reproducible" : "superacc", SL_F32, &s, &e) == SUMLAB_OK, "%s", e.msg);
        float one = 1.0f;
        CHECK(sumlab_state_add(s, &one, 1, &e) == SUMLAB_OK, "%s", e.msg);
        e.msg[0] = '\0';
        CHECK(sumlab_mpi_allreduce_state(s, MPI_COMM_WORLD, &e) == SUMLAB_EINVAL && e.msg[0],
              "rank %d: mixed variants not refused", rank);
        double r = NAN;
        CHECK(sumlab_state_result(s, &r, &e) == SUMLAB_OK && r == 1.0, "rank %d: state changed (%a)", rank, r);
        e.msg[0] = '\0';
        CHECK(sumlab_mpi_allreduce_limbs(s, MPI_COMM_WORLD, &e) == SUMLAB_EINVAL && e.msg[0],
              "rank %d: mixed variants not refused by the limb form", rank);
        CHECK(sumlab_state_result(s, &r, &e) == SUMLAB_OK && r == 1.0, "rank %d: state changed (%a)", rank, r);
        sumlab_state_free(s);
    }
    /* every rank's failures count */
    long fails = sl_test_failures, all = 0;
    MPI_Allreduce(&fails, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) fprintf(stderr, "tlib_mpi K=%d: %ld failed checks over the ranks\n", K, all);
    MPI_Finalize();
    return all ? 1 : 0;
}
