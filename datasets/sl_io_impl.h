/* sl_io_impl.h: internals shared by the array readers io.c, npy.c, npz.c and io_util.c (not part of the
 * public contract): byte sources (a plain file or one zip member), quoting of file bytes. */
#ifndef SL_IO_IMPL_H
#define SL_IO_IMPL_H
#include "sl_datasets.h"
#include <stdio.h>

#define SL_IO_CHUNK ((size_t)1 << 24)

/* A stream of `size` bytes: a plain file (read == NULL: its bytes from the current position) or
 * the uncompressed contents of one zip member (z, read, finish: npz.c's stored/deflate decoder, which checks
 * the member's CRC-32 and sizes in sl_src_finish). `label` names it in every message ("x.npy"
 * or "x.npz:key"); `kind` is "file" or "zip member". */
typedef struct sl_zmember sl_zmember;
typedef struct sl_src sl_src;
struct sl_src {
    FILE *f;
    const char *label;
    const char *kind;
    uint64_t size; /* bytes the stream holds: the file's size, or the member's declared size */
    uint64_t pos;  /* bytes delivered so far */
    sl_zmember *z;
    /* a zip member's decoder (npz.c); NULL for a plain file */
    int (*read)(sl_src *s, void *buf, size_t len, size_t *got, sl_err *err);
    int (*finish)(sl_src *s, sl_err *err);
};

/* Reads up to len bytes (fewer only at the end of the stream: *got tells). -1 with err set on a
 * read error or corrupt compressed data. */
int sl_src_read(sl_src *s, void *buf, size_t len, size_t *got, sl_err *err);
/* The bytes a reader asks sl_src_read for at a time (more with sl_io_set_threads threads). */
size_t sl_src_chunk(void);
/* After the last byte the reader wanted: checks that the stream holds nothing more and, for a
 * zip member, that its deflate stream ended exactly there and its CRC-32 matches. */
int sl_src_finish(sl_src *s, sl_err *err);


/* Reads one .npy image from s (magic, version, header, data) into a new malloc'ed buffer of
 * host-order values; fills info's array fields (ndim, shape, order, byte order, version) when
 * info is not NULL. Calls sl_src_finish. */
int sl_npy_read_src(sl_src *s, void **data, uint64_t *n, sl_dtype *dt, sl_array_info *info,
                    sl_err *err);

/* The header of the .npy image in s (sl_array_layout_get). */
int sl_npy_layout_src(sl_src *s, sl_array_layout *lay, sl_err *err);

/* Reads member `key` of the .npz archive `path` (key NULL: the archive's only member). */
int sl_npz_read(const char *path, const char *key, void **data, uint64_t *n, sl_dtype *dt,
                sl_array_info *info, sl_err *err);

/* Opens a regular file for reading (FIFOs and directories refused without blocking). */
FILE *sl_open_read(const char *path, uint64_t *size, sl_err *err);

/* Up to `max` bytes of s (stopping at NUL or end) as one printable ASCII line: other bytes
 * become \n, \r, \t or \xNN, so a message quoting file bytes stays one line. */
const char *sl_printable(char *buf, size_t len, const char *s, const char *end, size_t max);

int sl_host_is_le(void);
void sl_swap_elems(unsigned char *p, size_t nelem, size_t sz);
#endif
