/* progress.c: progress of `sumlab run` on stderr: a bar with ETA when stderr is a terminal,
 * one line per step otherwise, nothing with --quiet. Work is measured in the experiments' own
 * units (sl_exp_work: elements plus a per-step share x variants x repetitions); the ETA is the
 * work left at the rate seen since the first finished step (which carries the start-up: device
 * initialisation, first allocations), so it does not start hours off. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "sl_study.h"

struct sl_progress {
    int quiet, tty;
    double total, done, cur;
    double t0;
    double t_first, done_first;   /* when the first work finished, and how much it was */
    long step;
    char what[160];
    int bar_shown;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void fmt_secs(char *b, size_t len, double s)
{
    if (!(s >= 0) || s > 1e7) { snprintf(b, len, "--:--"); return; }
    long t = (long)(s + 0.5);
    if (t >= 3600) snprintf(b, len, "%ld:%02ld:%02ld", t / 3600, (t / 60) % 60, t % 60);
    else snprintf(b, len, "%ld:%02ld", t / 60, t % 60);
}

sl_progress *sl_progress_new(int quiet, double total_work)
{
    sl_progress *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->quiet = quiet;
    p->tty = isatty(STDERR_FILENO);
    p->total = total_work > 0 ? total_work : 1;
    p->t0 = now_s();
    return p;
}

static void draw(sl_progress *p)
{
    double el = now_s() - p->t0;
    double frac = p->done / p->total;
    if (frac > 1) frac = 1;
    char eta[32], elapsed[32];
    double left = p->total - p->done, eta_s = -1;
    if (p->done > p->done_first && now_s() > p->t_first)
        eta_s = left * (now_s() - p->t_first) / (p->done - p->done_first);
    else if (p->done > 0)
        eta_s = el * left / p->done;
    fmt_secs(eta, sizeof eta, eta_s);
    fmt_secs(elapsed, sizeof elapsed, el);
    if (p->tty) {
        char bar[31];
        int fill = (int)(frac * 30 + 0.5);
        for (int i = 0; i < 30; i++) bar[i] = i < fill ? '#' : '.';
        bar[30] = '\0';
        fprintf(stderr, "\r\033[K[%s] %3d%% %s ETA %s  %.60s", bar, (int)(frac * 100), elapsed,
                eta, p->what);
        p->bar_shown = 1;
    } else {
        fprintf(stderr, "sumlab run: [%3d%%, %s elapsed, ETA %s] %s\n", (int)(frac * 100), elapsed,
                eta, p->what);
    }
    fflush(stderr);
}

void sl_progress_step(sl_progress *p, const char *what, double work)
{
    if (!p) return;
    p->step++;
    p->cur = work;
    snprintf(p->what, sizeof p->what, "%s", what);
    if (!p->quiet) draw(p);
}

void sl_progress_add(sl_progress *p, double work)
{
    if (!p) return;
    int first = p->done <= 0 && work > 0;
    p->done += work;
    if (first) {
        p->t_first = now_s();
        p->done_first = p->done;
    }
    if (!p->quiet && p->tty) draw(p);
}

void sl_progress_done(sl_progress *p)
{
    if (!p) return;
    double w = p->cur;
    p->cur = 0;
    sl_progress_add(p, w);
}

void sl_progress_msg(sl_progress *p, const char *fmt, ...)
{
    if (p && p->quiet) return;
    if (p && p->tty && p->bar_shown) fputs("\r\033[K", stderr);
    va_list ap;
    va_start(ap, fmt);
    fputs("sumlab run: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    if (p && p->tty && p->bar_shown) draw(p);
}

void sl_progress_free(sl_progress *p)
{
    if (!p) return;
    if (!p->quiet && p->tty && p->bar_shown) fputc('\n', stderr);
    free(p);
}
