/* npz.c: the .npz reader: one member of a zip archive as np.savez (stored) and
 * np.savez_compressed (deflate, through zlib) write it, zip64 records included, CRC-32 checked. */
#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64
#include "sl_io_impl.h"
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/types.h>
#include <zlib.h>

#define EOCD_SIG 0x06054b50u
#define Z64_LOC_SIG 0x07064b50u
#define Z64_EOCD_SIG 0x06064b50u
#define CDIR_SIG 0x02014b50u
#define LOCAL_SIG 0x04034b50u
#define EOCD_LEN 22
#define Z64_LOC_LEN 20
#define Z64_EOCD_LEN 56
#define CDIR_LEN 46
#define LOCAL_LEN 30
#define ZIP_MAX_COMMENT 65535
#define ZIP_MAX_EXTRACT_VERSION 63 /* as Python's zipfile: newer features are refused */
#define KEYS_SHOWN 300             /* bytes of key list quoted in a message */

struct sl_zmember {
    int method;         /* 0 stored, 8 deflate */
    uint64_t csize;     /* the member's compressed size */
    uint64_t cleft;     /* compressed bytes not yet read from the file */
    uint32_t crc, crc_want;
    int zinit, ended;   /* inflate state made; deflate stream's end seen */
    z_stream zs;
    unsigned char in[1 << 16];
};

