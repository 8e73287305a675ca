/* provenance.c: collects and writes the provenance of a run (sl_provenance.h): git sha and
 * dirty flag (the SUMLAB_GIT_SHA environment variable, else git -C SUMLAB_SOURCE_DIR, else a
 * compile-time SUMLAB_GIT_SHA), build, GPU, MPFR/GMP versions, UTC date, host and command
 * line. */
#define _XOPEN_SOURCE 700
#include <cjson/cJSON.h>
#include <gmp.h>
#include <mpfr.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "sl_gpu.h"
#include "sumlab/pool.h"
#include "sl_provenance.h"

#ifndef SUMLAB_VERSION
#define SUMLAB_VERSION "unknown"
#endif
#ifndef SUMLAB_SOURCE_DIR
#define SUMLAB_SOURCE_DIR "."
#endif
#ifndef SUMLAB_C_COMPILER
#define SUMLAB_C_COMPILER "unknown"
#endif
#ifndef SUMLAB_CUDA_COMPILER
#define SUMLAB_CUDA_COMPILER ""
#endif

/* Runs a git command in the source tree; first output line into out. 0 on success. */
static int git_line(const char *args, char *out, size_t len, int *any_output)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "git -C '%s' %s 2>/dev/null", SUMLAB_SOURCE_DIR, args);
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    char line[256];
    int got = fgets(line, sizeof line, p) != NULL;
    if (got) {
        line[strcspn(line, "\r\n")] = '\0';
        if (out && len) {
            size_t l = strlen(line);
            if (l >= len) l = len - 1;
            memcpy(out, line, l);
            out[l] = '\0';
        }
    }
    while (fgets(line, sizeof line, p)) {}
    int st = pclose(p);
    if (any_output) *any_output = got;
    return st == 0 ? 0 : -1;
}

static void join_argv(char *out, size_t len, int argc, char *const *argv)
{
    size_t k = 0;
    out[0] = '\0';
    for (int i = 0; argv && i < argc && k + 1 < len; i++) {
        const char *a = argv[i];
        int quote = !*a || strpbrk(a, " \t\n'\"\\$`*?[]{}()<>|&;#~") != NULL;
        if (i) out[k++] = ' ';
        if (quote && k + 1 < len) out[k++] = '\'';
        for (; *a && k + 5 < len; a++) {
            if (*a == '\'' && quote) { memcpy(out + k, "'\\''", 4); k += 4; }
            else out[k++] = *a;
        }
        if (quote && k + 1 < len) out[k++] = '\'';
        out[k < len ? k : len - 1] = '\0';
    }
    out[k < len ? k : len - 1] = '\0';
}

/* The source revision: SUMLAB_GIT_SHA from the environment (a copied tree whose .git does not
 * match its files names its revision there), else git (`rev_args` picks the form) with the
 * dirty flag, else the compile-time SUMLAB_GIT_SHA, else "unknown". *dirty: 1, 0, or -1 when
 * git was not asked. */
static void source_revision(char *sha, size_t len, const char *rev_args, int *dirty)
{
    *dirty = -1;
    const char *env_sha = getenv("SUMLAB_GIT_SHA");
    if (env_sha && *env_sha) {
        snprintf(sha, len, "%s", env_sha);
    } else if (git_line(rev_args, sha, len, NULL) == 0) {
        int any = 0;
        if (git_line("status --porcelain --untracked-files=no", NULL, 0, &any) == 0) *dirty = any;
    } else {
#ifdef SUMLAB_GIT_SHA
        snprintf(sha, len, "%s", SUMLAB_GIT_SHA);
#else
        snprintf(sha, len, "unknown");
#endif
    }
}

/* The host CPU: its model name, cores, and whether it has AVX2 (CPU timings depend on all three:
 * the exact reference takes its vector paths only with AVX2). */
static void cpu_info(sl_provenance *p)
{
    snprintf(p->cpu_model, sizeof p->cpu_model, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "model name", 10) != 0) continue;
            const char *c = strchr(line, ':');
            if (!c) break;
            c++;
            while (*c == ' ' || *c == '\t') c++;
            snprintf(p->cpu_model, sizeof p->cpu_model, "%s", c);
            p->cpu_model[strcspn(p->cpu_model, "\r\n")] = '\0';
            break;
        }
        fclose(f);
    }
    p->cpu_cores = (int)sl_threads_online();
#if defined(__x86_64__) || defined(__i386__)
    p->cpu_avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
#else
    p->cpu_avx2 = -1;
#endif
}

