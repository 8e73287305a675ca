/* charts.c: the charts of a run: rendered by plots/render.sh (a child process; a missing
 * gnuplot or script becomes a note), and the report's Charts section linking what is there. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <sys/prctl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "charts.h"
#include "check.h"
#include "sl_study.h"
#include "table.h"

extern char **environ;

/* ---- rendering: plots/render.sh DIR ---------------------------------------------------------- */
static int find_render(char *out, size_t len)
{
    struct stat st;
    const char *env = getenv("SUMLAB_PLOTS_DIR");
    if (env && *env) {
        int w = snprintf(out, len, "%s/render.sh", env);
        if (w > 0 && (size_t)w < len && !stat(out, &st)) return 0;
    }
    char exe[PATH_MAX];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k > 0) {
        exe[k] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) *slash = '\0';
        int w = snprintf(out, len, "%s/plots/render.sh", exe);
        if (w > 0 && (size_t)w < len && !stat(out, &st)) return 0;
        w = snprintf(out, len, "%s/../plots/render.sh", exe);
        if (w > 0 && (size_t)w < len && !stat(out, &st)) return 0;
    }
#ifdef SUMLAB_SOURCE_DIR
    snprintf(out, len, "%s/plots/render.sh", SUMLAB_SOURCE_DIR);
    if (!stat(out, &st)) return 0;
#endif
    return -1;
}

/* The SVGs that render.sh wrote in this process (the last render of one directory): only these
 * may be inlined into report.html; any other SVG in charts/ is shown as an image. */
typedef struct { char name[256]; dev_t dev; ino_t ino; off_t size; struct timespec mtime; } rendered_svg;
static struct { char dir[SL_DIR_MAX + 1]; rendered_svg *svg; size_t n; } rendered;

static void rendered_record(const char *dir)
{
    free(rendered.svg);
    memset(&rendered, 0, sizeof rendered);
    char cdir[SL_DIR_MAX + 64];
    if (sl_path_join(cdir, sizeof cdir, dir, "charts", NULL)) return;
    DIR *d = opendir(cdir);
    if (!d) return;
    snprintf(rendered.dir, sizeof rendered.dir, "%s", dir);
    size_t cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l <= 4 || l >= sizeof rendered.svg->name || strcmp(e->d_name + l - 4, ".svg")) continue;
        char path[SL_DIR_MAX + 400];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", cdir, e->d_name);
        if (lstat(path, &st) || !S_ISREG(st.st_mode)) continue;
        if (rendered.n == cap) {
            rendered_svg *nv = realloc(rendered.svg, (cap = cap ? 2 * cap : 64) * sizeof *nv);
            if (!nv) break;
            rendered.svg = nv;
        }
        rendered_svg *r = &rendered.svg[rendered.n++];
        snprintf(r->name, sizeof r->name, "%s", e->d_name);
        r->dev = st.st_dev;
        r->ino = st.st_ino;
        r->size = st.st_size;
        r->mtime = st.st_mtim;
    }
    closedir(d);
}

int sl_charts_rendered_here(const char *dir, const char *name)
{
    if (!rendered.n || strcmp(dir, rendered.dir)) return 0;
    char path[SL_DIR_MAX + 400];
    struct stat st;
    snprintf(path, sizeof path, "%s/charts/%s", dir, name);
    if (lstat(path, &st) || !S_ISREG(st.st_mode)) return 0;
    for (size_t i = 0; i < rendered.n; i++) {
        const rendered_svg *r = &rendered.svg[i];
        if (!strcmp(r->name, name))
            return r->dev == st.st_dev && r->ino == st.st_ino && r->size == st.st_size &&
                   r->mtime.tv_sec == st.st_mtim.tv_sec && r->mtime.tv_nsec == st.st_mtim.tv_nsec;
    }
    return 0;
}