static uint32_t le16(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t le32(const unsigned char *p) { return le16(p) | le16(p + 2) << 16; }
static uint64_t le64(const unsigned char *p) { return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32; }

static uint32_t crc_update(uint32_t crc, const unsigned char *p, size_t len)
{
    while (len > 0) {
        uInt k = len > (1u << 30) ? (1u << 30) : (uInt)len;
        crc = (uint32_t)crc32(crc, p, k);
        p += k;
        len -= k;
    }
    return crc;
}

/* Reads exactly len bytes of the archive at offset off. */
static int read_at(FILE *f, const char *path, uint64_t off, void *buf, size_t len, const char *what, sl_err *err)
{
    if (off > (uint64_t)INT64_MAX || fseeko(f, (off_t)off, SEEK_SET) != 0) {
        return sl_err_set(err, "%s: cannot seek to the %s at offset %llu: %s", path, what, (unsigned long long)off,
                          strerror(errno));
    }
    if (fread(buf, 1, len, f) != len) {
        if (ferror(f)) return sl_err_set(err, "%s: read error in the %s: %s", path, what, strerror(errno));
        return sl_err_set(err, "%s: zip archive is truncated in the %s (offset %llu)", path, what,
                          (unsigned long long)off);
    }
    return 0;
}

/* Fills the compressed input buffer from the file. */
static int refill(sl_src *s, sl_err *err)
{
    sl_zmember *z = s->z;
    size_t k = z->cleft > sizeof z->in ? sizeof z->in : (size_t)z->cleft;
    if (fread(z->in, 1, k, s->f) != k) {
        if (ferror(s->f)) return sl_err_set(err, "%s: read error: %s", s->label, strerror(errno));
        return sl_err_set(err, "%s: zip archive is truncated in the member's compressed data", s->label);
    }
    z->cleft -= k;
    z->zs.next_in = z->in;
    z->zs.avail_in = (uInt)k;
    return 0;
}

/* One inflate step into out[0..len); *made: bytes produced. */
static int inflate_step(sl_src *s, unsigned char *out, size_t len, size_t *made, sl_err *err)
{
    sl_zmember *z = s->z;
    *made = 0;
    if (z->zs.avail_in == 0 && z->cleft > 0 && refill(s, err)) return -1;
    uInt want = len > (1u << 30) ? (1u << 30) : (uInt)len;
    z->zs.next_out = out;
    z->zs.avail_out = want;
    int ret = inflate(&z->zs, Z_NO_FLUSH);
    *made = want - z->zs.avail_out;
    if (ret == Z_STREAM_END) {
        z->ended = 1;
        return 0;
    }
    if (ret == Z_OK) return 0;
    if (ret == Z_BUF_ERROR && z->zs.avail_in == 0 && z->cleft == 0) {
        return sl_err_set(err, "%s: deflate data ends early (the archive says %llu compressed bytes)",
                          s->label, (unsigned long long)z->csize);
    }
    if (ret == Z_BUF_ERROR) return 0;
    return sl_err_set(err, "%s: corrupt deflate data (zlib: %s)", s->label,
                      z->zs.msg ? z->zs.msg : ret == Z_MEM_ERROR ? "out of memory" : "error");
}

static int zmember_read(sl_src *s, void *buf, size_t len, size_t *got, sl_err *err)
{
    sl_zmember *z = s->z;
    unsigned char *out = buf;
    if (len > s->size - s->pos) len = (size_t)(s->size - s->pos); /* never past the declared size */
    size_t done = 0;
    if (z->method == 0) {
        size_t k = len > z->cleft ? (size_t)z->cleft : len;
        if (fread(out, 1, k, s->f) != k) {
            if (ferror(s->f)) return sl_err_set(err, "%s: read error: %s", s->label, strerror(errno));
            return sl_err_set(err, "%s: zip archive is truncated in the member's data", s->label);
        }
        z->cleft -= k;
        done = k;
    } else {
        while (done < len && !z->ended) {
            size_t made;
            if (inflate_step(s, out + done, len - done, &made, err)) return -1;
            done += made;
        }
    }
    z->crc = crc_update(z->crc, out, done);
    s->pos += done;
    *got = done;
    if (done < len) {
        return sl_err_set(err, "%s: deflate data ends after %llu bytes, but the archive declares %llu "
                          "(wrong sizes)", s->label, (unsigned long long)s->pos, (unsigned long long)s->size);
    }
    return 0;
}

static int zmember_finish(sl_src *s, sl_err *err)
{
    sl_zmember *z = s->z;
    if (z->method == 8) {
        while (!z->ended) { /* the stream must end exactly at the declared size */
            unsigned char scratch[64];
            size_t made;
            if (inflate_step(s, scratch, sizeof scratch, &made, err)) return -1;
            if (made > 0) {
                return sl_err_set(err, "%s: member holds more than the %llu bytes the archive declares "
                                  "(wrong sizes)", s->label, (unsigned long long)s->size);
            }
        }
        if (z->zs.avail_in > 0 || z->cleft > 0) {
            return sl_err_set(err, "%s: %llu compressed bytes follow the end of the deflate stream "
                              "(wrong compressed size)", s->label,
                              (unsigned long long)(z->zs.avail_in + z->cleft));
        }
    }
    if (z->crc != z->crc_want) {
        return sl_err_set(err, "%s: CRC-32 mismatch (computed %08lx, the archive says %08lx): the member is "
                          "corrupted", s->label, (unsigned long)z->crc, (unsigned long)z->crc_want);
    }
    return 0;
}

/* ---- the zip directory ------------------------------------------------------------------- */
typedef struct {
    const unsigned char *name;
    size_t nlen;
    uint32_t flags, method, version, crc;
    uint64_t csize, usize, off;
} zentry;

/* The zip64 extended-information field (id 1) among extra fields x[0..xl): *z64 or NULL.
 * -1 when the fields are malformed (a length past the end) or id 1 appears twice. */
static int find_zip64(const unsigned char *x, size_t xl, const unsigned char **z64, size_t *z64l)
{
    *z64 = NULL;
    *z64l = 0;
    size_t p = 0;
    while (xl - p >= 4) { /* fewer than 4 bytes left: padding, ignored as zipfile does */
        uint32_t id = le16(x + p), l = le16(x + p + 2);
        if (l > xl - p - 4) return -1;
        if (id == 1) {
            if (*z64) return -1;
            *z64 = x + p + 4;
            *z64l = l;
        }
        p += 4 + l;
    }
    return 0;
}

/* Takes the next 8-byte (or 4-byte) value of a zip64 field for a header field that holds the
 * all-ones marker. */
static int z64_take(const unsigned char *z, size_t zl, size_t *p, size_t width, uint64_t *v)
{
    if (!z || zl - *p < width || *p > zl) return -1;
    *v = width == 8 ? le64(z + *p) : le32(z + *p);
    *p += width;
    return 0;
}

/* The member's key: its name less ".npy" (as NpzFile.files lists it). */
static size_t key_len(const zentry *e)
{
    return e->nlen >= 4 && !memcmp(e->name + e->nlen - 4, ".npy", 4) ? e->nlen - 4 : e->nlen;
}

/* 'a', 'b', ... (escaped) into buf; "... and N more" when they do not all fit. */
static void list_keys(char *buf, size_t len, const zentry *es, size_t count)
{
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < count; i++) {
        char esc[4 * 64 + 8];
        const char *nm = (const char *)es[i].name;
        size_t kl = key_len(&es[i]);
        sl_printable(esc, sizeof esc - 4, nm, nm + kl, 64);
        if (kl > 64) strcat(esc, "...");
        size_t need = strlen(esc) + 4;
        if (k + need + 24 > len) {
            snprintf(buf + k, len - k, "... and %zu more", count - i);
            return;
        }
        k += (size_t)snprintf(buf + k, len - k, "%s'%s'", i ? ", " : "", esc);
    }
}

