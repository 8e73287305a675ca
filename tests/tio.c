/* tio.c: tests of the .npy/.npz and raw readers/writers: bit-exact round trips (both dtypes,
 * n = 0, 1, large-ish), hand-written v1/v2/v3 headers, NumPy-written fixtures (N-D, Fortran,
 * big-endian, 0-d, zero-size, np.savez[_compressed]) checked value for value, damaged and
 * hand-built zips, and every malformed-file case giving one clear error. */
#define _POSIX_C_SOURCE 200809L
#include "sl_test.h"
#include "sl_datasets.h"
#include <math.h>
#include <stdarg.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

static char tmpdir[256];
static char made[512][320];
static char baddir[320];
static int nmade;

/* A path in the temp dir, remembered for cleanup. */
static const char *tpath(const char *name)
{
    if (nmade >= 512) return "/nonexistent/too-many";
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

/* Headers numpy can write (versions 2.0 and 3.0, key order, quotes, spacing, big-endian, N-D,
 * 0-d, Fortran order), and headers its reader accepts: Python's literal_eval reads comments,
 * odd whitespace, line joining, both quote styles, trailing commas, grouping parentheses,
 * string concatenation, escapes and prefixes, int spellings. Each verdict here was checked
 * against NumPy 2.4's np.lib.format.read_array. */
static void test_header_variants(void)
{
    struct { int major; const char *dict; sl_dtype dt; uint64_t n; int swapped, ndim; } ok[] = {
        {1, "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }", SL_F64, 3, 0, 1},
        {2, "{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }", SL_F32, 5, 0, 1},
        {3, "{\"shape\": ( 4 , ), \"descr\": \"<f4\",  \"fortran_order\": False}", SL_F32, 4, 0, 1},
        {1, "{'fortran_order':False,'shape':(0,),'descr':'<f8'}", SL_F64, 0, 0, 1},
        /* form feed is whitespace to Python, hence to numpy's reader */
        {3, "{'descr':\f'<f4',\f'fortran_order': False, 'shape': (2,)\f}", SL_F32, 2, 0, 1},
        /* once refused, now read as NumPy writes them */
        {1, "{'descr': '>f4', 'fortran_order': False, 'shape': (3,), }", SL_F32, 3, 1, 1},
        {1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", SL_F32, 12, 0, 2},
        {1, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", SL_F32, 1, 0, 0},
        {1, "{'descr': '<f4', 'fortran_order': True, 'shape': (3,), }", SL_F32, 3, 0, 1},
        /* Python literal syntax */
        {1, "{'descr': '<f4', # the dtype\n 'fortran_order': False, 'shape': (2,),} # done", SL_F32, 2, 0, 1},
        {3, "# a comment line first\n{'descr':'<f4','fortran_order':False,'shape':(2,)}", SL_F32, 2, 0, 1},
        {1, "  \t{ 'descr' :\n '<f4' ,\r\n 'fortran_order' : False ,\t'shape' : ( 2 , ) , }\r\n", SL_F32, 2, 0, 1},
        {1, "\n\f{'descr': \"<f8\", 'fortran_order': (False), 'shape': ((2),)}", SL_F64, 2, 0, 1},
        {2, "{'descr': '<' \"f4\", 'fortran_order': False, 'shape': (0x2,)}", SL_F32, 2, 0, 1},
        {1, "{'descr': u'<f4', 'fortran_order': False, 'shape': (1_0,)}", SL_F32, 10, 0, 1},
        {1, "{'descr': '''<f4''', 'fortran_order': False, 'shape': (+2, 0o1, 0b1)}", SL_F32, 2, 0, 3},
        {1, "{'descr': '\\x3cf4', 'fortran_order': False, 'shape': (2,), }", SL_F32, 2, 0, 1},
        {1, "{'descr': r'>f8', 'fortran_order': False, 'shape': (2,), }", SL_F64, 2, 1, 1},
        {1, "{'descr': '<f4', \\\n 'fortran_order': False, 'shape': (2,)}", SL_F32, 2, 0, 1},
        {1, "({'descr': '<f4', 'fortran_order': False, 'shape': (2,)})", SL_F32, 2, 0, 1},
        {1, "{'descr': '<f4', 'fortran_order': False, 'shape': (-0, 2)}", SL_F32, 0, 0, 2},
        {1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2L,)}", SL_F32, 2, 0, 1}, /* Python 2 */
        {2, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 1), } # caf\xe9 (latin-1)", SL_F32, 2, 0, 2},
        {3, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 1), } # caf\xc3\xa9 (UTF-8)", SL_F32, 2, 0, 2},
        {1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2)}", SL_F32, 2, 0, 11},
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
        if (rc == 0 && n > 0) { /* the bytes put_npy wrote (1, 38, 75, ...), in host order */
            const unsigned char *b = data;
            size_t sz = sl_dtype_size(dt), lo = ok[k].swapped ? sz - 1 : 0, hi = ok[k].swapped ? sz - 2 : 1;
            CHECK(b[lo] == 1 && b[hi] == 38, "variant %zu: data bytes %u %u", k, b[lo], b[hi]);
        }
        free(data);
        sl_array_info info;
        data = NULL;
        rc = sl_array_load_ex(path, 0, SL_F32, &data, &n, &dt, &info, &err);
        CHECK(rc == 0 && n == ok[k].n && info.ndim == ok[k].ndim && info.format == SL_ARRAY_NPY &&
                  info.npy_major == ok[k].major && info.big_endian == ok[k].swapped,
              "variant %zu (load_ex): rc %d ndim %d: %s", k, rc, info.ndim, err.msg);
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
        {"v2.npy", 1, 0, "{'descr': '|V2', 'fortran_order': False, 'shape': (3,), }", 6, "dtype"},
        {"notuple.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (3), }", 12, "shape"},
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
        /* what NumPy's reader refuses (each checked against NumPy 2.4) stays one clear error */
        {"indent.npy", 1, 0, "\n  {'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", 12, "indented"},
        {"long3.npy", 3, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (3L,), }", 12, "shape"},
        {"bytes.npy", 1, 0, "{'descr': b'<f4', 'fortran_order': False, 'shape': (3,), }", 12, "descr"},
        {"fo1.npy", 1, 0, "{'descr': '<f4', 'fortran_order': 1, 'shape': (3,), }", 12, "fortran_order"},
        {"foNone.npy", 1, 0, "{'descr': '<f4', 'fortran_order': None, 'shape': (3,), }", 12, "fortran_order"},
        {"list.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': [3], }", 12, "shape"},
        {"float.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (3.0,), }", 12, "shape"},
        {"bool.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (True,), }", 4, "shape"},
        {"nested.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': ((3,),), }", 12, "shape"},
        {"2commas.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,),, }", 12, "malformed"},
        {"lonecomma.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (,), }", 12, "shape"},
        {"vtab.npy", 1, 0, "{'descr': '<f4',\v'fortran_order': False, 'shape': (3,), }", 12, "malformed"},
        {"backslash.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }\\", 12, "after"},
        {"tupledict.npy", 1, 0, "({'descr': '<f4', 'fortran_order': False, 'shape': (3,), },)", 12, "not a dict"},
        {"under.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (3_,), }", 12, "shape"},
        {"hexbad.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (0x,), }", 12, "shape"},
        {"name.npy", 1, 0, "{'descr': float32, 'fortran_order': False, 'shape': (3,), }", 12, "descr"},
        {"float32.npy", 1, 0, "{'descr': 'float32', 'fortran_order': False, 'shape': (3,), }", 12, "'float32'"},
        {"utf8.npy", 3, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), } # caf\xe9", 12, "UTF-8"},
        {"overflow.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 2), }", 12, "2^64"},
        {"dims65.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,"
                             "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,"
                             "1,1,1,1,1,1,1,1,1), }", 4, "at most 64"},
        {"deep.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': "
                           "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((("
                           "((((((((((((((((((((((3,), }", 12, "deeply"},
        {"escN.npy", 1, 0, "{'descr': '\\N{LESS-THAN SIGN}f4', 'fortran_order': False, 'shape': (3,), }", 12, "descr"},
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

