/* notes.c: the lines a run leaves for its report's "Notes" section (each at most once), kept in
 * the run directory (SL_NOTES_FILE) for a later `run --report-only`. A note is printable UTF-8
 * text of one line; the report escapes it for Markdown (report/table.c), so the file holds the
 * text as it is, and reading it back gives the same notes, byte for byte. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sl_results.h"

#define NOTES_HEADER "# sumlab run notes v1"
#define NOTE_ROOM (sizeof ((sl_notes *)0)->line[0])   /* a note's bytes, its NUL included */

/* The length of the printable character at s[0..n) (well-formed UTF-8, no C0 or C1 control,
 * no DEL), or 0 when it is none. */
static size_t printable_len(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    if (p[0] < 0x20 || p[0] == 0x7f) return 0;
    const size_t k = (size_t)sl_utf8_len(p);   /* stops at s's NUL or '\n': never past s[n] */
    if (k == 0 || k > n) return 0;
    if (k == 2 && p[0] == 0xc2 && p[1] < 0xa0) return 0;   /* U+0080..U+009F */
    return k;
}

/* Makes s printable in place, each byte kept or replaced: a control byte by a space, a byte of
 * no printable UTF-8 character (a sequence cut by "...") by '?'. */
static void make_printable(char *s)
{
    const size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        const size_t k = printable_len(s + i, n - i);
        if (k) { i += k; continue; }
        const unsigned char c = (unsigned char)s[i];
        s[i++] = c < 0x20 || c == 0x7f ? ' ' : '?';
    }
}

void sl_notes_add(sl_notes *notes, const char *fmt, ...)
{
    if (notes->n >= SL_NOTES_MAX) return;   /* the last slot already says notes were left out */
    char line[NOTE_ROOM];
    va_list ap;
    va_start(ap, fmt);
    sl_vfit(line, sizeof line, fmt, ap);   /* a long note ends in "..." */
    va_end(ap);
    make_printable(line);                   /* what the report shows and run_notes.txt keeps */
    for (int i = 0; i < notes->n; i++)      /* the same note twice (resume) once */
        if (!strcmp(notes->line[i], line)) return;
    if (notes->n == SL_NOTES_MAX - 1)       /* never dropped silently */
        snprintf(line, sizeof line, "further notes were left out: a run keeps at most %d", SL_NOTES_MAX);
    memcpy(notes->line[notes->n++], line, sizeof line);
}

/* The largest file sl_notes_write writes: the header and SL_NOTES_MAX full notes, a line each. */
#define NOTES_FILE_MAX (sizeof NOTES_HEADER + SL_NOTES_MAX * NOTE_ROOM)

int sl_notes_write(const char *dir, const sl_notes *notes, sl_err *err)
{
    char path[4096];
    if (sl_path_join(path, sizeof path, dir, SL_NOTES_FILE, err)) return -1;
    static char text[NOTES_FILE_MAX];
    size_t len = (size_t)snprintf(text, sizeof text, "%s\n", NOTES_HEADER);
    for (int i = 0; i < notes->n && i < SL_NOTES_MAX; i++) {
        char line[NOTE_ROOM];
        snprintf(line, sizeof line, "%s", notes->line[i]);
        make_printable(line);               /* (notes not made by sl_notes_add) */
        const size_t k = strlen(line);
        memcpy(text + len, line, k);
        len += k;
        text[len++] = '\n';
    }
    return sl_write_atomic(path, text, len, err);
}

/* DIR's notes file, whole, into a malloc'ed NUL-terminated buffer (*len bytes); NULL with *err
 * (the message) when it cannot be read or is larger than a notes file can be; NULL with *absent
 * set when there is none. */
static char *read_notes_file(const char *path, size_t *len, int *absent, sl_err *err)
{
    *absent = 0;
    const int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) {
        if (errno == ENOENT) { *absent = 1; return NULL; }
        sl_err_set(err, "cannot read %s: %s", path, errno == ELOOP ? "a symbolic link" : strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        sl_err_set(err, "%s is not a regular file", path);
        return NULL;
    }
    if (st.st_size > (off_t)NOTES_FILE_MAX) {
        close(fd);
        sl_err_set(err, "%s: %lld bytes, more than a notes file holds (%zu)", path, (long long)st.st_size,
                   (size_t)NOTES_FILE_MAX);
        return NULL;
    }
    char *buf = malloc(NOTES_FILE_MAX + 2);
    size_t n = 0;
    ssize_t got = 1;
    while (buf && n < NOTES_FILE_MAX + 1) {   /* one byte more than the largest file: it grew */
        got = read(fd, buf + n, NOTES_FILE_MAX + 1 - n);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        n += (size_t)got;
    }
    const int e = got < 0 ? errno : 0;
    close(fd);
    if (!buf || got < 0) {
        free(buf);
        sl_err_set(err, "cannot read %s: %s", path, buf ? strerror(e) : "out of memory");
        return NULL;
    }
    if (n > NOTES_FILE_MAX) {               /* grew while read */
        free(buf);
        sl_err_set(err, "%s: more than a notes file holds (%zu bytes)", path, (size_t)NOTES_FILE_MAX);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* The notes of text[0..len): the header line, then a note a line, each ending in '\n'. */
static int parse_notes(const char *path, const char *text, size_t len, sl_notes *notes, sl_err *err)
{
    if (len == 0) return sl_err_set(err, "%s is empty (its header line is missing)", path);
    if (text[len - 1] != '\n') return sl_err_set(err, "%s: the last line has no end (a file cut short?)", path);
    int lineno = 0;
    for (const char *p = text, *end = text + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));   /* (there is one: the last byte) */
        const size_t k = (size_t)(nl - p);
        lineno++;
        if (lineno == 1) {
            if (k != strlen(NOTES_HEADER) || memcmp(p, NOTES_HEADER, k))
                return sl_err_set(err, "%s: not a sumlab notes file (first line '%s' expected)", path, NOTES_HEADER);
        } else {
            if (notes->n >= SL_NOTES_MAX) return sl_err_set(err, "%s: more than %d notes", path, SL_NOTES_MAX);
            if (k >= NOTE_ROOM)
                return sl_err_set(err, "%s:%d: a line of %zu bytes, longer than a note (%zu bytes)", path, lineno, k,
                                  NOTE_ROOM - 1);
            for (size_t i = 0; i < k;) {
                const size_t c = printable_len(p + i, k - i);
                if (!c)
                    return sl_err_set(err, "%s:%d: byte %zu (0x%02x) is no printable UTF-8 text (a control "
                                      "character or no UTF-8)", path, lineno, i + 1, (unsigned char)p[i]);
                i += c;
            }
            memcpy(notes->line[notes->n], p, k);
            notes->line[notes->n++][k] = '\0';
        }
        p = nl + 1;
    }
    return 0;
}

int sl_notes_read(const char *dir, sl_notes *notes, sl_err *err)
{
    memset(notes, 0, sizeof *notes);
    char path[4096];
    if (sl_path_join(path, sizeof path, dir, SL_NOTES_FILE, err)) return -1;
    size_t len = 0;
    int absent = 0;
    char *text = read_notes_file(path, &len, &absent, err);
    if (!text) return absent ? 0 : -1;      /* absent: a run written before the file existed */
    const int rc = parse_notes(path, text, len, notes, err);
    free(text);
    if (rc) memset(notes, 0, sizeof *notes);
    return rc;
}
