/* latex.c: the report's tables as LaTeX booktabs tabulars (DIR/tables/NAME.tex), for a paper: read
 * from report.md's own text, so every table of every section, in the order of the report. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "latex.h"

/* ---- text ----------------------------------------------------------------------------------- */
/* One character (or UTF-8 sequence at s, n bytes available) as LaTeX; returns the bytes used. */
static size_t put_char(FILE *f, const unsigned char *s, size_t n)
{
    static const struct { const char *utf8, *tex; } map[] = {
        {"\xc2\xb7", "\\textperiodcentered{}"}, {"\xe2\x89\xa4", "$\\leq$"}, {"\xe2\x89\xa5", "$\\geq$"},
        {"\xc2\xb1", "$\\pm$"}, {"\xc3\x97", "$\\times$"}, {"\xe2\x80\x93", "--"}, {"\xe2\x80\x94", "---"},
        {"\xe2\x88\x92", "$-$"}, {"\xe2\x89\x88", "$\\approx$"}, {"\xc2\xb5", "$\\mu$"}, {"\xe2\x80\x99", "'"},
        {"\xe2\x86\x92", "$\\rightarrow$"}, {"\xe2\x88\x9e", "$\\infty$"},
    };
    const unsigned char c = s[0];
    switch (c) {
    case '\\': fputs("\\textbackslash{}", f); return 1;
    case '&': case '%': case '$': case '#': case '_': case '{': case '}': fputc('\\', f); fputc(c, f); return 1;
    case '~': fputs("\\textasciitilde{}", f); return 1;
    case '^': fputs("\\textasciicircum{}", f); return 1;
    case '<': fputs("\\textless{}", f); return 1;
    case '>': fputs("\\textgreater{}", f); return 1;
    case '|': fputs("\\textbar{}", f); return 1;
    case '"': fputs("\\textquotedbl{}", f); return 1;
    default: break;
    }
    if (c < 0x80) {
        fputc(c >= 0x20 && c < 0x7f ? c : ' ', f);
        return 1;
    }
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        size_t l = strlen(map[i].utf8);
        if (l <= n && !memcmp(s, map[i].utf8, l)) { fputs(map[i].tex, f); return l; }
    }
    /* another non-ASCII character: '?' for its whole sequence */
    size_t l = 1;
    while (l < n && l < 4 && (s[l] & 0xc0) == 0x80) l++;
    fputc('?', f);
    return l;
}

void sl_report_latex_text(FILE *f, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        /* **bold** and `code`, when closed */
        if (i + 1 < len && p[i] == '*' && p[i + 1] == '*') {
            const char *e = NULL;
            for (size_t j = i + 2; j + 1 < len; j++)
                if (p[j] == '*' && p[j + 1] == '*') { e = s + j; break; }
            if (e) {
                fputs("\\textbf{", f);
                sl_report_latex_text(f, s + i + 2, (size_t)(e - (s + i + 2)));
                fputc('}', f);
                i = (size_t)(e - s) + 2;
                continue;
            }
        }
        if (p[i] == '`') {
            const char *e = memchr(s + i + 1, '`', len - i - 1);
            if (e) {
                fputs("\\texttt{", f);
                for (size_t j = i + 1; j < (size_t)(e - s);) {
                    if (p[j] == '\\' && j + 1 < (size_t)(e - s) && p[j + 1] == '|') j++;   /* a cell's \| */
                    j += put_char(f, p + j, (size_t)(e - s) - j);
                }
                fputc('}', f);
                i = (size_t)(e - s) + 1;
                continue;
            }
        }
        /* a Markdown backslash escape (\| in a cell, \< \[ \\ of escaped text): the character */
        if (p[i] == '\\' && i + 1 < len && p[i + 1] && strchr("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", p[i + 1])) {
            put_char(f, p + i + 1, 1);
            i += 2;
            continue;
        }
        i += put_char(f, p + i, len - i);
    }
}