/* Returns render.sh's exit code (3: gnuplot missing), or -1 when it could not be started. */
int sl_charts_render(const char *dir, int quiet, sl_notes *notes)
{
    char script[PATH_MAX + 32];
    sl_err le = {{0}};
    free(rendered.svg);
    memset(&rendered, 0, sizeof rendered);
    /* the files are data: nothing reaches render.sh before every field has been checked */
    if (sl_check_run_dir(dir, NULL, &le)) {
        sl_notes_add(notes, "charts not rendered: %s", le.msg);
        return -1;
    }
    if (sl_ladder_write_csv(dir, &le)) sl_notes_add(notes, "ladder.csv not written: %s", le.msg);
    if (sl_lc_write_csv(dir, &le)) sl_notes_add(notes, "launch.csv not written: %s", le.msg);
    const char *off = getenv("SUMLAB_NO_CHARTS");
    if (off && *off && strcmp(off, "0")) {
        sl_notes_add(notes, "charts not rendered (SUMLAB_NO_CHARTS is set); render with `plots/render.sh %s`", dir);
        return 0;
    }
    if (find_render(script, sizeof script)) {
        sl_notes_add(notes, "charts not rendered: plots/render.sh not found (set SUMLAB_PLOTS_DIR)");
        return -1;
    }
    char *argv[] = {"bash", script, quiet ? "-q" : "-v", (char *)dir, NULL};
    /* The renderer stays in the run's process group (a Ctrl-C reaches it too) and dies with
     * the run (PR_SET_PDEATHSIG): a killed run leaves no renderer beside the resumed one. It
     * inherits the run's directory lock, so a resume waits for its last child to end. */
    const pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        sl_notes_add(notes, "charts not rendered: cannot start bash: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent) _exit(127);   /* the run died before the line above */
        execvp("bash", argv);
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
    free(rendered.svg);
    memset(&rendered, 0, sizeof rendered);
    if (code == 0) rendered_record(dir);
    if (code == 3) sl_notes_add(notes, "charts not rendered: gnuplot is not installed here; "
                                    "render later with `plots/render.sh %s`", dir);
    else if (code != 0) sl_notes_add(notes, "plots/render.sh failed (exit %d); see its messages", code);
    return code;
}

/* ---- charts ------------------------------------------------------------------------------- */
static int cmpstr(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* names[0..nn) (sorted by name) reordered as charts/order.txt lists their stems (render.sh: the
 * order of the report's tables); names it does not list keep their order after the listed ones.
 * Without order.txt (charts of an older render.sh) the order by name stays. */
static void chart_order(const char *cdir, char **names, size_t nn)
{
    char path[SL_DIR_MAX + 128], line[320];
    snprintf(path, sizeof path, "%s/order.txt", cdir);
    FILE *f = fopen(path, "r");
    if (!f) return;
    size_t placed = 0;
    while (placed < nn && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        const size_t l = strlen(line);
        for (size_t i = placed; i < nn; i++) {
            if (strlen(names[i]) != l + 4 || strncmp(names[i], line, l)) continue;
            char *t = names[i];   /* moved to slot `placed`, the others shifted down in order */
            memmove(names + placed + 1, names + placed, (i - placed) * sizeof *names);
            names[placed++] = t;
            break;
        }
    }
    fclose(f);
}

/* The PNGs of DIR/charts (names[0..return), at most 512, strdup'd) in the order of
 * charts/order.txt, else by name. Only names the renderer could have written (letters, digits
 * and . _ : = + -): a file put there by hand goes into report.md's links and image text
 * otherwise, markup and all. */
static size_t chart_list(const char *cdir, char **names)
{
    DIR *d = opendir(cdir);
    size_t nn = 0;
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) && nn < 512) {
            size_t l = strlen(e->d_name);
            if (l <= 4 || strcmp(e->d_name + l - 4, ".png") || l - 4 > 250) continue;
            char stem[256];
            memcpy(stem, e->d_name, l - 4);
            stem[l - 4] = '\0';
            if (!sl_check_name(stem, 250, NULL)) {
                static int told;       /* chart_list runs once a section: said once */
                if (!told++)
                    fprintf(stderr, "sumlab: %s holds a .png whose name sumlab does not write (other "
                                    "characters than letters, digits and . _ : = + -): left out of the report\n", cdir);
                continue;
            }
            if ((names[nn] = strdup(e->d_name))) nn++;
        }
        closedir(d);
    }
    qsort(names, nn, sizeof *names, cmpstr);
    chart_order(cdir, names, nn);
    return nn;
}

