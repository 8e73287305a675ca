/* cmd_gen.c: `sumlab gen NAME --n N --seed S -o FILE`: writes a dataset to a .npy or raw file,
 * generated (over --threads threads) and written 1M elements per thread at a time (2^30 values
 * need no full copy in memory; the bytes are the same for every thread count).
 * The file appears under its name only when complete (written to FILE.part, fsync'ed, then renamed).
 * The exact sum of what was written is accumulated on the way (sl_exact, about 0.3-0.9 ns per
 * value): a finite input whose exact sum overflows the format gets a warning (exit 0).
 * A pair family (dot's) writes its 2n values x then y into FILE, or with --y-output Y the n values
 * of x into FILE and the n of y into Y (the inputs of `reduce --op dot FILE Y`); both are renamed
 * into place only when both are written (a failed y leaves FILE as it was). */
#define _XOPEN_SOURCE 700   /* realpath, and POSIX.1-2008 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <unistd.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "sl_cli.h"
#include <math.h>
#include "sl_datasets.h"
#include "sl_reference.h"
#include "sl_results.h"
#include "sumlab/pool.h"

#define GEN_CHUNK ((uint64_t)1 << 20)
#define GEN_MAX_N ((uint64_t)1 << 40)

static void gen_usage(FILE *f)
{
    fputs("usage: sumlab gen NAME --n N [--seed S] [--dtype f32|f64|f16|bf16] [--param KEY=VALUE ...]\n"
          "                  -o FILE [--y-output FILE2] [--format npy|raw] [--shape D0,D1,...]\n"
          "                  [--threads N]\n\n"
          "Writes n values of dataset NAME ('sumlab list datasets'). Value i depends only on\n"
          "(NAME, dtype, seed, n, params, i): the same arguments give the same bytes anywhere.\n\n"
          "options:\n"
          "  --n N            number of values: 1000000, 1e6, 2^20 or 3*2^20 (required\n"
          "                   unless --shape gives them)\n"
          "  --seed S         seed (default 0)\n"
          "  --dtype D        f32 (default), f64, f16 (IEEE binary16) or bf16 (bfloat16)\n"
          "  --param K=V      a dataset parameter (repeatable, each key once)\n"
          "  -o, --output F   output file (required)\n"
          "  --y-output F2    a pair family (dot-random, dot-cond, dot-overflow): x's n values\n"
          "                   into F and y's n into F2 (without it F holds --n values, x then\n"
          "                   y); 'sumlab reduce --op dot F F2' reads them\n"
          "  --format F       npy or raw (little-endian values, no header); default: npy when\n"
          "                   the file's name ends in .npy, else raw (each file its own)\n"
          "  --shape L        the .npy's shape, C order (e.g. 64,4096: rows for --axis); the\n"
          "                   values are the same n = D0 D1 ... (--n, if given, must equal it;\n"
          "                   a pair's two files each take it); at most 16 axes; .npy only\n"
          "  --threads N      generating threads (default $SUMLAB_THREADS or every core; the\n"
          "                   same bytes for every count)\n"
          "  -h, --help       this text\n", f);
}

static int host_little_endian(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

/* ---- signals: a gen stopped by SIGINT/SIGTERM/SIGHUP removes its FILE.part files ----------- */
static const char *volatile g_part[2];   /* the .parts written (a pair's x held while y is), or NULL */
static char g_part_name[2][4100];         /* their names (a copy: gen_write frees its own) */
static int g_guarded;
static struct sigaction g_old[3];
static const int g_sigs[3] = {SIGINT, SIGTERM, SIGHUP};

static void on_gen_signal(int sig)
{
    for (int i = 0; i < 2; i++) {
        const char *p = g_part[i];
        if (p) unlink(p);             /* async-signal-safe */
    }
    signal(sig, SIG_DFL);
    raise(sig);                       /* the usual death by that signal (exit status 128+sig) */
}

/* part: guards one more .part (the handlers installed once); NULL: restores the handlers. */
static void part_guard(const char *part)
{
    if (part) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_gen_signal;
        sigfillset(&sa.sa_mask);
        const int k = g_part[0] ? 1 : 0;
        snprintf(g_part_name[k], sizeof g_part_name[k], "%s", part);   /* (at most 4095 bytes: check_out_path) */
        g_part[k] = g_part_name[k];
        if (!g_guarded)
            for (int i = 0; i < 3; i++) sigaction(g_sigs[i], &sa, &g_old[i]);
        g_guarded = 1;
    } else {
        if (g_guarded)
            for (int i = 0; i < 3; i++) sigaction(g_sigs[i], &g_old[i], NULL);
        g_guarded = 0;
        g_part[0] = g_part[1] = NULL;
    }
}