static int cmp_names(const void *a, const void *b)
{
    const zentry *x = *(const zentry *const *)a, *y = *(const zentry *const *)b;
    size_t l = x->nlen < y->nlen ? x->nlen : y->nlen;
    int c = memcmp(x->name, y->name, l);
    return c ? c : x->nlen < y->nlen ? -1 : x->nlen > y->nlen;
}

static const char *method_name(uint32_t m)
{
    switch (m) {
    case 1: return "shrink";
    case 6: return "implode";
    case 9: return "deflate64";
    case 12: return "bzip2";
    case 14: return "lzma";
    case 93: return "zstandard";
    case 95: return "xz";
    case 99: return "AES encryption";
    default: return "unknown";
    }
}

/* Finds the end records and reads the central directory: *cd (malloc'ed, cd_size bytes),
 * *cd_off, *count. */
static int read_directory(FILE *f, const char *path, uint64_t size, unsigned char **cd, uint64_t *cd_off,
                          uint64_t *cd_size, uint64_t *count, sl_err *err)
{
    *cd = NULL;
    size_t tl = size < EOCD_LEN + ZIP_MAX_COMMENT + Z64_LOC_LEN ? (size_t)size : EOCD_LEN + ZIP_MAX_COMMENT + Z64_LOC_LEN;
    unsigned char *tail = malloc(tl ? tl : 1);
    if (!tail) return sl_err_set(err, "%s: out of memory", path);
    if (read_at(f, path, size - tl, tail, tl, "archive's end", err)) {
        free(tail);
        return -1;
    }
    /* the end record: the last signature whose comment length reaches exactly the end */
    size_t e = (size_t)-1;
    int any_sig = 0;
    for (size_t p = tl >= EOCD_LEN ? tl - EOCD_LEN + 1 : 0; p-- > 0;)
        if (le32(tail + p) == EOCD_SIG) {
            any_sig = 1;
            if (p + EOCD_LEN + le16(tail + p + 20) == tl) {
                e = p;
                break;
            }
        }
    if (e == (size_t)-1) {
        free(tail);
        if (any_sig) {
            return sl_err_set(err, "%s: zip end-of-central-directory record does not match the file's end "
                              "(truncated, or trailing bytes)", path);
        }
        return sl_err_set(err, "%s: not a zip archive, or a truncated one (no end-of-central-directory "
                          "record)", path);
    }
    const unsigned char *r = tail + e;
    uint64_t eocd_abs = size - tl + e;
    uint32_t disk = le16(r + 4), cd_disk = le16(r + 6);
    uint64_t n_here = le16(r + 8), n_all = le16(r + 10), csz = le32(r + 12), coff = le32(r + 16);
    uint64_t cd_end = eocd_abs;
    if (eocd_abs >= Z64_LOC_LEN) {
        unsigned char loc[Z64_LOC_LEN], z[Z64_EOCD_LEN];
        if (read_at(f, path, eocd_abs - Z64_LOC_LEN, loc, Z64_LOC_LEN, "zip64 end locator", err)) {
            free(tail);
            return -1;
        }
        if (le32(loc) == Z64_LOC_SIG) {
            uint64_t zoff = le64(loc + 8);
            if (le32(loc + 4) != 0 || le32(loc + 16) != 1) {
                free(tail);
                return sl_err_set(err, "%s: multi-disk zip archives are not supported", path);
            }
            if (zoff > eocd_abs - Z64_LOC_LEN || eocd_abs - Z64_LOC_LEN - zoff < Z64_EOCD_LEN) {
                free(tail);
                return sl_err_set(err, "%s: zip64 end record offset %llu is outside the archive", path,
                                  (unsigned long long)zoff);
            }
            if (read_at(f, path, zoff, z, Z64_EOCD_LEN, "zip64 end record", err)) {
                free(tail);
                return -1;
            }
            uint64_t rsz = le64(z + 4);
            if (le32(z) != Z64_EOCD_SIG || rsz < Z64_EOCD_LEN - 12 || rsz > eocd_abs - Z64_LOC_LEN - zoff - 12 ||
                zoff + 12 + rsz != eocd_abs - Z64_LOC_LEN) {
                free(tail);
                return sl_err_set(err, "%s: damaged zip64 end-of-central-directory record", path);
            }
            uint32_t d64 = le32(z + 16), cd64 = le32(z + 20);
            uint64_t h64 = le64(z + 24), a64 = le64(z + 32), s64 = le64(z + 40), o64 = le64(z + 48);
            /* the 32-bit fields hold the all-ones marker or the same value */
            if ((disk != 0xFFFF && disk != d64) || (cd_disk != 0xFFFF && cd_disk != cd64) ||
                (n_here != 0xFFFF && n_here != h64) || (n_all != 0xFFFF && n_all != a64) ||
                (csz != 0xFFFFFFFF && csz != s64) || (coff != 0xFFFFFFFF && coff != o64)) {
                free(tail);
                return sl_err_set(err, "%s: zip end record and zip64 end record disagree", path);
            }
            disk = d64, cd_disk = cd64, n_here = h64, n_all = a64, csz = s64, coff = o64;
            cd_end = zoff;
        }
    }
    free(tail);
    if (disk != 0 || cd_disk != 0 || n_here != n_all) {
        return sl_err_set(err, "%s: multi-disk zip archives are not supported", path);
    }
    if (coff > cd_end || csz != cd_end - coff) {
        return sl_err_set(err, "%s: zip central directory (offset %llu, %llu bytes) does not end where the end "
                          "record begins (offset %llu): truncated or damaged archive", path,
                          (unsigned long long)coff, (unsigned long long)csz, (unsigned long long)cd_end);
    }
    if (n_all > csz / CDIR_LEN) {
        return sl_err_set(err, "%s: zip end record announces %llu members, more than %llu directory bytes "
                          "can hold", path, (unsigned long long)n_all, (unsigned long long)csz);
    }
    if (csz > SIZE_MAX - 1 || !(*cd = malloc(csz ? (size_t)csz : 1))) {
        return sl_err_set(err, "%s: out of memory for a %llu-byte zip directory", path, (unsigned long long)csz);
    }
    if (read_at(f, path, coff, *cd, (size_t)csz, "central directory", err)) {
        free(*cd);
        *cd = NULL;
        return -1;
    }
    *cd_off = coff;
    *cd_size = csz;
    *count = n_all;
    return 0;
}

