/* sl_datasets.h: the registry of adversarial dataset generators and the .npy / raw readers
 * and writers. Value i of a dataset is a pure function of (name, dtype, seed, n, params, i):
 * any slice of any size on any machine reproduces the same values. */
#ifndef SL_DATASETS_H
#define SL_DATASETS_H
#include "sl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SL_MAX_PARAMS 8

/* SL_PARAM_ENUM: a whole number 0..k-1 that names one of `choices` ("nan|inf|..."); "key=name"
 * and "key=index" both parse. */
typedef enum { SL_PARAM_INT, SL_PARAM_REAL, SL_PARAM_ENUM } sl_param_type;

typedef struct {
    const char *name;          /* key used as --param name=value */
    sl_param_type type;        /* SL_PARAM_INT values are whole numbers held in a double */
    double def, min, max;      /* default and accepted closed range */
    const char *description;   /* one line */
    const char *choices;       /* SL_PARAM_ENUM only: '|'-separated names; NULL otherwise */
} sl_param_desc;

typedef struct { double v[SL_MAX_PARAMS]; } sl_params; /* values in the order of the descs */

typedef struct sl_dataset sl_dataset;
struct sl_dataset {
    const char *name;          /* e.g. "ill-conditioned" */
    const char *description;   /* one line */
    const sl_param_desc *params;
    int nparams;
    /* Writes values start .. start+count-1 of the n-element dataset into out (float or
     * double per dt). Pure: depends only on its arguments. Returns 0, or -1 with err set. */
    int (*fill)(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n, const sl_params *p,
                uint64_t start, uint64_t count, void *out, sl_err *err);
};

size_t sl_dataset_count(void);
const sl_dataset *sl_dataset_at(size_t i);
const sl_dataset *sl_dataset_find(const char *name);          /* NULL when unknown */
void sl_params_defaults(const sl_dataset *ds, sl_params *p);
/* Parses "key=value" against ds's descs (unknown key, malformed or out-of-range value: -1). */
int sl_params_set(const sl_dataset *ds, sl_params *p, const char *kv, sl_err *err);
double sl_params_get(const sl_dataset *ds, const sl_params *p, const char *key); /* NaN if unknown */
/* Checks arguments (n <= 2^48, start+count <= n, params in range; p NULL = defaults) and calls
 * ds->fill. Family-specific failures (e.g. a cond out of reach in f32) also return -1. */
int sl_dataset_generate(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                        const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err);

/* sl_dataset_generate over up to `threads` threads (contiguous pieces of at least
 * SL_GEN_MIN_PER_THREAD values): the same values for every thread count, since value i is a
 * pure function of its arguments. On failure, err holds the first failing piece's message. */
#define SL_GEN_MAX_THREADS 256u
#define SL_GEN_MIN_PER_THREAD ((uint64_t)1 << 16)
int sl_dataset_generate_threads(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                                const sl_params *p, uint64_t start, uint64_t count, void *out,
                                unsigned threads, sl_err *err);

/* Name of value v of an SL_PARAM_ENUM param, written into buf (NULL if not an enum/out of range). */
const char *sl_param_choice(const sl_param_desc *d, double v, char *buf, size_t len);

/* Counter-based RNG: a 64-bit value that depends only on (seed, stream, i). */
uint64_t sl_rng_u64(uint64_t seed, uint64_t stream, uint64_t i);
double sl_rng_unit(uint64_t seed, uint64_t stream, uint64_t i);   /* uniform in [0,1), 53 bits */

/* Files. .npy: version 1.0/2.0/3.0, 1-D, '<f4' or '<f8', C order. Raw: little-endian values,
 * no header; the dtype is given by the caller and the size must be a multiple of it.
 * Readers allocate *data with malloc (caller frees); every malformed input is an error. */
int sl_npy_write(const char *path, const void *data, uint64_t n, sl_dtype dt, sl_err *err);
/* The .npy 1.0 header of a 1-D little-endian C-order array of n values of dt (a writer that
 * streams the data after it). Returns 0, or -1 on a write error (errno set). */
int sl_npy_write_header(FILE *f, uint64_t n, sl_dtype dt);
int sl_npy_read(const char *path, void **data, uint64_t *n, sl_dtype *dt, sl_err *err);
int sl_raw_write(const char *path, const void *data, uint64_t n, sl_dtype dt, sl_err *err);
int sl_raw_read(const char *path, sl_dtype dt, void **data, uint64_t *n, sl_err *err);
/* Chooses by content/extension: a file starting with the .npy magic is read as .npy; any
 * other file is raw and needs raw_dtype (a raw file without one is an error). */
int sl_array_load(const char *path, int have_raw_dtype, sl_dtype raw_dtype, void **data,
                  uint64_t *n, sl_dtype *dt, sl_err *err);

#ifdef __cplusplus
}
#endif
#endif