/* --shape (ndim 0: none, the file 1-D) */
typedef struct {
    uint64_t d[SL_NPY_WRITE_MAX_DIMS];
    int ndim;
} gen_shape;

static void gen_wrote(uint64_t n, sl_dtype dt, const sl_dataset *ds, uint64_t seed, const char *out, int npy,
                      const gen_shape *sh)
{
    char shp[SL_NPY_WRITE_MAX_DIMS * 22 + 4];
    sl_cli_msg("gen", "wrote %llu %s values of %s (seed %llu) to %s (%s%s%s)",   /* a control byte of out escaped */
               (unsigned long long)n, sl_dtype_name(dt), ds->name, (unsigned long long)seed, out,
               npy ? "npy" : "raw", sh->ndim ? ", shape " : "",
               sh->ndim ? sl_shape_text(sh->d, sh->ndim, shp, sizeof shp) : "");
}

/* Writes values [lo, lo + n) of ds at length total to out.part, chunk by chunk, then renames it
 * to out. Returns the exit code. hold: on success out.part is left in place, still guarded, for
 * the caller to rename (a pair's two files appear together or not at all); on failure it is
 * removed either way. */
static int gen_write(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t total, uint64_t lo,
                     uint64_t n, const sl_params *pp, const char *out, int npy, const gen_shape *sh,
                     unsigned threads, int hold)
{
    sl_err err = {{0}};
    size_t esz = sl_dtype_size(dt);
    const uint64_t per = GEN_CHUNK * (threads > 16 ? 16 : threads ? threads : 1);
    uint64_t chunk = n < per ? (n ? n : 1) : per;
    void *buf = malloc((size_t)chunk * esz);
    size_t plen = strlen(out) + 6;
    char *part = malloc(plen);
    if (!buf || !part) {
        free(buf);
        free(part);
        sl_cli_msg("gen", "out of memory");
        return 1;
    }
    snprintf(part, plen, "%s.part", out);
    part_guard(part);
    FILE *f = fopen(part, "wb");
    if (!f) {
        if (!hold) part_guard(NULL);
        sl_cli_msg("gen", "cannot write '%s': %s", part, strerror(errno));
        free(buf);
        free(part);
        return 1;
    }
    int rc = 0, special = 0;
    sl_exact *acc = sl_exact_new();
    if (!acc) {
        sl_cli_msg("gen", "out of memory");
        rc = 1;
    }
    if (!rc && npy &&
        (sh->ndim ? sl_npy_write_header_shape(f, sh->d, sh->ndim, dt) : sl_npy_write_header(f, n, dt))) {
        sl_cli_msg("gen", "write error on '%s': %s", part, strerror(errno));
        rc = 1;
    }
    for (uint64_t start = 0; rc == 0 && start < n; start += chunk) {
        uint64_t cnt = n - start < chunk ? n - start : chunk;
        if (sl_dataset_generate_threads(ds, dt, seed, total, pp, lo + start, cnt, buf, threads, &err)) {
            sl_cli_msg("gen", "%s", err.msg);
            rc = 2;
        } else if (fwrite(buf, esz, (size_t)cnt, f) != (size_t)cnt) {
            sl_cli_msg("gen", "write error on '%s': %s", part, strerror(errno));
            rc = 1;
        } else {
            /* the exact sum of what was written; a NaN or Inf value makes the sum non-finite by design */
            int arc = sl_dtype_is_half(dt) ? sl_exact_add_half_threads(acc, buf, cnt, dt, threads ? threads : 1)
                                           : sl_exact_add_threads(acc, buf, cnt, dt, threads ? threads : 1);
            if (arc) {   /* no memory for the threads' accumulators: one thread */
                if (sl_dtype_is_half(dt)) sl_exact_add_half(acc, buf, cnt, dt);
                else sl_exact_add(acc, buf, cnt, dt);
            }
            if (!special && !isfinite(sl_max_abs(buf, cnt, dt, threads ? threads : 1))) special = 1;
        }
    }
    sl_err cerr = {{0}};   /* flushed and fsync'ed before the rename (a crash leaves no short FILE) */
    if (sl_fclose_checked(f, part, rc == 0, &cerr) && rc == 0) {
        sl_cli_msg("gen", "%s", cerr.msg);
        rc = 1;
    }
    if (rc == 0 && !hold && rename(part, out) != 0) {
        sl_cli_msg("gen", "cannot rename '%s' to '%s': %s", part, out, strerror(errno));
        rc = 1;
    }
    if (rc) remove(part);
    if (!hold) part_guard(NULL);
    if (!rc && !hold) gen_wrote(n, dt, ds, seed, out, npy, sh);
    if (!rc && (ds->flags & SL_DS_PAIR) && n == total)   /* dot's pairs: x then y in the one file */
        sl_cli_msg("gen", "%s yields pairs (x, y) for dot: the file holds x (the first %llu values), "
                   "then y (the next %llu)%s; --y-output FILE2 writes them apart", ds->name,
                   (unsigned long long)(n / 2), (unsigned long long)(n / 2),
                   n % 2 ? " and one value in no pair (an odd --n)" : "");
    if (!rc && !special) {
        const double s = sl_dtype_is_half(dt) ? sl_exact_round_half(acc, dt) : sl_exact_round(acc, dt);
        if (isinf(s)) {
            const double s64 = sl_exact_round(acc, SL_F64);
            char approx[64];
            if (isinf(s64)) snprintf(approx, sizeof approx, "%s2^1024 or more", s64 < 0 ? "-" : "");
            else snprintf(approx, sizeof approx, "%.6g", s64);
            sl_cli_msg("gen", "warning: the exact sum of these %llu values (%s) overflows %s: every sum of them "
                              "is +-inf or wrong, and no error bound is finite; for a finite sum choose other "
                              "parameters (e.g. a smaller emax) or a smaller n",
                       (unsigned long long)n, approx, sl_dtype_name(dt));
        }
    }
    sl_exact_free(acc);
    free(buf);
    free(part);
    return rc;
}

