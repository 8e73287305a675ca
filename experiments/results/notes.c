/* notes.c: the lines a run leaves for its report's "Notes" section (each at most once), kept in
 * the run directory (SL_NOTES_FILE) for a later `run --report-only`. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "sl_results.h"

void sl_notes_add(sl_notes *notes, const char *fmt, ...)
{
    if (notes->n >= SL_NOTES_MAX) return;   /* the last slot already says notes were left out */
    char line[sizeof notes->line[0]];
    va_list ap;
    va_start(ap, fmt);
    sl_vfit(line, sizeof line, fmt, ap);   /* a long note ends in "..." */
    va_end(ap);
    for (int i = 0; i < notes->n; i++)      /* the same note twice (resume) once */
        if (!strcmp(notes->line[i], line)) return;
    if (notes->n == SL_NOTES_MAX - 1)       /* never dropped silently */
        snprintf(line, sizeof line, "further notes were left out: a run keeps at most %d", SL_NOTES_MAX);
    memcpy(notes->line[notes->n++], line, sizeof line);
}

#define NOTES_HEADER "# sumlab run notes v1"

int sl_notes_write(const char *dir, const sl_notes *notes, sl_err *err)
{
    char path[4096];
    if (sl_path_join(path, sizeof path, dir, SL_NOTES_FILE, err)) return -1;
    static char text[sizeof(NOTES_HEADER) + 1 + SL_NOTES_MAX * (sizeof notes->line[0] + 1)];
    size_t len = (size_t)snprintf(text, sizeof text, "%s\n", NOTES_HEADER);
    for (int i = 0; i < notes->n && i < SL_NOTES_MAX; i++) {
        for (const unsigned char *c = (const unsigned char *)notes->line[i]; *c; c++)
            text[len++] = (char)(*c < 0x20 || *c == 0x7f ? ' ' : *c);
        text[len++] = '\n';
    }
    return sl_write_atomic(path, text, len, err);
}

int sl_notes_read(const char *dir, sl_notes *notes, sl_err *err)
{
    memset(notes, 0, sizeof *notes);
    char path[4096];
    if (sl_path_join(path, sizeof path, dir, SL_NOTES_FILE, err)) return -1;
    const int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) {
        if (errno == ENOENT) return 0;       /* a run written before the file existed */
        return sl_err_set(err, "cannot read %s: %s", path, errno == ELOOP ? "a symbolic link" : strerror(errno));
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return sl_err_set(err, "%s is not a regular file", path);
    }
    FILE *f = fdopen(fd, "r");
    if (!f) {
        close(fd);
        return sl_err_set(err, "cannot read %s: %s", path, strerror(errno));
    }
    char line[sizeof notes->line[0] + 2];
    int rc = 0, lineno = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        size_t k = strlen(line);
        if (k == 0 || line[k - 1] != '\n') {
            rc = sl_err_set(err, "%s:%d: a line longer than a note (%zu bytes) or without its end", path,
                            lineno, sizeof notes->line[0] - 1);
            break;
        }
        line[--k] = '\0';
        if (lineno == 1) {
            if (strcmp(line, NOTES_HEADER))
                rc = sl_err_set(err, "%s: not a sumlab notes file (first line '%s' expected)", path, NOTES_HEADER);
            continue;
        }
        for (size_t i = 0; i < k && rc == 0; i++)
            if ((unsigned char)line[i] < 0x20 || line[i] == 0x7f)
                rc = sl_err_set(err, "%s:%d: a control character in a note", path, lineno);
        if (rc) break;
        if (notes->n >= SL_NOTES_MAX) {
            rc = sl_err_set(err, "%s: more than %d notes", path, SL_NOTES_MAX);
            break;
        }
        /* markup read back stays text: < > [ ] and the backslash escaped for markdown (a note
         * that grows past a note's room ends in "...", as sl_notes_add ends a long one) */
        char *dst = notes->line[notes->n++];
        const size_t room = sizeof notes->line[0];
        size_t o = 0;
        for (size_t i = 0; i < k; i++) {
            const int esc = strchr("<>[]\\", line[i]) != NULL;
            if (o + (size_t)esc + 1 > room - 4) {
                memcpy(dst + o, "...", 3);
                o += 3;
                break;
            }
            if (esc) dst[o++] = '\\';
            dst[o++] = line[i];
        }
        dst[o] = '\0';
    }
    if (rc == 0 && ferror(f)) rc = sl_err_set(err, "cannot read %s", path);
    if (rc == 0 && lineno == 0) rc = sl_err_set(err, "%s is empty (its header line is missing)", path);
    fclose(f);
    if (rc) memset(notes, 0, sizeof *notes);
    return rc;
}
