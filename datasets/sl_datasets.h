/* sl_datasets.h: the registry of adversarial dataset generators and the .npy / raw readers
 * and writers. Value i of a dataset is a pure function of (name, dtype, seed, n, params, i):
 * any slice of any size on any machine reproduces the same values. */
#ifndef SL_DATASETS_H
#define SL_DATASETS_H
#include "sumlab/types.h"

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
    unsigned flags;            /* SL_DS_* bits below (0 for most families) */
};

/* SL_DS_OPT_IN: sweeps over every family (the study's accuracy-vs-n) leave this family out
 * unless the user names it (`--datasets`). Set on the families built for the moment operations
 * (mean, var, std, max, min), whose rows would otherwise change every summation study. */
#define SL_DS_OPT_IN 1u
/* SL_DS_PAIR: the family yields the pair (x, y) of a two-input operation (dot): its dataset of
 * length 2n holds x in values [0, n) and y in values [n, 2n); sl_dataset_generate_pair fills both
 * (its length must be even). Pair families are opt-in too. */
#define SL_DS_PAIR 2u
int sl_dataset_generate_pair(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                             const sl_params *p, void *x, void *y, unsigned threads, sl_err *err);

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

/* Files. .npy: versions 1.0/2.0/3.0 as NumPy writes them: any number of dimensions (up to
 * SL_ARRAY_MAX_DIMS; values are taken in memory order, i.e. the file's order, row-major for C
 * order and column-major for fortran_order True), dtype '<f4', '>f4', '<f8', '>f8', '<f2', '>f2'
 * (float16) or '<V2' (bfloat16 as np.save writes an ml_dtypes.bfloat16 array: a 2-byte
 * little-endian void type; a '<V2' header is read as bfloat16) (big-endian
 * values are byte-swapped on read), 0-d arrays (one value) and zero-size shapes (n = 0). The
 * header is read as NumPy's reader does (a Python dict literal: comments, any quotes, spacing,
 * trailing commas, grouping parentheses, int literals such as 0x10 or 1_000); what NumPy would
 * refuse is an error, and so are a repeated key and descr spellings NumPy never writes for
 * float32/float64 ('=f4', '|f8', 'float32', ...).
 * .npz: a zip archive (np.savez: stored members; np.savez_compressed: deflate), member KEY.npy
 * named as "FILE.npz:KEY"; zip64 records are read; every member read has its CRC-32 checked.
 * Raw: little-endian values, no header; the dtype is given by the caller and the size must be
 * a multiple of it. Readers allocate *data with malloc (caller frees) and return host-order
 * values; every malformed input is an error naming the file (and member). */
/* The descr the writer puts in a .npy header: '<f4', '<f8', '<f2', and for bfloat16 '<V2' (what
 * np.save writes for an ml_dtypes.bfloat16 array; read back with .view(ml_dtypes.bfloat16)). */
const char *sl_npy_descr(sl_dtype dt);
/* The writers write path in place, closed with its errors checked (the tests' and tools' files:
 * `sumlab gen` writes FILE.part, syncs it and renames it over FILE instead). */
int sl_npy_write(const char *path, const void *data, uint64_t n, sl_dtype dt, sl_err *err);
/* The .npy 1.0 header of a 1-D little-endian C-order array of n values of dt (a writer that
 * streams the data after it). Returns 0, or -1 on a write error (errno set). */
int sl_npy_write_header(FILE *f, uint64_t n, sl_dtype dt);
/* The same for a C-order array of shape shape[0..ndim), 1 <= ndim <= SL_NPY_WRITE_MAX_DIMS (else
 * -1, errno EINVAL). */
#define SL_NPY_WRITE_MAX_DIMS 16
int sl_npy_write_header_shape(FILE *f, const uint64_t *shape, int ndim, sl_dtype dt);
/* A .npy file (any shape: n is the number of values, in memory order). */
int sl_npy_read(const char *path, void **data, uint64_t *n, sl_dtype *dt, sl_err *err);
int sl_raw_write(const char *path, const void *data, uint64_t n, sl_dtype dt, sl_err *err);
int sl_raw_read(const char *path, sl_dtype dt, void **data, uint64_t *n, sl_err *err);
/* Chooses by content/extension: "FILE.npz:KEY" (when no file has that whole name) is member KEY
 * of an .npz; a file starting with the zip magic, or named *.npz, is an .npz whose only member
 * is read (several members: an error listing the keys); a file starting with the .npy magic,
 * or named *.npy, is read as .npy; any other file is raw and needs raw_dtype (a raw file
 * without one is an error). */