/* ---- NumPy-written fixtures (tests/data/make_npy_fixtures.py) ---------------------------------
 * Value i (C-order index of the element) is exact in its dtype: fx_value recomputes it bit for
 * bit as the generator's value(). The table mirrors the script's FIXTURES and MEMBERS. */
#define FX_DIR SUMLAB_SOURCE_DIR "/tests/data/"

static uint64_t fx_mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static double fx_value(uint64_t seed, uint64_t i, int f64)
{
    if (i == 0) return -0.0;
    if (i == 1) return ldexp(1.0, f64 ? -1074 : -149);
    uint64_t h = fx_mix(seed * 1000003u + i);
    int e = (int)(h & 63) - 32;
    double s = (h >> 6) & 1 ? -1.0 : 1.0;
    if (f64) return s * ldexp((double)((h >> 11) | 1), e - 52);
    return s * ldexp((double)((h >> 40) | 1), e - 23);
}

typedef struct {
    const char *name;
    sl_dtype dt;
    int big, fortran, ndim;
    uint64_t shape[10];
    uint64_t seed;
    int major;
} fixture;

static const fixture fixtures[] = {
    {"np_c3d_f4.npy", SL_F32, 0, 0, 3, {4, 5, 6}, 1, 1},
    {"np_c1d_f8.npy", SL_F64, 0, 0, 1, {10}, 2, 1},
    {"np_f3d_f8.npy", SL_F64, 0, 1, 3, {3, 4, 5}, 3, 1},
    {"np_f2d_f4.npy", SL_F32, 0, 1, 2, {7, 3}, 4, 1},
    {"np_be1d_f4.npy", SL_F32, 1, 0, 1, {17}, 5, 1},
    {"np_be2d_f8.npy", SL_F64, 1, 0, 2, {3, 5}, 6, 1},
    {"np_bef2d_f8.npy", SL_F64, 1, 1, 2, {4, 3}, 7, 1},
    {"np_0d_f8.npy", SL_F64, 0, 0, 0, {0}, 8, 1},
    {"np_0d_be_f4.npy", SL_F32, 1, 0, 0, {0}, 9, 1},
    {"np_empty2d_f4.npy", SL_F32, 0, 0, 2, {0, 5}, 10, 1},
    {"np_empty3d_f8.npy", SL_F64, 0, 0, 3, {3, 0, 2}, 11, 1}, /* written with fortran_order False */
    {"np_v2_2d_f4.npy", SL_F32, 0, 0, 2, {2, 3}, 12, 2},
    {"np_v3_be_f8.npy", SL_F64, 1, 0, 1, {5}, 13, 3},
    {"np_10d_f4.npy", SL_F32, 0, 0, 10, {1, 2, 1, 1, 2, 1, 1, 1, 1, 3}, 14, 1},
};

