/* sl_provenance.h: where a result came from (commit, build, GPU, libraries, date, host,
 * command line), collected once and written as a JSON object or as `# key: value` lines. */
#ifndef SL_PROVENANCE_H
#define SL_PROVENANCE_H
#include <stdio.h>
#include "sumlab/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    char sumlab_version[32];
    char git_sha[48];          /* "unknown" when neither git nor a compile-time sha is known */
    int git_dirty;             /* 1 dirty, 0 clean, -1 unknown */
    char compiler[128];        /* C compiler id and version */
    char cuda_compiler[128];   /* "" when built without CUDA */
    int gpu_compiled;          /* 1 when the GPU kernels were built */
    int gpu_present;           /* 1 when a usable GPU was found */
    char gpu_note[SL_ERRLEN];        /* why not, when gpu_present is 0 */
    char gpu_name[256];
    int gpu_sm_count;
    int gpu_cc_major, gpu_cc_minor;
    int gpu_clock_khz, gpu_mem_clock_khz, gpu_mem_bus_bits;
    unsigned long long gpu_l2_bytes, gpu_mem_bytes;
    int cuda_driver, cuda_runtime; /* e.g. 13000; 0 unknown */
    char mpfr_ver[32];
    char gmp_ver[32];
    char date[32];             /* ISO 8601 UTC, e.g. 2026-01-31T12:00:00Z */
    char hostname[128];
    char cpu_model[128];       /* /proc/cpuinfo's "model name" (Linux), else "unknown" */
    int cpu_cores;             /* cores online */
    int cpu_avx2;              /* 1 yes, 0 no (the exact reference's vector paths), -1 not x86 */
    char argv[4096];           /* the command line, shell-quoted where needed */
} sl_provenance;

/* Fills p (never fails: unknown fields say "unknown"). argv may be NULL. Queries the GPU
 * through sl_gpu_available (SUMLAB_NO_GPU=1 is honoured). */
void sl_provenance_collect(sl_provenance *p, int argc, char *const *argv);
/* p as a cJSON object (numbers as exact integer text); NULL when out of memory. The caller
 * owns it (cJSON_Delete, or adds it to another object). */
struct cJSON *sl_provenance_json(const sl_provenance *p);
/* Writes p as `# key: value` lines (CSV comment preamble). */
void sl_provenance_write_comments(const sl_provenance *p, FILE *f);

/* One line: "sumlab VERSION (git SHA[, dirty]; GPU kernels built|not built; MPFR x)". */
void sl_print_version(FILE *f);

#ifdef __cplusplus
}
#endif
#endif