/* ---- one table ------------------------------------------------------------------------------ */
/* The cells of a table line [s, e): up to max (start, length) pairs, trimmed; returns the count. */
static int cells(const char *s, const char *e, const char **cs, size_t *cl, int max)
{
    while (s < e && (*s == ' ' || *s == '\t')) s++;
    if (s < e && *s == '|') s++;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) e--;
    if (e > s && e[-1] == '|' && !(e - 1 > s && e[-2] == '\\')) e--;
    int k = 0;
    const char *c = s;
    for (const char *p = s; p <= e && k < max; p++) {
        if (p == e || (*p == '|' && !(p > s && p[-1] == '\\'))) {
            const char *a = c, *b = p;
            while (a < b && *a == ' ') a++;
            while (b > a && b[-1] == ' ') b--;
            cs[k] = a;
            cl[k] = (size_t)(b - a);
            k++;
            c = p + 1;
        }
    }
    return k;
}

#define SL_TEX_MAXCOLS 80

int sl_report_latex_table(FILE *f, const char *caption, const char *md, size_t len)
{
    const char *end = md + len, *l1 = md, *e1 = memchr(md, '\n', len);
    if (!e1) return -1;
    const char *l2 = e1 + 1, *e2 = l2 < end ? memchr(l2, '\n', (size_t)(end - l2)) : NULL;
    if (!e2) e2 = end;
    const char *hc[SL_TEX_MAXCOLS], *sc[SL_TEX_MAXCOLS];
    size_t hl[SL_TEX_MAXCOLS], sll[SL_TEX_MAXCOLS];
    int nh = cells(l1, e1, hc, hl, SL_TEX_MAXCOLS), ns = cells(l2, e2, sc, sll, SL_TEX_MAXCOLS);
    if (nh < 1 || ns != nh) return -1;
    for (int j = 0; j < ns; j++)
        if (!sll[j] || strspn(sc[j], "-:") < sll[j]) return -1;
    fputs("% ", f);
    sl_report_latex_text(f, caption, strlen(caption));
    fputs("\n% (a sumlab report table; needs \\usepackage{booktabs})\n\\begin{tabular}{", f);
    for (int j = 0; j < nh; j++) fputc(sc[j][sll[j] - 1] == ':' ? 'r' : 'l', f);
    fputs("}\n\\toprule\n", f);
    for (int j = 0; j < nh; j++) {
        if (j) fputs(" & ", f);
        sl_report_latex_text(f, hc[j], hl[j]);
    }
    fputs(" \\\\\n\\midrule\n", f);
    int rows = 0;
    for (const char *l = e2 < end ? e2 + 1 : end; l < end;) {
        const char *e = memchr(l, '\n', (size_t)(end - l));
        if (!e) e = end;
        const char *c[SL_TEX_MAXCOLS];
        size_t cl[SL_TEX_MAXCOLS];
        int n = cells(l, e, c, cl, SL_TEX_MAXCOLS);
        for (int j = 0; j < nh; j++) {
            if (j) fputs(" & ", f);
            if (j < n) sl_report_latex_text(f, c[j], cl[j]);
        }
        fputs(" \\\\\n", f);
        rows++;
        l = e + 1;
    }
    fputs("\\bottomrule\n\\end{tabular}\n", f);
    return rows;
}

/* ---- the files ------------------------------------------------------------------------------ */
/* A heading's text as a file-name part: lowercase letters, digits and '-', at most 60. */
static void slug(char *out, size_t cap, const char *s, size_t len)
{
    size_t k = 0;
    int dash = 0;
    for (size_t i = 0; i < len && k + 1 < cap && k < 60; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 'A' && c <= 'Z') c = (unsigned char)(c - 'A' + 'a');
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) { out[k++] = (char)c; dash = 0; }
        else if (!dash && k) { out[k++] = '-'; dash = 1; }
    }
    while (k && out[k - 1] == '-') k--;
    out[k] = '\0';
    if (!k) snprintf(out, cap, "table");
}