/* Threads the readers of plain files use (pread of slices at once; default 1); call before any
 * reader runs. The bytes read are the same for every count. */
void sl_io_set_threads(unsigned threads);
int sl_array_load(const char *path, int have_raw_dtype, sl_dtype raw_dtype, void **data,
                  uint64_t *n, sl_dtype *dt, sl_err *err);

#define SL_ARRAY_MAX_DIMS 64    /* NumPy 2's limit; a .npy header with more dims is an error */
#define SL_ARRAY_MEMBER_MAX 256 /* longest .npz key + 1; a longer key asked for is an error */
#define SL_ARRAY_NOTE_MAX 8192  /* holds any path below PATH_MAX with a full 64-dim shape */

typedef enum { SL_ARRAY_RAW = 0, SL_ARRAY_NPY = 1, SL_ARRAY_NPZ = 2 } sl_array_format;

/* What sl_array_load_ex read. shape has ndim entries (ndim 0: a 0-d array of one value; raw
 * files: ndim 1, shape {n}); n is their product. */
typedef struct {
    sl_array_format format;
    int npy_major, npy_minor;   /* .npy version (0.0 for raw) */
    int ndim;
    uint64_t shape[SL_ARRAY_MAX_DIMS];
    uint64_t n;
    int fortran_order;          /* 1: the file's memory order is column-major (values are still
                                 * taken in that memory order) */
    int big_endian;             /* the file's values are big-endian ('>f4' / '>f8') */
    int byte_swapped;           /* their bytes were reversed on read (file order != host order) */
    char member[SL_ARRAY_MEMBER_MAX]; /* .npz: the key read, as in "FILE.npz:KEY"; "" otherwise */
    int member_implicit;        /* .npz: key not given, the archive's only member was read */
    int zip_method;             /* .npz: 0 stored, 8 deflate; -1 otherwise */
    /* One line for the CLI to print on stderr, without a newline, e.g.
     * "x.npy: 3-D array (4, 5, 6), C order: summed in memory order (120 values)".
     * Empty for a 1-D array of a file or an explicitly named member (nothing to say); set for
     * every other shape (0-d, N-D) and for a member read implicitly from a bare FILE.npz. */
    char note[SL_ARRAY_NOTE_MAX];
} sl_array_info;

/* Where the values of a plain .npy or raw file lie, for readers of one slice (pread at
 * offset + i * size): the header is read and checked as sl_array_load does, the data is not.
 * swap: big-endian values (byte-swap after reading). An .npz member has no byte layout: -1 with
 * err saying so (read it whole). */
typedef struct {
    sl_array_format format;
    uint64_t offset;           /* byte offset of value 0 */
    uint64_t n;
    sl_dtype dt;
    int swap;
} sl_array_layout;
int sl_array_layout_get(const char *path, int have_raw_dtype, sl_dtype raw_dtype,
                        sl_array_layout *lay, sl_err *err);

/* The shape path: an array read by sl_array_load_ex (its info) seen as rows reduced along one
 * axis. axis: 0 .. ndim-1, or negative counting from the end (-1 the last); a 0-d or 1-d array
 * takes 0 or -1 only (one row). On success *rows x *n values lie in *data in C order, row r the
 * values along the axis at the r-th position of the other axes (in C order of those axes);
 * when the axis is not already the contiguous last one in memory, *data is replaced by such a
 * copy (the old buffer freed) and *moved is 1. Errors (-1, err naming the file's shape): the
 * axis out of range, and a non-reducible shape (the axis of length 0, or no rows). */
int sl_array_rows(const sl_array_info *info, sl_dtype dt, long axis, void **data, uint64_t *rows,
                  uint64_t *n, int *moved, sl_err *err);
/* "(4, 5, 6)" into buf (a shape for messages). */
const char *sl_array_shape_text(const sl_array_info *info, char *buf, size_t len);
/* The same of shape[0..ndim), as NumPy writes a shape ("(5,)" for one axis, "()" for none): the
 * .npy header's and the messages' form. */
const char *sl_shape_text(const uint64_t *shape, int ndim, char *buf, size_t len);

/* sl_array_load that also fills *info (info may be NULL). On failure info is unspecified. */
int sl_array_load_ex(const char *path, int have_raw_dtype, sl_dtype raw_dtype, void **data,
                     uint64_t *n, sl_dtype *dt, sl_array_info *info, sl_err *err);

#ifdef __cplusplus
}
#endif
#endif
