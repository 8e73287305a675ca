/* fsio.c: the file-system habits of a run directory (sl_results.h): files created whole
 * (written to NAME.tmp, fsync'ed, renamed; the .tmp removed on failure), streams closed with
 * the reason of a failure, the directory lock held for a whole run, and the test "was any row
 * measured here" that lets a run killed in its first milliseconds be started over. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "sl_results.h"

int sl_path_join(char *buf, size_t len, const char *dir, const char *file, sl_err *err)
{
    int w = snprintf(buf, len, "%s/%s", dir, file);
    if (w < 0 || (size_t)w >= len)
        return sl_err_set(err, "path '%s/%s' is %d bytes, longer than the %zu this sumlab handles",
                          dir, file, w, len - 1);
    return 0;
}

int sl_check_dir_len(const char *dir, sl_err *err)
{
    size_t l = strlen(dir);
    if (l > SL_DIR_MAX)
        return sl_err_set(err, "directory name '%s' is %zu bytes, longer than the %d this sumlab "
                               "handles", dir, l, SL_DIR_MAX);
    return 0;
}

/* fsync of the directory that holds path (so a rename survives a crash); best effort. */
static void sync_parent(const char *path)
{
    char *d = strdup(path);
    if (!d) return;
    char *slash = strrchr(d, '/');
    const char *dir = ".";
    if (slash == d) dir = "/";
    else if (slash) { *slash = '\0'; dir = d; }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(d);
}

int sl_fclose_checked(FILE *f, const char *path, int sync, sl_err *err)
{
    int e = 0;
    errno = 0;
    if (fflush(f) != 0) e = errno ? errno : EIO;
    else if (ferror(f)) e = EIO;          /* an earlier buffered write failed */
    if (!e && sync && fsync(fileno(f)) != 0) e = errno;
    if (fclose(f) != 0 && !e) e = errno ? errno : EIO;
    if (e) return sl_err_set(err, "cannot write %s: %s", path, strerror(e));
    return 0;
}

int sl_write_atomic(const char *path, const char *text, size_t len, sl_err *err)
{
    size_t pl = strlen(path) + 5;
    char *tmp = malloc(pl);
    if (!tmp) return sl_err_set(err, "cannot write %s: out of memory", path);
    snprintf(tmp, pl, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        sl_err_set(err, "cannot write %s: %s", tmp, strerror(errno));
        free(tmp);
        return -1;
    }
    int bad = len && fwrite(text, 1, len, f) != len;
    int e = bad ? errno : 0;
    if (sl_fclose_checked(f, tmp, 1, err) || bad) {
        if (bad) sl_err_set(err, "cannot write %s: %s", tmp, strerror(e ? e : EIO));
        remove(tmp);
        free(tmp);
        return -1;
    }
    if (rename(tmp, path) != 0) {
        sl_err_set(err, "cannot write %s: %s", path, strerror(errno));
        remove(tmp);
        free(tmp);
        return -1;
    }
    sync_parent(path);
    free(tmp);
    return 0;
}

/* ---- the run lock ----------------------------------------------------------------------- */
int sl_run_lock(const char *dir, int *fd_out, sl_err *err)
{
    char path[SL_DIR_MAX + 64];
    *fd_out = -1;
    if (sl_path_join(path, sizeof path, dir, SL_LOCK_FILE, err)) return -1;
    /* Not close-on-exec: the children of a run (the chart renderer and what it starts) hold
     * the lock too, so a run killed while rendering keeps its directory until they are gone. */
    int fd = open(path, O_RDWR | O_CREAT, 0666);
    if (fd < 0) return sl_err_set(err, "cannot lock %s: %s", path, strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        if (e != EWOULDBLOCK) {
            close(fd);
            return sl_err_set(err, "cannot lock %s: %s", path, strerror(e));
        }
        char who[256] = {0};
        ssize_t k = pread(fd, who, sizeof who - 1, 0);
        close(fd);
        who[k > 0 ? k : 0] = '\0';
        who[strcspn(who, "\n")] = '\0';
        sl_err_set(err, "'%s' is in use by another sumlab run (%s); wait for it to end, or stop it",
                   dir, who[0] ? who : "holder unknown");
        return 1;
    }
    char who[160];
    time_t t = time(NULL);
    struct tm tm;
    char stamp[40] = "?";
    if (gmtime_r(&t, &tm)) strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
    int w = snprintf(who, sizeof who, "pid %ld, since %s\n", (long)getpid(), stamp);
    if (ftruncate(fd, 0) != 0 || pwrite(fd, who, (size_t)w, 0) != w) {
        /* the lock holds; only the holder's description is missing */
    }
    *fd_out = fd;
    return 0;
}

void sl_run_unlock(int fd)
{
    if (fd >= 0) close(fd);
}

/* ---- a directory without a measured row --------------------------------------------------- */
int sl_run_has_rows(const char *dir)
{
    char path[SL_DIR_MAX + 64];
    if (sl_path_join(path, sizeof path, dir, "results.csv", NULL)) return 1;
    FILE *f = fopen(path, "rb");
    if (!f) return errno == ENOENT ? 0 : 1;   /* unreadable: assume there is something */
    int c, lines = 0, at_start = 1, comment = 0;
    while ((c = getc(f)) != EOF && lines < 2) {
        if (at_start) comment = c == '#';
        at_start = c == '\n';
        if (c == '\n' && !comment) lines++;
    }
    fclose(f);
    return lines >= 2;   /* a header and one complete line after it */
}

int sl_run_clear(const char *dir, sl_err *err)
{
    static const char *const files[] = {"results.csv", "distribution.csv", "run.conf", "meta.json",
                                        "report.md", SL_NOTES_FILE, "results.csv.tmp", "distribution.csv.tmp",
                                        "run.conf.tmp", "meta.json.tmp", "report.md.tmp", SL_NOTES_FILE ".tmp",
                                        NULL};
    char path[SL_DIR_MAX + 64];
    for (int i = 0; files[i]; i++) {
        if (sl_path_join(path, sizeof path, dir, files[i], err)) return -1;
        if (unlink(path) != 0 && errno != ENOENT)
            return sl_err_set(err, "cannot remove %s: %s", path, strerror(errno));
    }
    return 0;
}
