/* tlatex.c: the report's tables as LaTeX (experiments/report/latex.c): every character from data
 * escaped (variant and dataset names are data), **bold** and `code` kept, the booktabs frame,
 * a column per header cell, a row per table line, and the files DIR/tables/NAME.tex written from a report. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "latex.h"
#include "sl_test.h"

static char *tex_text(const char *s)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    sl_report_latex_text(f, s, strlen(s));
    fclose(f);
    return out;
}

static char *tex_table(const char *md, int *rows)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    *rows = sl_report_latex_table(f, "cap_1 & 100%", md, strlen(md));
    fclose(f);
    return out;
}

/* Outside \commands and their {} arguments, no character that LaTeX gives a meaning stays bare. */
static int bare_special(const char *t)
{
    for (const char *p = t; *p; p++) {
        if (*p == '\\') { p++; continue; }     /* an escape or a command's first letter */
        if (strchr("&%#_~^", *p)) return 1;
        if ((unsigned char)*p >= 0x80) return 1;
    }
    return 0;
}

int main(void)
{
    struct { const char *in, *want; } cases[] = {
        {"plain-name_1", "plain-name\\_1"},
        {"a & b % c $ d # e", "a \\& b \\% c \\$ d \\# e"},
        {"{x} ~ ^ \\ <> \"q\"", "\\{x\\} \\textasciitilde{} \\textasciicircum{} \\textbackslash{} \\textless{}\\textgreater{} \\textquotedbl{}q\\textquotedbl{}"},
        {"**bold_x** and `code_y`", "\\textbf{bold\\_x} and \\texttt{code\\_y}"},
        {"**unclosed", "*{}*{}unclosed"},
        {"u \xc2\xb7 cond \xe2\x89\xa4 1 \xc3\xa9", "u \\textperiodcentered{} cond $\\leq$ 1 ?"},
        {"a\\|b", "a\\textbar{}b"},
        {"\\input{/etc/passwd}", "\\textbackslash{}input\\{/etc/passwd\\}"},
        /* Markdown's backslash escapes (report/table.c's escaped data): the character */
        {"\\<script\\> \\[x\\](y) a\\\\b \\&amp;", "\\textless{}script\\textgreater{} [x](y) a\\textbackslash{}b \\&amp;"},
        {"`a\\|b` c\\|d", "\\texttt{a\\textbar{}b} c\\textbar{}d"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *t = tex_text(cases[i].in);
        if (i == 4) {   /* an unclosed ** is two literal stars: whatever their form, no bare special */
            CHECK(!bare_special(t) && strstr(t, "unclosed"), "case %zu: '%s'", i, t);
        } else {
            CHECK(!strcmp(t, cases[i].want), "case %zu: '%s' gave '%s', want '%s'", i, cases[i].in, t, cases[i].want);
        }
        CHECK(!bare_special(t), "case %zu: a bare special in '%s'", i, t);
        free(t);
    }

    /* a table: alignment from the separator, a row per line, escaped cells */
    int rows = 0;
    char *t = tex_table("| variant | ulps | note |\n|---|---:|---|\n| a_b | 1.5 | x & y |\n| c%d | **2** | `z_w` |\n", &rows);
    CHECK(rows == 2, "rows %d", rows);
    CHECK(strstr(t, "\\begin{tabular}{lrl}\n\\toprule\nvariant & ulps & note \\\\\n\\midrule\n") != NULL, "frame: %s", t);
    CHECK(strstr(t, "a\\_b & 1.5 & x \\& y \\\\\nc\\%d & \\textbf{2} & \\texttt{z\\_w} \\\\\n\\bottomrule\n\\end{tabular}\n") != NULL,
          "rows: %s", t);
    CHECK(strstr(t, "% cap\\_1 \\& 100\\%\n") == t, "caption comment: %s", t);
    free(t);
    /* a cell of escaped data: its '\|' no column, its escapes the characters */
    t = tex_table("| v | detail |\n|---|---|\n| k | a\\|b `c\\|d` \\<e\\> |\n", &rows);
    CHECK(rows == 1 && strstr(t, "k & a\\textbar{}b \\texttt{c\\textbar{}d} \\textless{}e\\textgreater{} \\\\\n") != NULL,
          "escaped cell: %s", t);
    free(t);
    t = tex_table("| a | b |\n| not a separator |\n", &rows);
    CHECK(rows == -1, "a non-table gave %d rows", rows);
    free(t);

    /* DIR/tables/NAME.tex from a report's text: one file per table, named by its headings */
    char dir[] = "/tmp/tlatex.XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    const char *md = "# r\n\n## Headline\n\n### f32 input\n\n| v | x |\n|---|---:|\n| k | 1 |\n\n"
                     "## Sweeps: error\n\n### accuracy-vs-cond, f32, n = 1024, 5 instances per point\n\n"
                     "| v | c |\n|---|---:|\n| k | 2 |\n\ntext | not a table\n";
    sl_err e = {{0}};
    CHECK(sl_report_latex_write(dir, md, strlen(md), &e) == 0, "write: %s", e.msg);
    char p1[256], p2[256];
    snprintf(p1, sizeof p1, "%s/tables/headline_f32-input.tex", dir);
    snprintf(p2, sizeof p2, "%s/tables/sweeps_accuracy-vs-cond-f32-n-1024.tex", dir);
    CHECK(access(p1, R_OK) == 0, "%s missing", p1);
    CHECK(access(p2, R_OK) == 0, "%s missing", p2);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "test $(ls %s/tables | wc -l) -eq 2", dir);
    CHECK(system(cmd) == 0, "not two files in %s/tables", dir);

    /* a caption is its headings whole, however long (once cut at 255 bytes each) */
    {
        char longmd[2048], want[1024], x[401], y[401], path[512];
        memset(x, 'x', 400);
        memset(y, 'y', 400);
        x[400] = y[400] = '\0';
        snprintf(longmd, sizeof longmd, "## Sweeps %s\n\n### %s\n\n| v | c |\n|---|---:|\n| k | 3 |\n", x, y);
        snprintf(want, sizeof want, "%% Sweeps %s: %s\n", x, y);
        CHECK(sl_report_latex_write(dir, longmd, strlen(longmd), &e) == 0, "write: %s", e.msg);
        snprintf(cmd, sizeof cmd, "ls %s/tables/sweeps_*.tex", dir);
        FILE *ls = popen(cmd, "r");
        CHECK(ls && fgets(path, sizeof path, ls), "no sweeps_*.tex in %s/tables", dir);
        if (ls) pclose(ls);
        path[strcspn(path, "\n")] = '\0';
        FILE *tf = fopen(path, "r");
        char *tex = NULL;
        size_t tl = 0;
        if (tf) { getdelim(&tex, &tl, '\0', tf); fclose(tf); }
        CHECK(tex && strstr(tex, want), "%s: the caption is not both headings whole", path);
        free(tex);
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0, "cleanup");
    return sl_test_done("tlatex");
}