/* The charts already placed beside their tables (sl_report_charts_at) in the report being
 * written, and the kinds whose legend was written there; sl_report_charts lists the others
 * and forgets them all (the next report starts empty). */
static char *placed[512];
static size_t nplaced;
static unsigned kinds_told;

static int is_placed(const char *png)
{
    for (size_t i = 0; i < nplaced; i++)
        if (!strcmp(placed[i], png)) return 1;
    return 0;
}

/* The image paragraph of chart STEM and the line of links under it. */
static void chart_figure(FILE *f, const char *cdir, const char *stem)
{
    /* `--figures paper` adds a PDF beside them */
    char pdf[SL_DIR_MAX + 400];
    struct stat pst;
    snprintf(pdf, sizeof pdf, "%s/%s.pdf", cdir, stem);
    const int has_pdf = !stat(pdf, &pst) && S_ISREG(pst.st_mode);
    fprintf(f, "![%s](charts/%s.png)\n[PNG](charts/%s.png) | [SVG](charts/%s.svg)", stem, stem, stem, stem);
    if (has_pdf) fprintf(f, " | [PDF](charts/%s.pdf)", stem);
    fputs("\n\n", f);
}

typedef struct { const char *prefix, *title; } chart_kind;

static size_t chart_kinds(const chart_kind **out, int on_gpu)
{
    static const chart_kind kinds_gpu[] = {   /* in the order of the report's tables */
        {"error_vs_n", "Error vs n (relative error, log-log; the median over the instances with a min-max band; "
                       "dashed: a-priori bounds, ending where no finite bound holds (k u >= 1, or a partial sum may overflow), "
                       "which the key entry says: '\xe2\x88\x9e" " from 2^24', '\xe2\x88\x9e" " at K points', 'all \xe2\x88\x9e'; "
                       "dash-dotted grey: the probabilistic bound sqrt(n) u cond of "
                       "Higham and Mary (2019); dotted: unit roundoff; filled triangles pointing down at the bottom edge: error 0; "
                       "crosses at the top: non-finite results)"},
        {"error_vs_cond", "Error vs condition number, or vs the parameter the sweep varies (lse: the logits' "
                          "sigma; its x axis says which) (relative errors past 1, no correct digit, drawn at 1)"},
        {"error_vs_range", "Error vs dynamic range (binades)"},
        {"tightness", "Bound tightness: the distribution (ECDF) of |error| / a-priori bound per variant over the "
                      "accuracy rows, per operation and format (right of 1: over the bound, each such row also a mark at the "
                      "bottom in its variant's colour and symbol; the key counts them)"},
        {"distribution", "Distribution of results of the nondeterministic variants"},
        {"throughput_vs_n", "Throughput vs n (CUB and the read ceiling as reference lines; the operation's PyTorch "
                            "call beside them where throughput_torch.csv was joined)"},
        {"ladder", "The source texts' ladders: speedup per rung, measured beside published"},
        {"tradeoff", "Accuracy vs throughput (one point per variant)"},
        {"anchors", "The frameworks' sums of the study's inputs: each framework's largest error over the "
                    "repetitions (filled triangles pointing down at the bottom edge: error 0; crosses at the top: Inf or NaN; "
                    "stars at the top: a non-zero result where the exact sum is 0, whose ulp is the smallest subnormal, "
                    "so not on the ulps scale) and its distinct results (1: repeatable)"},
        {"batch_invariance", "Batch invariance: a bar per method and its throughput on the largest batch, "
                             "green when every tracked row kept one bit pattern over the batch sizes, red when "
                             "one did not (above the bar: the most patterns of a row)"},
        {"launch_map", "Launch configurations: throughput maps (best cell ringed)"},
        {"launch_err", "Launch configurations: error against block size and accumulators"},
        {"launch_gbps", "Launch configurations: throughput against block size and accumulators"},
        {"launch_align", "Launch configurations: aligned vs misaligned input"},
    };
    static chart_kind kinds_cpu[sizeof kinds_gpu / sizeof kinds_gpu[0]];
    const size_t nk = sizeof kinds_gpu / sizeof kinds_gpu[0];
    if (on_gpu) { *out = kinds_gpu; return nk; }
    for (size_t k = 0; k < nk; k++) {
        kinds_cpu[k] = kinds_gpu[k];
        if (!strcmp(kinds_cpu[k].prefix, "tradeoff"))
            kinds_cpu[k].title = "Accuracy vs throughput (one point per variant; CPU twins: wall-clock "
                                 "throughput of the twin, not of a GPU)";
    }
    *out = kinds_cpu;
    return nk;
}