/* 1 when the file name ends in .npy (the default --format's choice). */
static int ends_npy(const char *f)
{
    const size_t l = strlen(f);
    return l >= 4 && !strcmp(f + l - 4, ".npy");
}

/* A name as quoted in a message: at most 64 bytes of it, then how long it was. */
static const char *quoted(char *b, size_t len, const char *s)
{
    const size_t l = strlen(s);
    if (l <= 64) snprintf(b, len, "%s", s);
    else snprintf(b, len, "%.60s... (%zu bytes)", s, l);
    return b;
}

/* 1 when paths a and b name one file: the same name in the same directory (the directories
 * resolved: "a.npy" and "./a.npy", or a link to the folder), or the same string. */
static int same_target(const char *a, const char *b)
{
    if (!strcmp(a, b)) return 1;
    char da[PATH_MAX], db[PATH_MAX], ra[PATH_MAX], rb[PATH_MAX];
    const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
    const char *ba = sa ? sa + 1 : a, *bb = sb ? sb + 1 : b;
    if (strcmp(ba, bb)) return 0;
    snprintf(da, sizeof da, "%.*s", sa ? (int)(sa - a) + (sa == a) : 1, sa ? a : ".");
    snprintf(db, sizeof db, "%.*s", sb ? (int)(sb - b) + (sb == b) : 1, sb ? b : ".");
    return realpath(da, ra) && realpath(db, rb) && !strcmp(ra, rb);
}

/* -o FILE (or --y-output's: opt names which) checked before anything is generated: each name in
 * the path short enough for FILE.part (NAME_MAX, 255, less 5), the path for PATH_MAX, its folder
 * present. 0, or 2 (message printed). */
static int check_out_path(const char *opt, const char *out)
{
    char q[128];
    const size_t l = strlen(out);
    if (l + 6 > 4096) {
        sl_cli_msg("gen", "%s '%s': the path is too long (at most 4090 bytes)", opt, quoted(q, sizeof q, out));
        return 2;
    }
    for (const char *p = out; *p;) {
        size_t c = strcspn(p, "/");
        if (c > 250) {
            sl_cli_msg("gen", "%s '%s': a name in the path is %zu bytes long (at most 250: the file is written as NAME.part first)",
                       opt, quoted(q, sizeof q, out), c);
            return 2;
        }
        p += c;
        while (*p == '/') p++;
    }
    const char *slash = strrchr(out, '/');
    if (slash && slash != out) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - out), out);
        struct stat ds;
        char qd[128];
        if (stat(dir, &ds) != 0 || !S_ISDIR(ds.st_mode)) {
            sl_cli_msg("gen", "%s '%s': no folder '%s' to write it in", opt, quoted(q, sizeof q, out),
                       quoted(qd, sizeof qd, dir));
            return 2;
        }
    }
    return 0;
}

