/* tio.c: tests of the .npy and raw readers/writers: bit-exact round trips (both dtypes, n = 0,
 * 1, large-ish), hand-written v1/v2/v3 headers, and every malformed-file case giving an error. */
#define _POSIX_C_SOURCE 200809L
#include "sl_test.h"
#include "sl_datasets.h"
#include <math.h>
#include <stdarg.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[256];
static char made[128][320];
static char baddir[320];
static int nmade;

/* A path in the temp dir, remembered for cleanup. */
static const char *tpath(const char *name)
{
    if (nmade >= 128) return "/nonexistent/too-many";
    snprintf(made[nmade], sizeof made[nmade], "%s/%s", tmpdir, name);
    return made[nmade++];
}

static void put_bytes(const char *path, const void *p, size_t len)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL, "cannot create %s", path);
    if (!f) return;
    CHECK(fwrite(p, 1, len, f) == len, "short write %s", path);
    fclose(f);
}

/* A .npy file with the given version, header dict text (padded here to a 64-byte boundary),
 * `ndata` bytes of data. */
static void put_npy(const char *path, int major, int minor, const char *dict, size_t ndata)
{
    unsigned char buf[1024 + 4096];
    size_t pre = major == 1 ? 10 : 12, dl = strlen(dict);
    size_t total = (pre + dl + 1 + 63) / 64 * 64, hl = total - pre;
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (unsigned char)major, buf[7] = (unsigned char)minor;
    for (size_t k = 0; k < pre - 8; k++) buf[8 + k] = (unsigned char)((hl >> (8 * k)) & 0xFF);
    memcpy(buf + pre, dict, dl);
    memset(buf + pre + dl, ' ', hl - dl - 1);
    buf[total - 1] = '\n';
    for (size_t k = 0; k < ndata && total + k < sizeof buf; k++) buf[total + k] = (unsigned char)(k * 37 + 1);
    put_bytes(path, buf, total + ndata);
}

static void expect_fail(int rc, const sl_err *err, void *data, const char *path, const char *what, const char *word)
{
    CHECK(rc != 0, "%s: accepted", what);
    for (const char *c = err->msg; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) {
            CHECK(0, "%s: message has control byte 0x%02x: '%s'", what, (unsigned char)*c, err->msg);
            break;
        }
    if (getenv("SUMLAB_VERBOSE")) fprintf(stderr, "  %-24s -> %s\n", what, err->msg);
    CHECK(data == NULL, "%s: data pointer set on failure", what);
    CHECK(strstr(err->msg, path) != NULL, "%s: message '%s' lacks the path", what, err->msg);
    if (word) CHECK(strstr(err->msg, word) != NULL, "%s: message '%s' lacks '%s'", what, err->msg, word);
    free(data);
}

static void *generate(const char *family, const char *kv, sl_dtype dt, uint64_t n)
{
    const sl_dataset *ds = sl_dataset_find(family);
    sl_params p;
    sl_err err;
    sl_params_defaults(ds, &p);
    if (kv) CHECK(sl_params_set(ds, &p, kv, &err) == 0, "%s", err.msg);
    void *buf = malloc(n ? n * sl_dtype_size(dt) : 1);
    CHECK(sl_dataset_generate(ds, dt, sl_test_seed(), n, &p, 0, n, buf, &err) == 0, "%s", err.msg);
    return buf;
}