void sl_report_charts_at(FILE *f, const char *dir, const char *prefix, int on_gpu)
{
    char cdir[SL_DIR_MAX + 64];
    sl_path_join(cdir, sizeof cdir, dir, "charts", NULL);   /* dir: at most SL_DIR_MAX bytes */
    char *names[512];
    const size_t nn = chart_list(cdir, names), lp = strlen(prefix);
    const chart_kind *kinds;
    const size_t nk = chart_kinds(&kinds, on_gpu);
    for (size_t i = 0; i < nn; i++) {
        const size_t l = strlen(names[i]);
        /* PREFIX.png itself, or PREFIX followed by "_" (error_vs_n_uniform: not error_vs_n_uniform-sym) */
        const int hit = !strncmp(names[i], prefix, lp) && (l == lp + 4 || (prefix[lp - 1] == '_' || names[i][lp] == '_'));
        if (!hit || is_placed(names[i]) || nplaced == sizeof placed / sizeof placed[0]) { free(names[i]); continue; }
        for (size_t k = 0; k < nk && k < 32; k++)   /* the kind's legend, once per report */
            if (!strncmp(names[i], kinds[k].prefix, strlen(kinds[k].prefix)) && !(kinds_told & (1u << k))) {
                fprintf(f, "*Chart: %s.*\n\n", kinds[k].title);
                kinds_told |= 1u << k;
                break;
            }
        char stem[256];
        snprintf(stem, sizeof stem, "%.*s", (int)(l - 4), names[i]);
        chart_figure(f, cdir, stem);
        placed[nplaced++] = names[i];
    }
}

void sl_report_charts(FILE *f, const char *dir, int on_gpu)
{
    char cdir[SL_DIR_MAX + 64];
    sl_path_join(cdir, sizeof cdir, dir, "charts", NULL);   /* dir: at most SL_DIR_MAX bytes */
    fputs("## Charts\n\n", f);
    char *names[512];
    const size_t nn = chart_list(cdir, names);
    const chart_kind *kinds;
    const size_t nk = chart_kinds(&kinds, on_gpu);
    if (!nn) fputs("No charts in charts/ (see the notes below).\n\n", f);
    else if (nplaced) fputs("The charts not shown beside a table above.\n\n", f);
    for (size_t k = 0; k < nk; k++) {
        int header = 0;
        for (size_t i = 0; i < nn; i++) {
            if (strncmp(names[i], kinds[k].prefix, strlen(kinds[k].prefix)) || is_placed(names[i])) continue;
            if (!header) { fprintf(f, "### %s\n\n", kinds[k].title); header = 1; }
            char stem[256];
            snprintf(stem, sizeof stem, "%.*s", (int)(strlen(names[i]) - 4), names[i]);
            chart_figure(f, cdir, stem);
        }
    }
    for (size_t i = 0; i < nn; i++) free(names[i]);
    for (size_t i = 0; i < nplaced; i++) free(placed[i]);
    nplaced = 0;
    kinds_told = 0;
    char npath[SL_DIR_MAX + 128];
    snprintf(npath, sizeof npath, "%s/notes.txt", cdir);
    FILE *nf = fopen(npath, "r");
    if (nf) {
        int any = 0;
        char *line = NULL;             /* a line whole, however long (one note, one bullet) */
        size_t cap = 0;
        while (getline(&line, &cap, nf) != -1) {
            line[strcspn(line, "\r\n")] = '\0';
            if (!*line) continue;
            if (!any) { fputs("Chart notes (from plots/render.sh):\n\n", f); any = 1; }
            fputs("- ", f);
            sl_report_md_text(f, line);   /* render.sh's text: data */
            fputc('\n', f);
        }
        free(line);
        if (any) fputc('\n', f);
        fclose(nf);
    }
}