void sl_provenance_collect(sl_provenance *p, int argc, char *const *argv)
{
    memset(p, 0, sizeof *p);
    snprintf(p->sumlab_version, sizeof p->sumlab_version, "%s", SUMLAB_VERSION);

    source_revision(p->git_sha, sizeof p->git_sha, "rev-parse HEAD", &p->git_dirty);

    snprintf(p->compiler, sizeof p->compiler, "%s", SUMLAB_C_COMPILER);
    p->gpu_compiled = sl_gpu_compiled();
    if (p->gpu_compiled) snprintf(p->cuda_compiler, sizeof p->cuda_compiler, "%s", SUMLAB_CUDA_COMPILER);

    sl_gpu_info gi;
    sl_err why = {{0}};
    memset(&gi, 0, sizeof gi);
    p->gpu_present = sl_gpu_available(&gi, &why) == 1;
    if (p->gpu_present) {
        snprintf(p->gpu_name, sizeof p->gpu_name, "%s", gi.name);
        p->gpu_sm_count = gi.sm_count;
        p->gpu_cc_major = gi.cc_major;
        p->gpu_cc_minor = gi.cc_minor;
        p->gpu_clock_khz = gi.clock_khz;
        p->gpu_mem_clock_khz = gi.mem_clock_khz;
        p->gpu_mem_bus_bits = gi.mem_bus_bits;
        p->gpu_l2_bytes = gi.l2_bytes;
        p->gpu_mem_bytes = gi.global_mem_bytes;
        p->cuda_driver = gi.driver_version;
        p->cuda_runtime = gi.runtime_version;
    } else {
        snprintf(p->gpu_note, sizeof p->gpu_note, "%s", why.msg[0] ? why.msg : "no GPU");
    }

    snprintf(p->mpfr_ver, sizeof p->mpfr_ver, "%s", mpfr_get_version());
    snprintf(p->gmp_ver, sizeof p->gmp_ver, "%s", gmp_version);

    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm)) strftime(p->date, sizeof p->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    else snprintf(p->date, sizeof p->date, "unknown");
    if (gethostname(p->hostname, sizeof p->hostname - 1) != 0)
        snprintf(p->hostname, sizeof p->hostname, "unknown");
    p->hostname[sizeof p->hostname - 1] = '\0';
    cpu_info(p);
    join_argv(p->argv, sizeof p->argv, argc, argv);
}

static void version_str(char *b, size_t len, int v)
{
    if (v > 0) snprintf(b, len, "%d.%d", v / 1000, (v % 1000) / 10);
    else snprintf(b, len, "unknown");
}

/* The list of (key, value) pairs both writers print; numbers marked for JSON. */
typedef struct { const char *key; char val[4096]; int is_num; } kv;

static size_t pairs(const sl_provenance *p, kv *o)
{
    size_t k = 0;
#define S(K, ...) do { o[k].key = K; o[k].is_num = 0; snprintf(o[k].val, sizeof o[k].val, __VA_ARGS__); k++; } while (0)
#define N(K, ...) do { o[k].key = K; o[k].is_num = 1; snprintf(o[k].val, sizeof o[k].val, __VA_ARGS__); k++; } while (0)
    S("sumlab_version", "%s", p->sumlab_version);
    S("git_sha", "%s", p->git_sha);
    S("git_dirty", "%s", p->git_dirty < 0 ? "unknown" : p->git_dirty ? "yes" : "no");
    S("date_utc", "%s", p->date);
    S("hostname", "%s", p->hostname);
    S("cpu_model", "%s", p->cpu_model);
    N("cpu_cores", "%d", p->cpu_cores);
    S("cpu_avx2", "%s", p->cpu_avx2 < 0 ? "n/a" : p->cpu_avx2 ? "yes" : "no");
    S("argv", "%s", p->argv);
    S("c_compiler", "%s", p->compiler);
    S("cuda_compiler", "%s", p->gpu_compiled ? p->cuda_compiler : "none (built without CUDA)");
    S("mpfr_version", "%s", p->mpfr_ver);
    S("gmp_version", "%s", p->gmp_ver);
    if (p->gpu_present) {
        char b[32];
        S("gpu_name", "%s", p->gpu_name);
        N("gpu_sm_count", "%d", p->gpu_sm_count);
        S("gpu_compute_capability", "%d.%d", p->gpu_cc_major, p->gpu_cc_minor);
        N("gpu_clock_mhz", "%d", p->gpu_clock_khz / 1000);
        N("gpu_mem_clock_mhz", "%d", p->gpu_mem_clock_khz / 1000);
        N("gpu_mem_bus_bits", "%d", p->gpu_mem_bus_bits);
        N("gpu_l2_bytes", "%llu", p->gpu_l2_bytes);
        N("gpu_mem_bytes", "%llu", p->gpu_mem_bytes);
        version_str(b, sizeof b, p->cuda_driver);
        S("cuda_driver", "%s", b);
        version_str(b, sizeof b, p->cuda_runtime);
        S("cuda_runtime", "%s", b);
    } else {
        S("gpu_name", "none");
        S("gpu_note", "%s", p->gpu_note);
    }
#undef S
#undef N
    return k;
}

cJSON *sl_provenance_json(const sl_provenance *p)
{
    static kv o[32];
    size_t k = pairs(p, o);
    cJSON *obj = cJSON_CreateObject();
    for (size_t i = 0; obj && i < k; i++) {
        /* numbers as their exact text (byte counts pass 2^53 on large GPUs one day) */
        cJSON *m = o[i].is_num ? cJSON_AddRawToObject(obj, o[i].key, o[i].val)
                               : cJSON_AddStringToObject(obj, o[i].key, o[i].val);
        if (!m) {
            cJSON_Delete(obj);
            return NULL;
        }
    }
    return obj;
}

void sl_provenance_write_comments(const sl_provenance *p, FILE *f)
{
    static kv o[32];
    size_t k = pairs(p, o);
    for (size_t i = 0; i < k; i++) {
        /* one line per key: newlines in values would break the preamble */
        for (char *c = o[i].val; *c; c++)
            if (*c == '\n' || *c == '\r') *c = ' ';
        fprintf(f, "# %s: %s\n", o[i].key, o[i].val);
    }
}

void sl_print_version(FILE *f)
{
    char sha[48];
    int dirty;
    source_revision(sha, sizeof sha, "rev-parse --short=12 HEAD", &dirty);
    fprintf(f, "sumlab %s (git %s%s; GPU kernels %s; MPFR %s)\n", SUMLAB_VERSION, sha,
            dirty == 1 ? ", dirty" : "", sl_gpu_compiled() ? "built" : "not built",
            mpfr_get_version());
}