int sl_cmd_gen(int argc, char **argv)
{
    static const struct option opts[] = {
        {"n", required_argument, NULL, 'n'},
        {"seed", required_argument, NULL, 's'},
        {"dtype", required_argument, NULL, 'd'},
        {"param", required_argument, NULL, 'p'},
        {"output", required_argument, NULL, 'o'},
        {"y-output", required_argument, NULL, 'Y'},
        {"format", required_argument, NULL, 'f'},
        {"threads", required_argument, NULL, 'T'},
        {"shape", required_argument, NULL, 'S'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *nstr = NULL, *out = NULL, *yout = NULL, *format = NULL, *threads_s = NULL, *shape_s = NULL;
    const char *params[64];
    int nparams = 0;
    uint64_t n = 0, seed = 0;
    sl_dtype dt = SL_F32;
    sl_err err = {{0}};
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":n:s:d:p:o:f:h", opts, NULL)) != -1) {
        switch (c) {
        case 'n': nstr = optarg; break;
        case 'T': threads_s = optarg; break;
        case 'S': shape_s = optarg; break;
        case 's':
            if (sl_parse_u64(optarg, &seed, &err)) {
                sl_cli_msg("gen", "--seed: %s", err.msg);
                return 2;
            }
            break;
        case 'd':
            if (sl_dtype_parse(optarg, &dt)) {
                sl_cli_msg("gen", "unsupported --dtype '%s' (f32, f64, f16 or bf16)", optarg);
                return 2;
            }
            break;
        case 'p':
            if (nparams == (int)(sizeof params / sizeof params[0])) {
                sl_cli_msg("gen", "too many --param options");
                return 2;
            }
            if (sl_cli_param_once("gen", optarg, params, nparams)) return 2;
            params[nparams++] = optarg;
            break;
        case 'o': out = optarg; break;
        case 'Y': yout = optarg; break;
        case 'f': format = optarg; break;
        case 'h': gen_usage(stdout); return 0;
        default: return sl_cli_bad_option("gen", c, argv, optind, optopt, opts);
        }
    }
    if (optind >= argc) {
        sl_cli_msg("gen", "missing dataset name (see 'sumlab list datasets')");
        return 2;
    }
    if (argc - optind > 1) {
        sl_cli_msg("gen", "unexpected argument '%s'", argv[optind + 1]);
        return 2;
    }
    const char *name = argv[optind];
    const sl_dataset *ds = sl_dataset_find(name);
    if (!ds) {
        char names[1024] = "";
        size_t used = 0;
        /* the families every sweep takes; the opt-in ones (one operation's each) would make the
         * line longer with every operation: 'sumlab list datasets' lists them all */
        for (size_t i = 0; i < sl_dataset_count() && used < sizeof names; i++)
            if (!(sl_dataset_at(i)->flags & SL_DS_OPT_IN))
                used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "",
                                         sl_dataset_at(i)->name);
        char q[128];
        sl_cli_msg("gen", "unknown dataset '%s' (valid: %s, and the opt-in families of 'sumlab list "
                   "datasets')", quoted(q, sizeof q, name), names);
        return 2;
    }
    gen_shape sh;
    memset(&sh, 0, sizeof sh);
    uint64_t sn = 1;   /* --shape's product */
    if (shape_s) {
        size_t nd = 0;
        if (sl_parse_u64_list(shape_s, sh.d, SL_NPY_WRITE_MAX_DIMS, &nd, &err)) {
            sl_cli_msg("gen", "--shape: %s", err.msg);
            return 2;
        }
        sh.ndim = (int)nd;
        for (size_t k = 0; k < nd; k++) {
            if (sh.d[k] && sn > (GEN_MAX_N - 1) / sh.d[k]) {
                sl_cli_msg("gen", "--shape %s: more than 2^40-1 values", shape_s);
                return 2;
            }
            sn *= sh.d[k];
        }
    }
    if (!nstr && !shape_s) {
        sl_cli_msg("gen", "missing --n");
        return 2;
    }
    if (nstr && sl_parse_u64(nstr, &n, &err)) {
        sl_cli_msg("gen", "--n: %s", err.msg);
        return 2;
    }
    if (!nstr) n = sn;
    if (n >= GEN_MAX_N) {
        sl_cli_msg("gen", "--n %s is too large (at most 2^40-1)", nstr);
        return 2;
    }
    if (shape_s && n != sn) {
        sl_cli_msg("gen", "--shape %s holds %llu values but --n is %llu", shape_s, (unsigned long long)sn,
                   (unsigned long long)n);
        return 2;
    }
    if (!out || !*out) {
        sl_cli_msg("gen", "missing -o FILE");
        return 2;
    }
    if (yout && !(ds->flags & SL_DS_PAIR)) {
        sl_cli_msg("gen", "--y-output: dataset '%s' yields one array, not pairs (x, y)", ds->name);
        return 2;
    }
    if (yout && (!*yout || same_target(yout, out))) {
        sl_cli_msg("gen", "--y-output needs a file other than -o's");
        return 2;
    }
    /* The file is written to FILE.part and renamed over FILE: never over a directory, a
     * device (-o /dev/null would replace the device node), a FIFO or a socket. */
    for (int k = 0; k < (yout ? 2 : 1); k++) {
        const char *o = k ? yout : out;
        if (check_out_path(k ? "--y-output" : "-o", o)) return 2;
        struct stat st;
        if (stat(o, &st) == 0 && !S_ISREG(st.st_mode)) {
            sl_cli_msg("gen", "%s '%s' exists and is not a regular file", k ? "--y-output" : "-o", o);
            return 2;
        }
    }
    if (yout) {   /* one's FILE.part the other's name: writing one would overwrite the other */
        char op[4100], yp[4100];   /* (check_out_path: at most 4090 bytes each) */
        snprintf(op, sizeof op, "%s.part", out);
        snprintf(yp, sizeof yp, "%s.part", yout);
        if (same_target(op, yout) || same_target(yp, out)) {
            sl_cli_msg("gen", "--y-output and -o: one names the other's temporary FILE.part; choose other names");
            return 2;
        }
    }
    int npy, ynpy = 0;   /* (each file's own: its name's, without --format) */
    if (!format) {
        npy = ends_npy(out);
        ynpy = yout && ends_npy(yout);
    } else if (!strcmp(format, "npy")) {
        npy = ynpy = 1;
    } else if (!strcmp(format, "raw")) {
        npy = ynpy = 0;
    } else {
        sl_cli_msg("gen", "unknown --format '%s' (npy or raw)", format);
        return 2;
    }
    if (shape_s && (!npy || (yout && !ynpy))) {
        sl_cli_msg("gen", "--shape: a raw file has no shape ('%s' is written raw: name it *.npy or give "
                   "--format npy)", !npy ? out : yout);
        return 2;
    }
    sl_params p;
    sl_params_defaults(ds, &p);
    for (int i = 0; i < nparams; i++)
        if (sl_params_set(ds, &p, params[i], &err)) {
            sl_cli_msg("gen", "--param %s: %s", params[i], err.msg);
            return 2;
        }
    if (!host_little_endian()) {
        sl_cli_msg("gen", "this host is big-endian: files are little-endian by definition");
        return 1;
    }

    unsigned threads = 1;
    if (sl_threads_choose(threads_s, &threads, &err)) {
        sl_cli_msg("gen", "%s", err.msg);
        return 2;
    }
    if (!yout) return gen_write(ds, dt, seed, n, 0, n, &p, out, npy, &sh, threads, 0);
    /* the pair apart: x is values [0, n) of the dataset's 2n, y values [n, 2n) */
    if (2 * n >= GEN_MAX_N) {
        sl_cli_msg("gen", "--n %s is too large for a pair (at most 2^39-1)", nstr);
        return 2;
    }
    /* both written to their .part first, then renamed: a failed y leaves x (and an earlier
     * pair in those files) as it was, never a new x beside an old y */
    char xpart[4100], ypart[4100];   /* (check_out_path: at most 4090 bytes each) */
    snprintf(xpart, sizeof xpart, "%s.part", out);
    snprintf(ypart, sizeof ypart, "%s.part", yout);
    int rc = gen_write(ds, dt, seed, 2 * n, 0, n, &p, out, npy, &sh, threads, 1);
    if (!rc) {
        rc = gen_write(ds, dt, seed, 2 * n, n, n, &p, yout, ynpy, &sh, threads, 1);
        if (rc) unlink(xpart);       /* (y's own .part, if it made one, is gone already) */
    }
    if (!rc && rename(ypart, yout) != 0) {
        sl_cli_msg("gen", "cannot rename '%s' to '%s': %s", ypart, yout, strerror(errno));
        unlink(ypart);
        unlink(xpart);
        rc = 1;
    }
    if (!rc && rename(xpart, out) != 0) {
        sl_cli_msg("gen", "cannot rename '%s' to '%s': %s", xpart, out, strerror(errno));
        unlink(xpart);
        rc = 1;
    }
    part_guard(NULL);
    if (!rc) {
        gen_wrote(n, dt, ds, seed, out, npy, &sh);
        gen_wrote(n, dt, ds, seed, yout, ynpy, &sh);
    }
    return rc;
}
