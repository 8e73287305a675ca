/* io_util.c: the low-level pieces every array reader shares: host byte order, element byte
 * swaps, opening a regular file without blocking, quoting file bytes in one-line messages, and
 * byte sources (a plain file, or a zip member through the decoder npz.c attaches). */
#define _POSIX_C_SOURCE 200809L
#include "sl_io_impl.h"
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int sl_host_is_le(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

/* Reverses each element's bytes in place. */
void sl_swap_elems(unsigned char *p, size_t nelem, size_t sz)
{
    for (size_t k = 0; k < nelem; k++, p += sz)
        for (size_t a = 0, b = sz - 1; a < b; a++, b--) {
            unsigned char t = p[a];
            p[a] = p[b];
            p[b] = t;
        }
}

/* Opens path for reading and returns its size (regular files only). O_NONBLOCK: a FIFO is
 * refused at once instead of blocking in open() until some writer appears. */
FILE *sl_open_read(const char *path, uint64_t *size, sl_err *err)
{
    if (!path) {
        sl_err_set(err, "read: NULL path");
        return NULL;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        sl_err_set(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        sl_err_set(err, "%s: cannot stat: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        sl_err_set(err, "%s: not a regular file", path);
        close(fd);
        return NULL;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl != -1) (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        sl_err_set(err, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    *size = (uint64_t)st.st_size;
    return f;
}

/* Up to `max` bytes of s (stopping at NUL or end) as one printable ASCII line: other bytes
 * become \n, \r, \t or \xNN, so a message quoting a damaged header stays one line. */
const char *sl_printable(char *buf, size_t len, const char *s, const char *end, size_t max)
{
    static const char hex[] = "0123456789abcdef";
    size_t k = 0;
    for (size_t i = 0; s + i < end && s[i] && i < max; i++) {
        unsigned char ch = (unsigned char)s[i];
        char esc[5] = {0};
        if (ch >= 0x20 && ch < 0x7f && ch != '\\') esc[0] = (char)ch;
        else if (ch == '\\') esc[0] = '\\', esc[1] = '\\';
        else if (ch == '\n') esc[0] = '\\', esc[1] = 'n';
        else if (ch == '\r') esc[0] = '\\', esc[1] = 'r';
        else if (ch == '\t') esc[0] = '\\', esc[1] = 't';
        else esc[0] = '\\', esc[1] = 'x', esc[2] = hex[ch >> 4], esc[3] = hex[ch & 15];
        size_t el = strlen(esc);
        if (k + el + 1 > len) break;
        memcpy(buf + k, esc, el);
        k += el;
    }
    buf[k] = '\0';
    return buf;
}

/* ---- byte sources ------------------------------------------------------------------------ */
static unsigned g_io_threads = 1;   /* set before any reader runs (sl_io_set_threads) */

void sl_io_set_threads(unsigned threads)
{
    g_io_threads = threads < 1 ? 1 : threads > 64 ? 64 : threads;
}

size_t sl_src_chunk(void) { return SL_IO_CHUNK * (g_io_threads > 16 ? 16 : g_io_threads); }

/* A plain file's slice read with pread by one thread of sl_src_read. */
typedef struct {
    int fd;
    unsigned char *buf;
    size_t len, got;
    off_t at;
    int err;                   /* errno of a failed pread, 0 */
} pread_job;

static void *pread_run(void *arg)
{
    pread_job *j = arg;
    while (j->got < j->len) {
        ssize_t k = pread(j->fd, j->buf + j->got, j->len - j->got, j->at + (off_t)j->got);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) { j->err = errno; break; }
        if (k == 0) break;
        j->got += (size_t)k;
    }
    return NULL;
}

/* len bytes of a plain file from its current position, in g_io_threads slices read at once
 * (page faults and copies in parallel); the FILE is left after the bytes delivered. 1 when it
 * cannot be done so (the caller reads as usual), 0 or -1 (err). */
static int read_parallel(sl_src *s, void *buf, size_t len, size_t *got, sl_err *err)
{
    const unsigned T = g_io_threads;
    if (T < 2 || len < ((size_t)1 << 22) * T) return 1;
    off_t at = ftello(s->f);
    if (at < 0) return 1;
    pread_job job[64];
    pthread_t tid[64];
    int started[64] = {0};
    for (unsigned t = 0; t < T; t++) {
        size_t lo = len / T * t, hi = t + 1 == T ? len : len / T * (t + 1);
        job[t] = (pread_job){fileno(s->f), (unsigned char *)buf + lo, hi - lo, 0, at + (off_t)lo, 0};
    }
    for (unsigned t = 1; t < T; t++) started[t] = pthread_create(&tid[t], NULL, pread_run, &job[t]) == 0;
    pread_run(&job[0]);
    int joined = 1;
    for (unsigned t = 1; t < T; t++) {
        if (started[t]) { if (pthread_join(tid[t], NULL) != 0) joined = 0; }
        else pread_run(&job[t]);
    }
    if (!joined) return sl_err_set(err, "%s: read error: a reading thread could not be joined", s->label);
    size_t k = 0;
    for (unsigned t = 0; t < T; t++) {
        if (job[t].err) return sl_err_set(err, "%s: read error: %s", s->label, strerror(job[t].err));
        k += job[t].got;
        if (job[t].got != job[t].len) break;   /* the end of the file */
    }
    if (fseeko(s->f, at + (off_t)k, SEEK_SET) != 0)
        return sl_err_set(err, "%s: seek error: %s", s->label, strerror(errno));
    s->pos += k;
    *got = k;
    return 0;
}

int sl_src_read(sl_src *s, void *buf, size_t len, size_t *got, sl_err *err)
{
    *got = 0;
    if (s->read) return s->read(s, buf, len, got, err);
    int pr = read_parallel(s, buf, len, got, err);
    if (pr <= 0) return pr;
    size_t k = fread(buf, 1, len, s->f);
    s->pos += k;
    *got = k;
    if (k != len && ferror(s->f)) {
        return sl_err_set(err, "%s: read error: %s", s->label, strerror(errno));
    }
    return 0;
}

int sl_src_finish(sl_src *s, sl_err *err)
{
    if (s->finish) return s->finish(s, err);
    if (fgetc(s->f) != EOF) { /* the size checks passed: the file grew, or stat gave no size */
        return sl_err_set(err, "%s: more data than the file size said (%llu bytes expected): it changed "
                          "while being read, or is not an ordinary file", s->label,
                          (unsigned long long)s->size);
    }
    return 0;
}