/* npz members: key (member key.npy), dtype, big-endian, fortran, shape, seed */
static const fixture members[] = {
    {"c3d", SL_F32, 0, 0, 3, {2, 3, 4}, 21, 1},
    {"vec", SL_F64, 0, 0, 1, {9}, 22, 1},
    {"scalar", SL_F64, 1, 0, 0, {0}, 23, 1},
    {"fort", SL_F32, 0, 1, 2, {3, 2}, 24, 1},
    {"be", SL_F32, 1, 0, 1, {6}, 25, 1},
    {"empty", SL_F64, 0, 0, 1, {0}, 26, 1},
};

static uint64_t fx_count(const fixture *fx)
{
    uint64_t n = 1;
    for (int d = 0; d < fx->ndim; d++) n *= fx->shape[d];
    return n;
}

/* Checks every value bit for bit, in the file's memory order, and the info fields. */
static void check_fixture(const char *what, const fixture *fx, const void *data, uint64_t n, sl_dtype dt,
                          const sl_array_info *info)
{
    uint64_t want_n = fx_count(fx);
    CHECK(n == want_n && dt == fx->dt, "%s: n %llu (want %llu), dtype %d", what, (unsigned long long)n,
          (unsigned long long)want_n, (int)dt);
    if (n != want_n || dt != fx->dt || !data) return;
    long bad = 0;
    for (uint64_t p = 0; p < n; p++) {
        /* memory position p -> C-order index of that element */
        uint64_t idx[10], rest = p, c = 0;
        if (fx->fortran)
            for (int d = 0; d < fx->ndim; d++) idx[d] = rest % fx->shape[d], rest /= fx->shape[d];
        else
            for (int d = fx->ndim - 1; d >= 0; d--) idx[d] = rest % fx->shape[d], rest /= fx->shape[d];
        for (int d = 0; d < fx->ndim; d++) c = c * fx->shape[d] + idx[d];
        double v = fx_value(fx->seed, c, dt == SL_F64);
        int same;
        if (dt == SL_F64) same = !memcmp((const double *)data + p, &v, 8);
        else {
            float f = (float)v;
            same = !memcmp((const float *)data + p, &f, 4);
        }
        if (!same && bad++ < 3) CHECK(0, "%s: value at memory position %llu differs", what, (unsigned long long)p);
    }
    CHECK(bad == 0, "%s: %ld values differ", what, bad);
    if (!info) return;
    int host_le = 1;
    {
        const uint16_t one = 1;
        unsigned char b;
        memcpy(&b, &one, 1);
        host_le = b == 1;
    }
    CHECK(info->ndim == fx->ndim && info->n == want_n && info->fortran_order == fx->fortran &&
              info->big_endian == fx->big && info->byte_swapped == (fx->big == host_le),
          "%s: info ndim %d n %llu fortran %d big %d swapped %d", what, info->ndim, (unsigned long long)info->n,
          info->fortran_order, info->big_endian, info->byte_swapped);
    for (int d = 0; d < fx->ndim && d < info->ndim; d++)
        CHECK(info->shape[d] == fx->shape[d], "%s: shape[%d] %llu", what, d, (unsigned long long)info->shape[d]);
}

static void test_fixtures(void)
{
    for (size_t k = 0; k < sizeof fixtures / sizeof fixtures[0]; k++) {
        const fixture *fx = &fixtures[k];
        char path[512];
        snprintf(path, sizeof path, "%s%s", FX_DIR, fx->name);
        void *data = NULL;
        uint64_t n = 99;
        sl_dtype dt;
        sl_err err = {{0}};
        sl_array_info info;
        int rc = sl_array_load_ex(path, 0, SL_F32, &data, &n, &dt, &info, &err);
        CHECK(rc == 0, "%s: %s", fx->name, err.msg);
        if (rc == 0) {
            check_fixture(fx->name, fx, data, n, dt, &info);
            CHECK(info.format == SL_ARRAY_NPY && info.npy_major == fx->major && info.npy_minor == 0 &&
                      info.member[0] == '\0' && info.zip_method == -1,
                  "%s: format %d version %d", fx->name, (int)info.format, info.npy_major);
            /* the note: empty for 1-D, else "<path>: N-D array (...), X order..." */
            if (fx->ndim == 1) CHECK(info.note[0] == '\0', "%s: note '%s' for a 1-D array", fx->name, info.note);
            else {
                char want[640];
                snprintf(want, sizeof want, "%s: %d-%s array (", path, fx->ndim, fx->ndim ? "D" : "d");
                CHECK(!strncmp(info.note, want, strlen(want)) && !strchr(info.note, '\n') &&
                          (strstr(info.note, "Fortran order") != NULL) == fx->fortran &&
                          (strstr(info.note, "big-endian") != NULL) == fx->big &&
                          strstr(info.note, "summed in memory order"),
                      "%s: note '%s'", fx->name, info.note);
            }
        }
        free(data);
        data = NULL; /* the old entry points read the same values */
        rc = sl_npy_read(path, &data, &n, &dt, &err);
        CHECK(rc == 0, "%s (sl_npy_read): %s", fx->name, err.msg);
        if (rc == 0) check_fixture(fx->name, fx, data, n, dt, NULL);
        free(data);
        data = NULL;
        rc = sl_array_load(path, 1, SL_F64, &data, &n, &dt, &err);
        CHECK(rc == 0, "%s (sl_array_load): %s", fx->name, err.msg);
        if (rc == 0) check_fixture(fx->name, fx, data, n, dt, NULL);
        free(data);
    }
    /* the exact notes the CLI prints */
    struct { const char *name, *tail; } notes[] = {
        {"np_c3d_f4.npy", ": 3-D array (4, 5, 6), C order: summed in memory order (120 values)"},
        {"np_f3d_f8.npy", ": 3-D array (3, 4, 5), Fortran order: summed in memory order, column-major (60 values)"},
        {"np_0d_be_f4.npy", ": 0-d array (), C order, big-endian: summed in memory order (1 value)"},
        {"np_empty2d_f4.npy", ": 2-D array (0, 5), C order: summed in memory order (0 values)"},
    };
    for (size_t k = 0; k < sizeof notes / sizeof notes[0]; k++) {
        char path[512], want[640];
        snprintf(path, sizeof path, "%s%s", FX_DIR, notes[k].name);
        snprintf(want, sizeof want, "%s%s", path, notes[k].tail);
        void *data = NULL;
        uint64_t n;
        sl_dtype dt;
        sl_err err = {{0}};
        sl_array_info info;
        CHECK(sl_array_load_ex(path, 0, SL_F32, &data, &n, &dt, &info, &err) == 0 && !strcmp(info.note, want),
              "note of %s: '%s', want '%s' (%s)", notes[k].name, info.note, want, err.msg);
        free(data);
    }
}