static int clear_old(const char *tdir)
{
    DIR *d = opendir(tdir);
    if (!d) return 0;
    struct dirent *e;
    char path[4096];
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l > 4 && !strcmp(e->d_name + l - 4, ".tex") && snprintf(path, sizeof path, "%s/%s", tdir, e->d_name) < (int)sizeof path)
            unlink(path);
    }
    closedir(d);
    return 0;
}

int sl_report_latex_write(const char *dir, const char *md, size_t len, sl_err *err)
{
    char tdir[SL_DIR_MAX + 64];
    if (sl_path_join(tdir, sizeof tdir, dir, "tables", err)) return -1;
    if (mkdir(tdir, 0777) && errno != EEXIST) return sl_err_set(err, "cannot create %s: %s", tdir, strerror(errno));
    clear_old(tdir);
    char h2[128] = "report", h3[128] = "", last[300] = "";
    /* the captions: the headings' text in md itself (a heading of any length, nothing cut) */
    const char *cap2 = "", *cap3 = "";
    size_t cap2_len = 0, cap3_len = 0;
    int k = 0;
    const char *end = md + len;
    for (const char *l = md; l < end;) {
        const char *e = memchr(l, '\n', (size_t)(end - l));
        if (!e) e = end;
        size_t ll = (size_t)(e - l);
        if (ll > 3 && !strncmp(l, "## ", 3)) {
            slug(h2, sizeof h2, l + 3, ll - 3);
            h2[strcspn(h2, "-")] = '\0';   /* the section's first word: headline, sweeps, throughput ... */
            cap2 = l + 3;
            cap2_len = ll - 3;
            h3[0] = '\0';
            cap3_len = 0;
        } else if (ll > 4 && !strncmp(l, "### ", 4)) {
            slug(h3, sizeof h3, l + 4, ll - 4);
            char *ip = strstr(h3, "-instance");   /* "-5-instances-per-point": in the caption */
            if (ip) {
                while (ip > h3 && ip[-1] != '-') ip--;
                *(ip > h3 ? ip - 1 : ip) = '\0';
            }
            cap3 = l + 4;
            cap3_len = ll - 4;
        } else if (ll && *l == '|') {
            const char *te = e;   /* the table: consecutive lines starting with '|' */
            while (te < end && te + 1 < end && te[1] == '|') {
                const char *n = memchr(te + 1, '\n', (size_t)(end - te - 1));
                te = n ? n : end;
            }
            char *caption = malloc(cap2_len + 2 + cap3_len + 1);
            if (!caption) return sl_err_set(err, "cannot compose %s: out of memory", tdir);
            size_t cl = 0;
            memcpy(caption, cap2, cap2_len);
            cl += cap2_len;
            if (cap3_len) { memcpy(caption + cl, ": ", 2); cl += 2; }
            memcpy(caption + cl, cap3, cap3_len);
            caption[cl + cap3_len] = '\0';
            char *text = NULL;
            size_t tl = 0;
            FILE *f = open_memstream(&text, &tl);
            if (!f) { free(caption); return sl_err_set(err, "cannot compose %s: out of memory", tdir); }
            int rows = sl_report_latex_table(f, caption, l, (size_t)(te - l));
            fclose(f);
            free(caption);
            if (rows >= 0) {
                char name[300], path[SL_DIR_MAX + 400];
                snprintf(name, sizeof name, "%s%s%s", h2, h3[0] ? "_" : "", h3);
                k = strcmp(name, last) ? 1 : k + 1;
                snprintf(last, sizeof last, "%s", name);
                if (k > 1) snprintf(name + strlen(name), sizeof name - strlen(name), "_%d", k);
                snprintf(path, sizeof path, "%s/%s.tex", tdir, name);
                if (sl_write_atomic(path, text, tl, err)) { free(text); return -1; }
            }
            free(text);
            l = te < end ? te + 1 : end;
            continue;
        }
        l = e + 1;
    }
    return 0;
}