static void test_round_trips(void)
{
    const uint64_t ns[] = {0, 1, 7, 1u << 20};
    const sl_dtype dts[] = {SL_F32, SL_F64};
    for (int t = 0; t < 2; t++)
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
            for (int fam = 0; fam < 2; fam++) {
                sl_dtype dt = dts[t];
                uint64_t n = ns[k];
                size_t sz = sl_dtype_size(dt);
                /* Full-range values with subnormals, or NaN/Inf: bits must survive. */
                void *src = fam ? generate("special", "kind=nan-inf", dt, n)
                                : generate("log-uniform", "subnormals=1", dt, n);
                sl_err err = {{0}};
                char name[64];
                snprintf(name, sizeof name, "rt_%s_%llu_%d.npy", sl_dtype_name(dt), (unsigned long long)n, fam);
                const char *np = tpath(name);
                CHECK(sl_npy_write(np, src, n, dt, &err) == 0, "%s", err.msg);
                void *got = NULL;
                uint64_t gn = 99;
                sl_dtype gdt = (sl_dtype)(1 - (int)dt);
                CHECK(sl_npy_read(np, &got, &gn, &gdt, &err) == 0, "%s", err.msg);
                CHECK(gn == n && gdt == dt && got && !memcmp(got, src, n * sz), "npy %s n=%llu differs",
                      sl_dtype_name(dt), (unsigned long long)n);
                free(got);
                /* Layout numpy expects: 64-byte aligned data, '\n'-terminated header. */
                struct stat st;
                CHECK(stat(np, &st) == 0 && (uint64_t)st.st_size % sz == 0 &&
                          ((uint64_t)st.st_size - n * sz) % 64 == 0,
                      "npy size %lld", (long long)st.st_size);
                /* sl_array_load picks .npy by magic even when a raw dtype is offered. */
                got = NULL;
                CHECK(sl_array_load(np, 1, (sl_dtype)(1 - (int)dt), &got, &gn, &gdt, &err) == 0 && gn == n &&
                          gdt == dt && !memcmp(got, src, n * sz),
                      "array_load npy: %s", err.msg);
                free(got);
                snprintf(name, sizeof name, "rt_%s_%llu_%d.bin", sl_dtype_name(dt), (unsigned long long)n, fam);
                const char *rp = tpath(name);
                CHECK(sl_raw_write(rp, src, n, dt, &err) == 0, "%s", err.msg);
                got = NULL;
                CHECK(sl_raw_read(rp, dt, &got, &gn, &err) == 0, "%s", err.msg);
                CHECK(gn == n && got && !memcmp(got, src, n * sz), "raw %s n=%llu differs", sl_dtype_name(dt),
                      (unsigned long long)n);
                CHECK(stat(rp, &st) == 0 && (uint64_t)st.st_size == n * sz, "raw size");
                free(got);
                got = NULL;
                CHECK(sl_array_load(rp, 1, dt, &got, &gn, &gdt, &err) == 0 && gn == n && gdt == dt &&
                          !memcmp(got, src, n * sz),
                      "array_load raw: %s", err.msg);
                free(got);
                free(src);
            }
}

/* Headers numpy can write: versions 2.0 and 3.0, key order, quotes, spacing. */
static void test_header_variants(void)
{
    struct { int major; const char *dict; sl_dtype dt; uint64_t n; } ok[] = {
        {1, "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }", SL_F64, 3},
        {2, "{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }", SL_F32, 5},
        {3, "{\"shape\": ( 4 , ), \"descr\": \"<f4\",  \"fortran_order\": False}", SL_F32, 4},
        {1, "{'fortran_order':False,'shape':(0,),'descr':'<f8'}", SL_F64, 0},
        /* form feed is whitespace to Python, hence to numpy's reader */
        {3, "{'descr':\f'<f4',\f'fortran_order': False, 'shape': (2,)\f}", SL_F32, 2},
    };
    for (size_t k = 0; k < sizeof ok / sizeof ok[0]; k++) {
        char name[32];
        snprintf(name, sizeof name, "var%zu.npy", k);
        const char *path = tpath(name);
        put_npy(path, ok[k].major, 0, ok[k].dict, ok[k].n * sl_dtype_size(ok[k].dt));
        void *data = NULL;
        uint64_t n = 99;
        sl_dtype dt;
        sl_err err = {{0}};
        int rc = sl_npy_read(path, &data, &n, &dt, &err);
        CHECK(rc == 0 && n == ok[k].n && dt == ok[k].dt, "variant %zu: rc %d n %llu: %s", k, rc,
              (unsigned long long)n, err.msg);
        if (rc == 0 && n > 0) { /* the bytes put_npy wrote, in little-endian order */
            const unsigned char *b = data;
            CHECK(b[0] == 1 && b[1] == 38, "variant %zu: data bytes %u %u", k, b[0], b[1]);
        }
        free(data);
    }
}