/* Reads FILE.npz:KEY (key NULL: the bare FILE.npz) and checks it against fixture fx. */
static void check_npz_member(const char *file, const char *key, const fixture *fx, int method, int implicit)
{
    char path[640], what[700];
    if (key) snprintf(path, sizeof path, "%s:%s", file, key);
    else snprintf(path, sizeof path, "%s", file);
    snprintf(what, sizeof what, "%s", path);
    void *data = NULL;
    uint64_t n = 99;
    sl_dtype dt;
    sl_err err = {{0}};
    sl_array_info info;
    int rc = sl_array_load_ex(path, 0, SL_F32, &data, &n, &dt, &info, &err);
    CHECK(rc == 0, "%s: %s", what, err.msg);
    if (rc == 0) {
        check_fixture(what, fx, data, n, dt, &info);
        CHECK(info.format == SL_ARRAY_NPZ && !strcmp(info.member, fx->name) && info.zip_method == method &&
                  info.member_implicit == implicit,
              "%s: format %d member '%s' method %d implicit %d", what, (int)info.format, info.member,
              info.zip_method, info.member_implicit);
        if (fx->ndim == 1 && !implicit) CHECK(info.note[0] == '\0', "%s: note '%s'", what, info.note);
        else {
            char want[700];
            snprintf(want, sizeof want, "%s:%s%s: %d-", file, fx->name, implicit ? " (the archive's only member)" : "",
                     fx->ndim);
            CHECK(!strncmp(info.note, want, strlen(want)), "%s: note '%s', want '%s...'", what, info.note, want);
        }
    }
    free(data);
    data = NULL;
    rc = sl_array_load(path, 0, SL_F32, &data, &n, &dt, &err);
    CHECK(rc == 0, "%s (sl_array_load): %s", what, err.msg);
    if (rc == 0) check_fixture(what, fx, data, n, dt, NULL);
    free(data);
}

static void test_npz_fixtures(void)
{
    const char *arch[] = {FX_DIR "np_savez.npz", FX_DIR "np_savez_compressed.npz"};
    for (int a = 0; a < 2; a++)
        for (size_t k = 0; k < sizeof members / sizeof members[0]; k++) {
            check_npz_member(arch[a], members[k].name, &members[k], a ? 8 : 0, 0);
            char key[64];
            snprintf(key, sizeof key, "%s.npy", members[k].name); /* the member's own name works too */
            check_npz_member(arch[a], key, &members[k], a ? 8 : 0, 0);
        }
    /* written to an unseekable stream: data descriptors (flag bit 3), sizes only in the directory */
    check_npz_member(FX_DIR "np_stream_compressed.npz", "c3d", &members[0], 8, 0);
    check_npz_member(FX_DIR "np_stream_compressed.npz", "vec", &members[1], 8, 0);
    /* one member: a bare FILE.npz reads it; np.savez's positional key arr_0 */
    const fixture single = {"arr_0", SL_F64, 0, 0, 2, {4, 2}, 31, 1};
    const fixture only = {"only", SL_F32, 1, 0, 1, {5}, 32, 1};
    check_npz_member(FX_DIR "np_single.npz", NULL, &single, 0, 1);
    check_npz_member(FX_DIR "np_single.npz", "arr_0", &single, 0, 0);
    check_npz_member(FX_DIR "np_single_compressed.npz", NULL, &only, 8, 1);
    /* several members and no key: an error listing them; a missing key lists them too */
    for (int a = 0; a < 2; a++) {
        void *data = NULL;
        uint64_t n;
        sl_dtype dt;
        sl_err err = {{0}};
        expect_fail(sl_array_load(arch[a], 0, SL_F32, &data, &n, &dt, &err), &err, data, arch[a], "bare npz",
                    "'c3d', 'vec', 'scalar', 'fort', 'be', 'empty'");
        CHECK(strstr(err.msg, "holds 6 arrays") && strstr(err.msg, ":KEY"), "bare npz: '%s'", err.msg);
        char path[640];
        snprintf(path, sizeof path, "%s:nosuch", arch[a]);
        data = NULL;
        expect_fail(sl_array_load(path, 0, SL_F32, &data, &n, &dt, &err), &err, data, arch[a], "missing key",
                    "no member 'nosuch'");
        CHECK(strstr(err.msg, "'c3d', 'vec', 'scalar', 'fort', 'be', 'empty'") != NULL, "missing key: '%s'", err.msg);
        snprintf(path, sizeof path, "%s:", arch[a]);
        data = NULL;
        expect_fail(sl_array_load(path, 0, SL_F32, &data, &n, &dt, &err), &err, data, arch[a], "empty key", "empty");
        data = NULL; /* a .npz is not a .npy */
        expect_fail(sl_npy_read(arch[a], &data, &n, &dt, &err), &err, data, arch[a], "npz as npy", "magic");
    }
    void *data = NULL;
    uint64_t n;
    sl_dtype dt;
    sl_err err = {{0}};
    const char *p = tpath("missing.npz:a");
    char miss[400];
    snprintf(miss, sizeof miss, "%s/missing.npz", tmpdir);
    expect_fail(sl_array_load(p, 0, SL_F32, &data, &n, &dt, &err), &err, data, miss, "missing npz", "cannot open");
}

