/* progress.c: progress of `sumlab run` on stderr: a bar with ETA when stderr is a terminal,
 * one line per step otherwise, nothing with --quiet. Work is measured in the experiments' own
 * units (sl_exp_work: elements plus a per-step share x variants x repetitions). The ETA fits
 * each finished step's time as a + b x its work (sl_eta_fit: a fixed cost per step, a cost per
 * unit) and charges the steps and work left with it; the first finished step, which carries
 * the start-up (device initialisation, first allocations), is left out. A single rate would
 * price the study's 2^28 steps at what its first, small steps cost per unit (there the fixed
 * cost dominates): hours off at the start. Later the plain rate is the better guess, and the
 * ETA shown moves from the fit's to the rate's by half-way (sl_eta_mix). */
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
    double t_first, done_first;   /* when the first timed work finished, and how much it was */
    double done_timed;            /* work of the timed steps (not skipped ones) */
    double steps_total, steps_done; /* steps planned (0: unknown) and finished or skipped */
    double t_last;                /* when the last step finished or was skipped */
    sl_eta_fit fit;
    long step;
    char what[160];
    int bar_shown;
    /* not a terminal: a line when the experiment changes or per 10 % of the work, not a line a
     * step (a log read later wants the shape of the run, not 500 lines of it) */
    char last_exp[64];
    int last_decile;
};

void sl_eta_observe(sl_eta_fit *f, double work, double secs)
{
    if (!(work >= 0) || !(secs >= 0)) return;
    f->n += 1;
    f->sw += work;
    f->st += secs;
    f->sww += work * work;
    f->swt += work * secs;
}

void sl_eta_coeffs(const sl_eta_fit *f, double *a, double *b)
{
    *a = *b = 0;
    if (f->n <= 0) return;
    const double det = f->n * f->sww - f->sw * f->sw;
    /* one size only (det ~ 0 relative to its terms): the plain rate, or the mean when no work */
    if (f->n < 2 || !(det > 1e-9 * f->n * f->sww)) {
        if (f->sw > 0) *b = f->st / f->sw;
        else *a = f->st / f->n;
        return;
    }
    double bb = (f->n * f->swt - f->sw * f->st) / det;
    double aa = (f->st - bb * f->sw) / f->n;
    if (bb < 0) { bb = 0; aa = f->st / f->n; }                 /* bigger steps were not slower */
    else if (aa < 0) { aa = 0; bb = f->sww > 0 ? f->swt / f->sww : 0; }   /* through the origin */
    *a = aa;
    *b = bb;
}

double sl_eta_left(const sl_eta_fit *f, double steps_left, double work_left)
{
    if (f->n <= 0) return -1;
    double a, b;
    sl_eta_coeffs(f, &a, &b);
    if (steps_left < 0) steps_left = 0;
    if (work_left < 0) work_left = 0;
    return a * steps_left + b * work_left;
}

double sl_eta_mix(double fit_s, double rate_s, double frac)
{
    if (!(rate_s >= 0)) return fit_s;
    if (!(fit_s >= 0)) return rate_s;
    double phi = frac / 0.5;
    if (!(phi > 0)) phi = 0;
    if (phi > 1) phi = 1;
    return (1 - phi) * fit_s + phi * rate_s;
}

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
    p->t0 = p->t_last = now_s();
    return p;
}

void sl_progress_set_steps(sl_progress *p, double steps)
{
    if (p) p->steps_total = steps > 0 ? steps : 0;
}

static void draw(sl_progress *p)
{
    double el = now_s() - p->t0;
    double frac = p->done / p->total;
    if (frac > 1) frac = 1;
    char eta[32], elapsed[32];
    double left = p->total - p->done, eta_s = -1;
    /* the plain rate of the timed work after the first step (-1: not yet), and the share of
     * this invocation's work done (work skipped on --resume left out) */
    const double t = now_s();
    const double rate_s = p->done_timed > p->done_first && t > p->t_first
                              ? left * (t - p->t_first) / (p->done_timed - p->done_first) : -1;
    const double timed_frac = p->done_timed + left > 0 ? p->done_timed / (p->done_timed + left) : 0;
    if (p->steps_total > 0 && p->fit.n > 0)
        eta_s = sl_eta_mix(sl_eta_left(&p->fit, p->steps_total - p->steps_done, left), rate_s, timed_frac);
    else if (rate_s >= 0)
        eta_s = rate_s;
    else if (p->done_timed > 0)   /* one timed step: it carries the start-up */
        eta_s = el * left / p->done_timed;
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
        char exp[64];
        const size_t k = strcspn(p->what, " ");
        snprintf(exp, sizeof exp, "%.*s", (int)(k < sizeof exp - 1 ? k : sizeof exp - 1), p->what);
        const int decile = (int)(frac * 10);
        if (!strcmp(exp, p->last_exp) && decile <= p->last_decile) return;
        snprintf(p->last_exp, sizeof p->last_exp, "%s", exp);
        p->last_decile = decile;
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
    int first = p->done_timed <= 0 && work > 0;
    const double t = now_s();
    p->done += work;
    p->done_timed += work;
    p->steps_done += 1;
    if (first) {
        p->t_first = t;
        p->done_first = p->done;
    } else if (work > 0) {
        sl_eta_observe(&p->fit, work, t - p->t_last);
    }
    p->t_last = t;
    if (!p->quiet && p->tty) draw(p);
}

void sl_progress_skip(sl_progress *p, double work)
{
    if (!p) return;
    p->done += work;
    p->steps_done += 1;
    p->t_last = now_s();
}

void sl_progress_done_skipped(sl_progress *p)
{
    if (!p) return;
    double w = p->cur;
    p->cur = 0;
    sl_progress_skip(p, w);
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