static void test_malformed(void)
{
    sl_err err;
    void *data;
    uint64_t n;
    sl_dtype dt;
    struct { const char *name; int major, minor; const char *dict; size_t ndata; const char *word; } bad[] = {
        {"i4.npy", 1, 0, "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }", 12, "'<i4'"},
        {"bef4.npy", 1, 0, "{'descr': '>f4', 'fortran_order': False, 'shape': (3,), }", 12, "'>f4'"},
        {"f2.npy", 1, 0, "{'descr': '<f2', 'fortran_order': False, 'shape': (3,), }", 6, "dtype"},
        {"2d.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", 48, "2 dimensions"},
        {"0d.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", 4, "0 dimensions"},
        {"notuple.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (3), }", 12, "shape"},
        {"fortran.npy", 1, 0, "{'descr': '<f4', 'fortran_order': True, 'shape': (3,), }", 12, "fortran"},
        {"nokey.npy", 1, 0, "{'descr': '<f4', 'shape': (3,), }", 12, "fortran_order"},
        {"extrakey.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'x': 1}", 12, "'x'"},
        {"notdict.npy", 1, 0, "['descr', '<f4']", 12, "dict"},
        {"short.npy", 1, 0, "{'descr': '<f8', 'fortran_order': False, 'shape': (10,), }", 79, "shorter"},
        {"trailing.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", 13, "trailing"},
        {"huge.npy", 1, 0, "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,), }", 8, "2^64"},
        {"maxu64.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (18446744073709551615,), }", 8, "shorter"},
        /* two values for one key: numpy keeps the last, we refuse the damaged header */
        {"dupshape.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'shape': (1,), }", 4, "twice"},
        {"dupdescr.npy", 2, 0, "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), 'descr': '<f4'}", 4, "twice"},
        /* (010,): octal 8 to Python 2, an error to Python 3, never 10 */
        {"octal.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (010,), }", 40, "shape"},
        {"pipef4.npy", 1, 0, "{'descr': '|f4', 'fortran_order': False, 'shape': (3,), }", 12, "'|f4'"},
        {"eqf4.npy", 1, 0, "{'descr': '=f4', 'fortran_order': False, 'shape': (3,), }", 12, "'=f4'"},
        {"neg.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (-3,), }", 12, "shape"},
        {"noshape.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': , }", 12, "shape"},
        /* control bytes quoted from a damaged header come back escaped: one line of text */
        {"nlkey.npy", 1, 0, "{'a\nb': 1, 'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", 12, "'a\\nb'"},
        {"nldescr.npy", 1, 0, "{'descr': '<f4\n', 'fortran_order': False, 'shape': (3,), }", 12, "'<f4\\n'"},
        {"nlnear.npy", 3, 0, "{'descr': '<f4',\n\x1b[2J\n'fortran_order' False, 'shape': (3,), }", 12, "\\x1b[2J\\n'fortran_order'"},
        {"bign.npy", 1, 0, "{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904,), }", 8, "shorter"},
        {"v4.npy", 4, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", 12, "version"},
        {"v11.npy", 1, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", 12, "version"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        const char *path = tpath(bad[k].name);
        put_npy(path, bad[k].major, bad[k].minor, bad[k].dict, bad[k].ndata);
        data = NULL;
        err.msg[0] = '\0';
        expect_fail(sl_npy_read(path, &data, &n, &dt, &err), &err, data, path, bad[k].name, bad[k].word);
        data = NULL; /* also through the auto-detecting loader */
        expect_fail(sl_array_load(path, 1, SL_F32, &data, &n, &dt, &err), &err, data, path, bad[k].name, NULL);
    }
    /* Byte-level damage: bad magic, cut headers, announced length past the end of file. */
    const char *p;
    p = tpath("magic.npy");
    put_bytes(p, "\x93NUMPZ\x01\x00\x10\x00{}", 12);
    data = NULL;
    expect_fail(sl_npy_read(p, &data, &n, &dt, &err), &err, data, p, "bad magic", "magic");
    data = NULL;
    expect_fail(sl_array_load(p, 1, SL_F32, &data, &n, &dt, &err), &err, data, p, "bad magic (.npy name)", "magic");
    p = tpath("cut1.npy");
    put_bytes(p, "\x93NUMPY\x01", 7);
    data = NULL;
    expect_fail(sl_npy_read(p, &data, &n, &dt, &err), &err, data, p, "no version", "truncated");
    p = tpath("cut2.npy");
    put_bytes(p, "\x93NUMPY\x02\x00\x10", 9);
    data = NULL;
    expect_fail(sl_npy_read(p, &data, &n, &dt, &err), &err, data, p, "no length", "truncated");
    p = tpath("cut3.npy");
    put_bytes(p, "\x93NUMPY\x01\x00\x76\x00{'descr': '<f4',", 26);
    data = NULL;
    expect_fail(sl_npy_read(p, &data, &n, &dt, &err), &err, data, p, "header past EOF", "truncated");
    p = tpath("empty.npy");
    put_bytes(p, "", 0);
    data = NULL;
    expect_fail(sl_npy_read(p, &data, &n, &dt, &err), &err, data, p, "empty .npy", "magic");
    /* Raw: size not a multiple of the element; no dtype given; unreadable paths. */
    p = tpath("odd.bin");
    put_bytes(p, "0123456789ab", 12);
    data = NULL;
    expect_fail(sl_raw_read(p, SL_F64, &data, &n, &err), &err, data, p, "raw 12 bytes f64", "multiple");
    data = NULL;
    CHECK(sl_raw_read(p, SL_F32, &data, &n, &err) == 0 && n == 3, "raw 12 bytes f32: %s", err.msg);
    free(data);
    data = NULL;
    expect_fail(sl_array_load(p, 0, SL_F32, &data, &n, &dt, &err), &err, data, p, "raw without dtype", "dtype");
    p = tpath("missing.npy");
    data = NULL;
    expect_fail(sl_npy_read(p, &data, &n, &dt, &err), &err, data, p, "missing file", "cannot open");
    data = NULL;
    expect_fail(sl_raw_read(p, SL_F32, &data, &n, &err), &err, data, p, "missing raw", "cannot open");
    data = NULL;
    expect_fail(sl_array_load(tmpdir, 1, SL_F32, &data, &n, &dt, &err), &err, data, tmpdir, "a directory",
                "regular");
    /* A FIFO is refused at once: open() must not wait for a writer (alarm: fail, not hang). */
    p = tpath("fifo.npy");
    CHECK(mkfifo(p, 0600) == 0, "mkfifo %s", p);
    alarm(20);
    data = NULL;
    expect_fail(sl_array_load(p, 1, SL_F32, &data, &n, &dt, &err), &err, data, p, "a FIFO", "regular");
    data = NULL;
    expect_fail(sl_npy_read(p, &data, &n, &dt, &err), &err, data, p, "a FIFO (npy)", "regular");
    data = NULL;
    expect_fail(sl_raw_read(p, SL_F64, &data, &n, &err), &err, data, p, "a FIFO (raw)", "regular");
    alarm(0);
    float one = 1.0f;
    snprintf(baddir, sizeof baddir, "%s/no/such/dir/x.npy", tmpdir);
    CHECK(sl_npy_write(baddir, &one, 1, SL_F32, &err) != 0 && strstr(err.msg, "no/such"), "write to bad dir");
    CHECK(sl_raw_write(baddir, &one, 1, SL_F32, &err) != 0, "raw write to bad dir");
}

int main(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/tio-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmpdir)) {
        fprintf(stderr, "tio: cannot create a temp dir under %s\n", base && *base ? base : "/tmp");
        return 1;
    }
    test_round_trips();
    test_header_variants();
    test_malformed();
    for (int k = 0; k < nmade; k++)
        if (made[k][0]) unlink(made[k]);
    rmdir(tmpdir);
    return sl_test_done("tio");
}