/* Parses the central directory entries into es[count]. */
static int parse_directory(const char *path, const unsigned char *cd, uint64_t csz, uint64_t count, zentry *es,
                           sl_err *err)
{
    size_t p = 0;
    char show[4 * 64 + 8];
    for (uint64_t i = 0; i < count; i++) {
        if (csz - p < CDIR_LEN || le32(cd + p) != CDIR_SIG) {
            return sl_err_set(err, "%s: zip central directory entry %llu of %llu is damaged or missing", path,
                              (unsigned long long)i + 1, (unsigned long long)count);
        }
        const unsigned char *h = cd + p;
        size_t nl = le16(h + 28), xl = le16(h + 30), cl = le16(h + 32);
        if (csz - p - CDIR_LEN < nl + xl + cl) {
            return sl_err_set(err, "%s: zip central directory entry %llu runs past the directory's end", path,
                              (unsigned long long)i + 1);
        }
        zentry *z = &es[i];
        z->version = le16(h + 6);
        z->flags = le16(h + 8);
        z->method = le16(h + 10);
        z->crc = le32(h + 16);
        z->csize = le32(h + 20);
        z->usize = le32(h + 24);
        z->off = le32(h + 42);
        z->name = h + CDIR_LEN;
        z->nlen = nl;
        uint64_t disk = le16(h + 34);
        if (memchr(z->name, '\0', nl)) {
            return sl_err_set(err, "%s: zip member name %llu contains a NUL byte", path, (unsigned long long)i + 1);
        }
        const char *nm = (const char *)z->name;
        sl_printable(show, sizeof show, nm, nm + nl, 64);
        const unsigned char *z64;
        size_t z64l, q = 0;
        if (find_zip64(h + CDIR_LEN + nl, xl, &z64, &z64l)) {
            return sl_err_set(err, "%s: member '%s': malformed extra fields in the zip directory", path, show);
        }
        if ((z->usize == 0xFFFFFFFF && z64_take(z64, z64l, &q, 8, &z->usize)) ||
            (z->csize == 0xFFFFFFFF && z64_take(z64, z64l, &q, 8, &z->csize)) ||
            (z->off == 0xFFFFFFFF && z64_take(z64, z64l, &q, 8, &z->off)) ||
            (disk == 0xFFFF && z64_take(z64, z64l, &q, 4, &disk))) {
            return sl_err_set(err, "%s: member '%s': a size or offset field says 'see zip64' but no zip64 value "
                              "follows in the zip directory", path, show);
        }
        if (disk != 0) return sl_err_set(err, "%s: multi-disk zip archives are not supported", path);
        p += CDIR_LEN + nl + xl + cl;
    }
    if (p != csz) {
        return sl_err_set(err, "%s: zip central directory holds %llu bytes beyond its %llu entries", path,
                          (unsigned long long)(csz - p), (unsigned long long)count);
    }
    return 0;
}