/* ---- damaged and hand-built zips ------------------------------------------------------------- */
static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f) return NULL;
    unsigned char *buf = malloc(1 << 16);
    *len = fread(buf, 1, 1 << 16, f);
    fclose(f);
    return buf;
}

static void wr16(unsigned char *p, unsigned v) { p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8); }
static void wr32(unsigned char *p, uint32_t v) { wr16(p, v & 0xFFFF), wr16(p + 2, v >> 16); }
static void wr64(unsigned char *p, uint64_t v) { wr32(p, (uint32_t)v), wr32(p + 4, (uint32_t)(v >> 32)); }
static uint32_t rd16(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t rd32(const unsigned char *p) { return rd16(p) | rd16(p + 2) << 16; }

/* Offsets in a zip image: the end record, and the central directory entry / local header of
 * member `name`. */
typedef struct { size_t eocd, cd, cdent, local, data; uint32_t csize; } zipmap;

static zipmap zip_find(const unsigned char *z, size_t len, const char *name)
{
    zipmap m = {0, 0, 0, 0, 0, 0};
    for (size_t p = len - 22 + 1; p-- > 0;)
        if (rd32(z + p) == 0x06054b50) { m.eocd = p; break; }
    m.cd = rd32(z + m.eocd + 16);
    for (size_t p = m.cd; p + 46 <= m.eocd;) {
        size_t nl = rd16(z + p + 28), xl = rd16(z + p + 30), cl = rd16(z + p + 32);
        if (nl == strlen(name) && !memcmp(z + p + 46, name, nl)) {
            m.cdent = p;
            m.local = rd32(z + p + 42);
            m.csize = rd32(z + p + 20);
            m.data = m.local + 30 + rd16(z + m.local + 26) + rd16(z + m.local + 28);
        }
        p += 46 + nl + xl + cl;
    }
    CHECK(m.cdent != 0 || m.cd == 0, "member %s not found in the fixture", name);
    return m;
}

/* Writes a damaged copy of fixture `src` as `name` and expects reading `key` to fail with `word`. */
typedef void (*damage_fn)(unsigned char *z, size_t *len, const zipmap *m);

static void expect_damaged(const char *src, const char *name, const char *key, const char *member, damage_fn fn,
                           const char *word)
{
    size_t len;
    unsigned char *z = slurp(src, &len);
    if (!z) return;
    zipmap m = zip_find(z, len, member);
    fn(z, &len, &m);
    const char *p = tpath(name);
    put_bytes(p, z, len);
    free(z);
    char path[640];
    if (key) snprintf(path, sizeof path, "%s:%s", p, key);
    else snprintf(path, sizeof path, "%s", p);
    void *data = NULL;
    uint64_t n;
    sl_dtype dt;
    sl_err err = {{0}};
    expect_fail(sl_array_load(path, 0, SL_F32, &data, &n, &dt, &err), &err, data, p, name, word);
}

static void dmg_cut_cd(unsigned char *z, size_t *len, const zipmap *m) { (void)z, *len = m->cd + 30; }
static void dmg_cut_eocd(unsigned char *z, size_t *len, const zipmap *m) { (void)z, (void)m, *len -= 1; }
static void dmg_cut_data(unsigned char *z, size_t *len, const zipmap *m) { (void)z, *len = m->data + 8; }
static void dmg_cd_size(unsigned char *z, size_t *len, const zipmap *m) { (void)len, wr32(z + m->eocd + 12, rd32(z + m->eocd + 12) - 46); }
static void dmg_cd_count(unsigned char *z, size_t *len, const zipmap *m) { (void)len, wr16(z + m->eocd + 8, 5), wr16(z + m->eocd + 10, 5); }
static void dmg_garbage(unsigned char *z, size_t *len, const zipmap *m) { (void)m, memcpy(z + *len, "junk", 4), *len += 4; }
static void dmg_data_byte(unsigned char *z, size_t *len, const zipmap *m) { (void)len, z[m->data + m->csize - 3] ^= 0x40; }
static void dmg_crc_both(unsigned char *z, size_t *len, const zipmap *m)
{
    (void)len;
    wr32(z + m->cdent + 16, rd32(z + m->cdent + 16) ^ 1);
    wr32(z + m->local + 14, rd32(z + m->local + 14) ^ 1);
}
static void dmg_crc_cd(unsigned char *z, size_t *len, const zipmap *m) { (void)len, z[m->cdent + 16] ^= 0x10; }
static void dmg_usize_cd(unsigned char *z, size_t *len, const zipmap *m) { (void)len, wr32(z + m->cdent + 24, rd32(z + m->cdent + 24) + 8); }
static void dmg_sizes_both(unsigned char *z, size_t *len, const zipmap *m)
{   /* stored member: csize = usize = 8 less, in the directory and the local zip64 field */
    (void)len;
    wr32(z + m->cdent + 20, m->csize - 8);
    wr32(z + m->cdent + 24, m->csize - 8);
    size_t x = m->local + 30 + rd16(z + m->local + 26);
    CHECK(rd16(z + x) == 1, "fixture's local header has no zip64 field");
    wr64(z + x + 4, m->csize - 8);
    wr64(z + x + 12, m->csize - 8);
}
static void dmg_usize_deflate(unsigned char *z, size_t *len, const zipmap *m)
{   /* deflated member: 8 more uncompressed bytes announced everywhere (header data intact) */
    (void)len;
    uint32_t u = rd32(z + m->cdent + 24) + 8;
    wr32(z + m->cdent + 24, u);
    size_t x = m->local + 30 + rd16(z + m->local + 26);
    wr64(z + x + 4, u);
}
static void dmg_csize_deflate(unsigned char *z, size_t *len, const zipmap *m, int delta)
{
    (void)len;
    uint32_t c = m->csize + (uint32_t)delta;
    wr32(z + m->cdent + 20, c);
    size_t x = m->local + 30 + rd16(z + m->local + 26);
    wr64(z + x + 12, c);
}
static void dmg_csize_more(unsigned char *z, size_t *len, const zipmap *m) { dmg_csize_deflate(z, len, m, 2); }
static void dmg_csize_less(unsigned char *z, size_t *len, const zipmap *m) { dmg_csize_deflate(z, len, m, -2); }
static void dmg_method(unsigned char *z, size_t *len, const zipmap *m) { (void)len, wr16(z + m->cdent + 10, 12), wr16(z + m->local + 8, 12); }
static void dmg_method_local(unsigned char *z, size_t *len, const zipmap *m) { (void)len, wr16(z + m->local + 8, 8); }
static void dmg_encrypted(unsigned char *z, size_t *len, const zipmap *m) { (void)len, z[m->cdent + 8] |= 1, z[m->local + 6] |= 1; }
static void dmg_dup(unsigned char *z, size_t *len, const zipmap *m) { (void)len, memcpy(z + m->cdent + 46, "c3d", 3); }
static void dmg_local_sig(unsigned char *z, size_t *len, const zipmap *m) { (void)len, z[m->local + 1] = 'Q'; }
static void dmg_local_name(unsigned char *z, size_t *len, const zipmap *m) { (void)len, z[m->local + 30] = 'w'; }
static void dmg_offset(unsigned char *z, size_t *len, const zipmap *m) { (void)len, wr32(z + m->cdent + 42, 0x7FFFFFF0); }
static void dmg_ffff(unsigned char *z, size_t *len, const zipmap *m) { (void)len, wr32(z + m->cdent + 24, 0xFFFFFFFF); }
static void dmg_extra_len(unsigned char *z, size_t *len, const zipmap *m)
{
    (void)len;
    size_t x = m->local + 30 + rd16(z + m->local + 26);
    wr16(z + x + 2, 200); /* the zip64 field claims more bytes than the extra area holds */
}
static void dmg_disk(unsigned char *z, size_t *len, const zipmap *m) { (void)len, wr16(z + m->eocd + 4, 1); }
static void dmg_header_byte(unsigned char *z, size_t *len, const zipmap *m) { (void)len, z[m->data + 20] = 'X'; }

static void test_damaged_zips(void)
{
    const char *st = FX_DIR "np_savez.npz", *df = FX_DIR "np_savez_compressed.npz";
    expect_damaged(st, "cutcd.npz", "vec", "vec.npy", dmg_cut_cd, "truncated");
    expect_damaged(st, "cuteocd.npz", "vec", "vec.npy", dmg_cut_eocd, "truncated");
    expect_damaged(st, "cutdata.npz", "vec", "vec.npy", dmg_cut_data, "truncated");
    expect_damaged(st, "cdsize.npz", "vec", "vec.npy", dmg_cd_size, "central directory");
    expect_damaged(st, "cdcount.npz", "vec", "vec.npy", dmg_cd_count, "directory holds");
    expect_damaged(st, "garbage.npz", "vec", "vec.npy", dmg_garbage, "trailing bytes");
    expect_damaged(st, "databyte.npz", "vec", "vec.npy", dmg_data_byte, "CRC-32 mismatch");
    expect_damaged(df, "databyte_z.npz", "vec", "vec.npy", dmg_data_byte, "corrupt");
    expect_damaged(st, "crcboth.npz", "vec", "vec.npy", dmg_crc_both, "CRC-32 mismatch");
    expect_damaged(df, "crcboth_z.npz", "c3d", "c3d.npy", dmg_crc_both, "CRC-32 mismatch");
    expect_damaged(st, "crccd.npz", "be", "be.npy", dmg_crc_cd, "disagree on its CRC-32");
    expect_damaged(st, "usize.npz", "vec", "vec.npy", dmg_usize_cd, "sizes differ");
    expect_damaged(st, "sizes.npz", "vec", "vec.npy", dmg_sizes_both, "CRC-32 mismatch"); /* 8 bytes cut */
    expect_damaged(df, "usize_z.npz", "vec", "vec.npy", dmg_usize_deflate, "sizes are wrong");
    expect_damaged(df, "csizemore_z.npz", "vec", "vec.npy", dmg_csize_more, "compressed");
    expect_damaged(df, "csizeless_z.npz", "vec", "vec.npy", dmg_csize_less, "ends early");
    expect_damaged(st, "method.npz", "vec", "vec.npy", dmg_method, "compression method 12 (bzip2)");
    expect_damaged(st, "methodlocal.npz", "vec", "vec.npy", dmg_method_local, "disagree");
    expect_damaged(st, "encrypted.npz", "vec", "vec.npy", dmg_encrypted, "encrypted");
    expect_damaged(st, "dup.npz", "vec", "vec.npy", dmg_dup, "appears twice");
    expect_damaged(st, "localsig.npz", "vec", "vec.npy", dmg_local_sig, "local header");
    expect_damaged(st, "localname.npz", "vec", "vec.npy", dmg_local_name, "names another file");
    expect_damaged(st, "offset.npz", "vec", "vec.npy", dmg_offset, "outside");
    expect_damaged(st, "ffff.npz", "vec", "vec.npy", dmg_ffff, "zip64");
    expect_damaged(st, "extralen.npz", "vec", "vec.npy", dmg_extra_len, "extra fields");
    expect_damaged(st, "disk.npz", "vec", "vec.npy", dmg_disk, "multi-disk");
    expect_damaged(st, "hdrbyte.npz", "vec", "vec.npy", dmg_header_byte, "CRC-32 mismatch"); /* not "bad header" */
    expect_damaged(df, "hdrbyte_z.npz", "vec", "vec.npy", dmg_header_byte, "corrupt");
    /* an undamaged member of a damaged-elsewhere archive still reads (CRC is per member) */
    {
        size_t len;
        unsigned char *z = slurp(st, &len);
        zipmap m = zip_find(z, len, "vec.npy");
        dmg_data_byte(z, &len, &m);
        const char *p = tpath("onebad.npz");
        put_bytes(p, z, len);
        free(z);
        char path[640];
        snprintf(path, sizeof path, "%s:c3d", p);
        void *data = NULL;
        uint64_t n;
        sl_dtype dt;
        sl_err err = {{0}};
        CHECK(sl_array_load(path, 0, SL_F32, &data, &n, &dt, &err) == 0, "onebad.npz:c3d: %s", err.msg);
        check_fixture("onebad.npz:c3d", &members[0], data, n, dt, NULL);
        free(data);
    }
    /* not a zip at all, named .npz; an empty archive (np.savez with no arrays) */
    const char *p = tpath("notzip.npz");
    put_bytes(p, "hello, this is no zip archive at all", 36);
    void *data = NULL;
    uint64_t n;
    sl_dtype dt;
    sl_err err = {{0}};
    expect_fail(sl_array_load(p, 0, SL_F32, &data, &n, &dt, &err), &err, data, p, "not a zip", "not a zip");
    p = tpath("empty.npz");
    unsigned char eocd[22] = {'P', 'K', 5, 6};
    put_bytes(p, eocd, sizeof eocd);
    data = NULL;
    expect_fail(sl_array_load(p, 0, SL_F32, &data, &n, &dt, &err), &err, data, p, "empty npz", "no arrays");
    char path[640];
    snprintf(path, sizeof path, "%s:a", p);
    data = NULL;
    expect_fail(sl_array_load(path, 0, SL_F32, &data, &n, &dt, &err), &err, data, p, "empty npz:a", "empty");
}

/* A zip image built here: one stored member `name` holding `body`, every size and offset in the
 * central directory moved to its zip64 field (as Python's zipfile writes members above 2 GiB
 * and offsets above 2 GiB), and zip64 end records; `z64` 0 gives plain records. */
static size_t build_zip(unsigned char *out, const char *name, const unsigned char *body, size_t blen, int z64,
                        int cd_extra)
{
    size_t nl = strlen(name), k = 0;
    uint32_t crc = (uint32_t)crc32(0L, body, (uInt)blen);
    unsigned char *lh = out;
    memset(lh, 0, 30);
    wr32(lh, 0x04034b50), wr16(lh + 4, 45), wr32(lh + 14, crc);
    wr32(lh + 18, 0xFFFFFFFF), wr32(lh + 22, 0xFFFFFFFF), wr16(lh + 26, (unsigned)nl), wr16(lh + 28, 20);
    k = 30;
    memcpy(out + k, name, nl), k += nl;
    wr16(out + k, 1), wr16(out + k + 2, 16), wr64(out + k + 4, blen), wr64(out + k + 12, blen), k += 20;
    memcpy(out + k, body, blen), k += blen;
    size_t cd = k;
    unsigned char *c = out + k;
    memset(c, 0, 46);
    wr32(c, 0x02014b50), wr16(c + 4, 45), wr16(c + 6, 45), wr32(c + 16, crc);
    wr32(c + 20, z64 ? 0xFFFFFFFF : (uint32_t)blen), wr32(c + 24, z64 ? 0xFFFFFFFF : (uint32_t)blen);
    wr16(c + 28, (unsigned)nl), wr16(c + 30, z64 && cd_extra ? 28 : 0), wr32(c + 42, z64 ? 0xFFFFFFFF : 0);
    k += 46;
    memcpy(out + k, name, nl), k += nl;
    if (z64 && cd_extra) {
        wr16(out + k, 1), wr16(out + k + 2, 24), wr64(out + k + 4, blen), wr64(out + k + 12, blen);
        wr64(out + k + 20, 0), k += 28;
    }
    size_t cdsize = k - cd;
    if (z64) {
        size_t zr = k;
        unsigned char *r = out + k;
        memset(r, 0, 56);
        wr32(r, 0x06064b50), wr64(r + 4, 44), wr16(r + 12, 45), wr16(r + 14, 45);
        wr64(r + 24, 1), wr64(r + 32, 1), wr64(r + 40, cdsize), wr64(r + 48, cd);
        k += 56;
        unsigned char *l = out + k;
        memset(l, 0, 20);
        wr32(l, 0x07064b50), wr64(l + 8, zr), wr32(l + 16, 1);
        k += 20;
    }
    unsigned char *e = out + k;
    memset(e, 0, 22);
    wr32(e, 0x06054b50);
    wr16(e + 8, z64 ? 0xFFFF : 1), wr16(e + 10, z64 ? 0xFFFF : 1);
    wr32(e + 12, z64 ? 0xFFFFFFFF : (uint32_t)cdsize), wr32(e + 16, z64 ? 0xFFFFFFFF : (uint32_t)cd);
    return k + 22;
}

static void test_built_zips(void)
{
    /* the body: a NumPy-written .npy fixture */
    size_t blen;
    unsigned char *body = slurp(FX_DIR "np_f2d_f4.npy", &blen);
    if (!body) return;
    unsigned char *img = malloc(blen + 4096);
    const fixture *fx = &fixtures[3];
    struct { const char *file, *name; int z64, cd_extra; const char *word; } cases[] = {
        {"z64.npz", "f.npy", 1, 1, NULL},           /* zip64 sizes, offset and end records: read */
        {"plain.npz", "f.npy", 0, 0, NULL},
        {"z64noextra.npz", "f.npy", 1, 0, "zip64"}, /* 0xFFFFFFFF with no zip64 field: refused */
        {"txt.npz", "readme.txt", 0, 0, "not a NumPy file: a zip archive without .npy members"},
        {"model.pt", "archive/data.pkl", 0, 0, "(a PyTorch torch.save file)"},   /* torch.save's zip */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        size_t len = build_zip(img, cases[k].name, body, blen, cases[k].z64, cases[k].cd_extra);
        const char *p = tpath(cases[k].file);
        put_bytes(p, img, len);
        void *data = NULL;
        uint64_t n;
        sl_dtype dt;
        sl_err err = {{0}};
        sl_array_info info;
        int rc = sl_array_load_ex(p, 0, SL_F32, &data, &n, &dt, &info, &err);
        if (!cases[k].word) {
            CHECK(rc == 0, "%s: %s", cases[k].file, err.msg);
            if (rc == 0) {
                check_fixture(cases[k].file, fx, data, n, dt, &info);
                CHECK(info.member_implicit && !strcmp(info.member, "f"), "%s: member '%s'", cases[k].file, info.member);
            }
            free(data);
        } else {
            expect_fail(rc, &err, data, p, cases[k].file, cases[k].word);
        }
    }
    /* a key too long for sl_array_info's member buffer: an error, not a cut name */
    char longname[400];
    memset(longname, 'k', 300);
    strcpy(longname + 300, ".npy");
    size_t len = build_zip(img, longname, body, blen, 0, 0);
    const char *p = tpath("longkey.npz");
    put_bytes(p, img, len);
    void *data = NULL;
    uint64_t n;
    sl_dtype dt;
    sl_err err = {{0}};
    expect_fail(sl_array_load(p, 0, SL_F32, &data, &n, &dt, &err), &err, data, p, "long key", "too long");
    /* an unprintable key comes back escaped, in the keys listed and in the note */
    len = build_zip(img, "a\x1b[2J\n.npy", body, blen, 0, 0);
    p = tpath("esckey.npz");
    put_bytes(p, img, len);
    char path[640];
    snprintf(path, sizeof path, "%s:zz", p);
    data = NULL;
    expect_fail(sl_array_load(path, 0, SL_F32, &data, &n, &dt, &err), &err, data, p, "escaped key", "'a\\x1b[2J\\n'");
    sl_array_info info;
    data = NULL;
    CHECK(sl_array_load_ex(p, 0, SL_F32, &data, &n, &dt, &info, &err) == 0 && strstr(info.note, ":a\\x1b[2J\\n (the") &&
              !strchr(info.note, '\x1b'),
          "escaped key note '%s': %s", info.note, err.msg);
    free(data);
    free(img);
    free(body);
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
    test_fixtures();
    test_npz_fixtures();
    test_damaged_zips();
    test_built_zips();
    for (int k = 0; k < nmade; k++)
        if (made[k][0]) unlink(made[k]);
    rmdir(tmpdir);
    return sl_test_done("tio");
}