int sl_npz_read(const char *path, const char *key, void **data, uint64_t *n, sl_dtype *dt,
                sl_array_info *info, sl_err *err)
{
    uint64_t size, cd_off = 0, cd_size = 0, count = 0;
    *data = NULL;
    FILE *f = sl_open_read(path, &size, err);
    if (!f) return -1;
    unsigned char *cd = NULL;
    zentry *es = NULL;
    const zentry **sorted = NULL;
    sl_zmember *zm = NULL;
    char *label = NULL;
    char show[4 * 64 + 8], keys[KEYS_SHOWN];
    int rc = -1;
    if (key && !*key) {
        sl_err_set(err, "%s: empty member name after ':'", path);
        goto out;
    }
    if (read_directory(f, path, size, &cd, &cd_off, &cd_size, &count, err)) goto out;
    if (!(es = calloc(count ? (size_t)count : 1, sizeof *es)) || !(sorted = malloc((count ? (size_t)count : 1) * sizeof *sorted))) {
        sl_err_set(err, "%s: out of memory", path);
        goto out;
    }
    if (parse_directory(path, cd, cd_size, count, es, err)) goto out;
    for (size_t i = 0; i < count; i++) sorted[i] = &es[i];
    qsort(sorted, (size_t)count, sizeof *sorted, cmp_names);
    for (size_t i = 1; i < count; i++)
        if (!cmp_names(&sorted[i - 1], &sorted[i])) {
            const char *nm = (const char *)sorted[i]->name;
            sl_err_set(err, "%s: member '%s' appears twice in the zip directory", path,
                       sl_printable(show, sizeof show, nm, nm + sorted[i]->nlen, 64));
            goto out;
        }
    /* the member: KEY or KEY.npy (as NpzFile looks it up), or the only one */
    const zentry *m = NULL;
    /* NumPy's archives name their arrays KEY.npy; a zip of other members (a PyTorch .pt file, a
     * .zip of anything) is no .npz: say so instead of offering its members as keys */
    size_t npy_members = 0;
    for (size_t i = 0; i < count; i++)
        npy_members += es[i].nlen > 4 && !memcmp(es[i].name + es[i].nlen - 4, ".npy", 4);
    if (count && !npy_members) {
        int torch = 0;
        for (size_t i = 0; i < count && !torch; i++)
            torch = es[i].nlen >= 8 && !memcmp(es[i].name + es[i].nlen - 8, "data.pkl", 8);
        sl_err_set(err, "%s: not a NumPy file: a zip archive without .npy members%s (save the array with "
                   "numpy.save, e.g. numpy.save('x.npy', tensor.float().numpy()))", path,
                   torch ? " (a PyTorch torch.save file)" : "");
        goto out;
    }
    if (!key) {
        if (count != 1) {
            list_keys(keys, sizeof keys, es, (size_t)count);
            if (count == 0) sl_err_set(err, "%s: the .npz archive holds no arrays", path);
            else
                sl_err_set(err, "%s: the .npz archive holds %llu arrays; name one as %s:KEY (keys: %s)", path,
                           (unsigned long long)count, path, keys);
            goto out;
        }
        m = &es[0];
    } else {
        size_t kl = strlen(key);
        for (size_t i = 0; i < count && !m; i++)
            if (es[i].nlen == kl && !memcmp(es[i].name, key, kl)) m = &es[i];
        for (size_t i = 0; i < count && !m; i++)
            if (es[i].nlen == kl + 4 && !memcmp(es[i].name, key, kl) && !memcmp(es[i].name + kl, ".npy", 4))
                m = &es[i];
        if (!m) {
            list_keys(keys, sizeof keys, es, (size_t)count);
            sl_err_set(err, "%s: no member '%s' in the .npz archive (keys: %s)", path,
                       sl_printable(show, sizeof show, key, key + kl, 64), count ? keys : "none, it is empty");
            goto out;
        }
    }
    const char *nm = (const char *)m->name;
    size_t kl = key_len(m);
    sl_printable(show, sizeof show, nm, nm + m->nlen, 64);
    if (kl == m->nlen) {
        sl_err_set(err, "%s: member '%s' is not a .npy array (its name does not end in .npy)", path, show);
        goto out;
    }
    if (kl >= SL_ARRAY_MEMBER_MAX) {
        sl_err_set(err, "%s: member key of %zu bytes is too long (at most %d): '%s...'", path, kl,
                   SL_ARRAY_MEMBER_MAX - 1, show);
        goto out;
    }
    /* the label of every later message: path:key, the key's bytes escaped */
    {
        char esc[4 * SL_ARRAY_MEMBER_MAX];
        sl_printable(esc, sizeof esc, nm, nm + kl, SL_ARRAY_MEMBER_MAX);
        size_t ll = strlen(path) + 1 + strlen(esc) + 1;
        if (!(label = malloc(ll))) {
            sl_err_set(err, "%s: out of memory", path);
            goto out;
        }
        snprintf(label, ll, "%s:%s", path, esc);
    }
    if (m->flags & (1u | 1u << 6 | 1u << 13)) {
        sl_err_set(err, "%s: member is encrypted (not supported)", label);
        goto out;
    }
    if (m->method != 0 && m->method != 8) {
        sl_err_set(err, "%s: member uses compression method %lu (%s); only stored (np.savez) and deflate "
                   "(np.savez_compressed) are supported", label, (unsigned long)m->method, method_name(m->method));
        goto out;
    }
    if (m->version > ZIP_MAX_EXTRACT_VERSION) {
        sl_err_set(err, "%s: member needs zip version %lu.%lu to extract (at most 6.3 is supported)", label,
                   (unsigned long)m->version / 10, (unsigned long)m->version % 10);
        goto out;
    }
    if (m->method == 0 && m->csize != m->usize) {
        sl_err_set(err, "%s: member is stored but its sizes differ (%llu compressed, %llu uncompressed): wrong sizes",
                   label, (unsigned long long)m->csize, (unsigned long long)m->usize);
        goto out;
    }
    /* deflate expands at most 1032:1; a larger claim is a damaged size, not an allocation */
    if (m->method == 8 && m->usize / 1032 > m->csize + 1) {
        sl_err_set(err, "%s: member claims %llu uncompressed bytes from %llu deflated ones, more than deflate "
                   "can expand: wrong sizes", label, (unsigned long long)m->usize, (unsigned long long)m->csize);
        goto out;
    }
    /* the local header: same name and method; the same CRC and sizes unless a data descriptor
     * (flag bit 3) holds them */
    unsigned char lh[LOCAL_LEN];
    if (m->off > cd_off || cd_off - m->off < LOCAL_LEN) {
        sl_err_set(err, "%s: member's local header offset %llu is outside the archive's data", label,
                   (unsigned long long)m->off);
        goto out;
    }
    if (read_at(f, label, m->off, lh, LOCAL_LEN, "member's local header", err)) goto out;
    size_t lnl = le16(lh + 26), lxl = le16(lh + 28);
    if (le32(lh) != LOCAL_SIG) {
        sl_err_set(err, "%s: member's local header is missing (bad signature at offset %llu)", label,
                   (unsigned long long)m->off);
        goto out;
    }
    if (cd_off - m->off - LOCAL_LEN < lnl + lxl) {
        sl_err_set(err, "%s: member's local header runs into the central directory", label);
        goto out;
    }
    unsigned char *lv = malloc(lnl + lxl + 1);
    if (!lv) {
        sl_err_set(err, "%s: out of memory", label);
        goto out;
    }
    if (read_at(f, label, m->off + LOCAL_LEN, lv, lnl + lxl, "member's local header", err)) {
        free(lv);
        goto out;
    }
    uint32_t lflags = le16(lh + 6), lmethod = le16(lh + 8);
    uint64_t lcrc = le32(lh + 14), lcsize = le32(lh + 18), lusize = le32(lh + 22);
    int bad_name = lnl != m->nlen || memcmp(lv, m->name, lnl);
    const unsigned char *z64;
    size_t z64l, q = 0;
    int bad_extra = find_zip64(lv + lnl, lxl, &z64, &z64l);
    int bad_z64 = !bad_extra && ((lusize == 0xFFFFFFFF && z64_take(z64, z64l, &q, 8, &lusize)) ||
                                 (lcsize == 0xFFFFFFFF && z64_take(z64, z64l, &q, 8, &lcsize)));
    free(lv);
    if (bad_name) {
        sl_err_set(err, "%s: member's local header names another file than the zip directory", label);
        goto out;
    }
    if (bad_extra || bad_z64) {
        sl_err_set(err, "%s: member's local header has %s", label,
                   bad_extra ? "malformed extra fields" : "a 'see zip64' size without its zip64 value");
        goto out;
    }
    if (lmethod != m->method || (lflags & 1u) != (m->flags & 1u)) {
        sl_err_set(err, "%s: member's local header and the zip directory disagree on its %s", label,
                   lmethod != m->method ? "compression method" : "encryption");
        goto out;
    }
    if (!(lflags & 8u)) {
        if (lcrc != m->crc) {
            sl_err_set(err, "%s: member's local header and the zip directory disagree on its CRC-32 (%08lx, "
                       "%08lx)", label, (unsigned long)lcrc, (unsigned long)m->crc);
            goto out;
        }
        if (lcsize != m->csize || lusize != m->usize) {
            sl_err_set(err, "%s: member's local header and the zip directory disagree on its sizes (%llu/%llu, "
                       "%llu/%llu compressed/uncompressed): wrong sizes", label, (unsigned long long)lcsize,
                       (unsigned long long)lusize, (unsigned long long)m->csize, (unsigned long long)m->usize);
            goto out;
        }
    }
    uint64_t dstart = m->off + LOCAL_LEN + lnl + lxl;
    if (m->csize > cd_off - dstart) {
        sl_err_set(err, "%s: member's %llu bytes of data run into the central directory (wrong sizes, or a "
                   "truncated archive)", label, (unsigned long long)m->csize);
        goto out;
    }
    if (!(zm = calloc(1, sizeof *zm))) {
        sl_err_set(err, "%s: out of memory", label);
        goto out;
    }
    zm->method = (int)m->method;
    zm->csize = zm->cleft = m->csize;
    zm->crc_want = m->crc;
    zm->crc = (uint32_t)crc32(0L, Z_NULL, 0);
    if (m->method == 8) {
        if (inflateInit2(&zm->zs, -15) != Z_OK) {
            sl_err_set(err, "%s: zlib inflateInit2 failed", label);
            goto out;
        }
        zm->zinit = 1;
    }
    if (dstart > (uint64_t)INT64_MAX || fseeko(f, (off_t)dstart, SEEK_SET) != 0) {
        sl_err_set(err, "%s: cannot seek to the member's data: %s", label, strerror(errno));
        goto out;
    }
    sl_src s = {f, label, "zip member", m->usize, 0, zm, zmember_read, zmember_finish};
    if (sl_npy_read_src(&s, data, n, dt, info, err)) {
        /* a damaged byte often shows first as a bad header: when the member's declared bytes
         * fail their CRC-32, say that instead, the cause */
        unsigned char scratch[1 << 14];
        size_t got;
        sl_err tmp;
        while (s.pos < s.size && !zmember_read(&s, scratch, sizeof scratch, &got, &tmp) && got > 0) {}
        if (s.pos == s.size && zm->crc != zm->crc_want) {
            sl_err_set(err, "%s: CRC-32 mismatch (computed %08lx, the archive says %08lx): the member is "
                       "corrupted", label, (unsigned long)zm->crc, (unsigned long)zm->crc_want);
        }
        goto out;
    }
    if (info) {
        info->format = SL_ARRAY_NPZ;
        memcpy(info->member, nm, kl);
        info->member[kl] = '\0';
        info->member_implicit = key == NULL;
        info->zip_method = (int)m->method;
    }
    rc = 0;
out:
    if (zm && zm->zinit) inflateEnd(&zm->zs);
    free(zm);
    free(label);
    free(sorted);
    free(es);
    free(cd);
    fclose(f);
    return rc;
}
