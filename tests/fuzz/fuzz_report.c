/* fuzz_report.c: libFuzzer target of what `run --report-only` reads: run.conf, results.csv and
 * distribution.csv checked as data (report/check.c), the run's notes (run_notes.txt, read by
 * results/notes.c), then report.md and report.html written from them. Input: run.conf NUL
 * results.csv NUL distribution.csv [NUL run_notes.txt]. Never a crash; a refused directory or
 * notes file has a message (refused notes: the report is written without them, as the other
 * inputs still deserve their checks); accepted notes are at most SL_NOTES_MAX lines of printable
 * UTF-8, each shorter than a note's room; an accepted directory has every dataset, dtype and
 * variant in the registries (or the other builds' few names), every name free of shell, path and
 * markup characters, and a report.html whose markup holds the page's one script, no on* attribute
 * and no value starting with javascript: (the same words in escaped text or inside a path are
 * inert), and whose Notes section holds no element but text formatting (no link, no image); the
 * verdicts table (whose detail cell may quote a row's note) holds every row on one line of
 * report.md with the header's 7 cells, and on the page no element but the table's and text
 * formatting. */
#include <strings.h>
#include <sys/stat.h>
#include "check.h"
#include "fuzz_util.h"
#include "sl_datasets.h"
#include "sl_ops.h"
#include "sl_report.h"
#include "sl_variants.h"

/* The page, whole and NUL-terminated (malloc'ed); NULL when the file cannot be read. */
static char *read_page(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)len + 1);
    if (!b || fread(b, 1, (size_t)len, f) != (size_t)len) abort();
    fclose(f);
    b[len] = '\0';
    return b;
}

/* 1 when p[0..end) holds only elements named in ok[0..n) (opening and closing tags). */
static int only_elements(const char *p, const char *end, const char *const *ok, size_t n)
{
    for (; (p = memchr(p, '<', (size_t)(end - p))) != NULL; p++) {
        const char *name = p + 1 + (p[1] == '/');
        size_t k = 0;
        while (name[k] && strchr("abcdefghijklmnopqrstuvwxyz0123456789", name[k])) k++;
        int known = 0;
        for (size_t i = 0; i < n && !known; i++) known = strlen(ok[i]) == k && !memcmp(ok[i], name, k);
        if (!known) return 0;
    }
    return 1;
}

/* 1 when the page's Notes section (from its heading to the next <h2) holds only the elements
 * that Markdown text makes: lists, paragraphs, code, emphasis, rules, headings, quotes. */
static int notes_section_inert(const char *page)
{
    static const char *const ok[] = {"ul", "ol", "li", "p", "code", "em", "strong", "hr", "pre", "blockquote",
                                     "h1", "h2", "h3", "h4", "h5", "h6"};
    const char *p = strstr(page, "\">Notes</h2>");
    if (!p) return 1;
    p += 12;
    const char *end = strstr(p, "<h2");
    return only_elements(p, end ? end : p + strlen(p), ok, sizeof ok / sizeof *ok);
}

#define VERDICTS_HEAD "| variant | claimed | verdict | observed | distinct over reps | spread (ulps) | detail |\n"

/* 1 when every verdicts table of the page (one per operation) holds only the table's elements and
 * text formatting, as many as report.md (nmd) has. */
static int verdict_tables_inert(const char *page, long nmd)
{
    static const char *const ok[] = {"table", "thead", "tbody", "tr", "th", "td", "code", "em", "strong"};
    long n = 0;
    for (const char *p = page; (p = strstr(p, ">Determinism (claimed class checked)</h2>")) != NULL; p++) {
        const char *t = strstr(p, "<table"), *h2 = strstr(p + 1, "<h2");
        if (!t || (h2 && h2 < t)) continue;            /* the experiment was not run: no table */
        const char *end = strstr(t, "</table>"), *d = strstr(t, ">detail</th>");
        if (!end || !d || d > end || !only_elements(t, end, ok, sizeof ok / sizeof *ok)) return 0;
        n++;
    }
    return n == nmd;
}

/* The verdicts tables of report.md: each row on one line with the header's 7 cells (GFM: a '|'
 * that no backslash precedes ends a cell). Their count, or -1 when a row is broken. */
static long verdict_rows_whole(const char *md)
{
    long tables = 0;
    for (const char *p = md; (p = strstr(p, VERDICTS_HEAD)) != NULL; tables++) {
        p = strchr(p + strlen(VERDICTS_HEAD), '\n');   /* past the delimiter row */
        for (p = p ? p + 1 : ""; *p == '|';) {
            const char *e = strchr(p, '\n');
            if (!e) return -1;
            long bars = 0;
            for (const char *q = p; q < e; q++) bars += *q == '|' && (q == p || q[-1] != '\\');
            if (bars != 8) return -1;
            p = e + 1;
        }
    }
    return tables;
}

/* The page's markup, tag by tag (text between tags is inert: the renderer escaped it): *scripts
 * counts <script> elements, *bad the tags with an on* attribute or a value that starts with
 * javascript: (a relative path holding the word is a path). */
static void scan_tags(char *b, long *scripts, long *bad)
{
    *scripts = *bad = 0;
    for (char *p = b; (p = strchr(p, '<')) != NULL; ) {
        char *e = strchr(p, '>');
        if (!e) break;
        *e = '\0';
        if (!strncasecmp(p, "<script", 7)) ++*scripts;
        for (char *q = p; *q; q++) {
            if ((q[0] == ' ' || q[0] == '\t' || q[0] == '\n' || q[0] == '/') && (q[1] == 'o' || q[1] == 'O') &&
                (q[2] == 'n' || q[2] == 'N') && q[3] && strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", q[3])) {
                const char *w = q + 3;
                while (*w && strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", *w)) w++;
                while (*w == ' ') w++;
                if (*w == '=') ++*bad;
            }
            if (*q == '=') {            /* an attribute's value that starts with the scheme */
                const char *w = q + 1;
                while (*w == ' ' || *w == '"' || *w == '\'') w++;
                if (!strncasecmp(w, "javascript:", 11)) ++*bad;
            }
        }
        p = e + 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    static const char *const other[] = {"read-ceiling", "cub-gpu-to-gpu", "cub-not-guaranteed"};
    const char *dir = fz_scratch();
    char path[300];
    fz_run_dir(dir, d, n, 0);
    snprintf(path, sizeof path, "%s/report.html", dir);
    unlink(path);

    sl_err e = {{0}};
    if (sl_check_run_dir(dir, NULL, &e)) {
        if (!e.msg[0]) abort();
        return 0;
    }
    /* accepted: the names are the registries' (variants, operations' PyTorch calls) and carry nothing a shell, a path or a page
     * would read as code */
    sl_csv t;
    snprintf(path, sizeof path, "%s/results.csv", dir);
    if (sl_csv_read(path, &t, NULL, &e)) abort();
    const int cds = sl_csv_col(&t, "dataset"), cdt = sl_csv_col(&t, "dtype"), cv = sl_csv_col(&t, "variant");
    for (size_t r = 0; r < t.nrows; r++) {
        sl_dtype dt;
        /* a registry family, or a `run --files` input: file:NAME, NAME a checked name */
        const char *ds = cds >= 0 ? sl_csv_get(&t, r, cds) : NULL;
        if (ds && !sl_dataset_find(ds) && (strncmp(ds, "file:", 5) || !sl_check_name(ds + 5, 140, NULL))) abort();
        if (cdt >= 0 && sl_dtype_parse(sl_csv_get(&t, r, cdt), &dt)) abort();
        if (cv >= 0 && !sl_variant_find(sl_csv_get(&t, r, cv))) {
            int known = sl_op_is_torch_call(sl_csv_get(&t, r, cv));
            for (size_t i = 0; i < sizeof other / sizeof *other; i++) known |= !strcmp(other[i], sl_csv_get(&t, r, cv));
            if (!known) abort();
        }
        for (int c = 0; c < t.ncols; c++) {
            if (!strcmp(t.header[c], "note")) continue;
            if (strpbrk(sl_csv_get(&t, r, c), "'\"`$|&<>\\/ \t\n\r*?[]{}();,")) {
                if (strcmp(t.header[c], "params") || strpbrk(sl_csv_get(&t, r, c), "'\"`$|&<>\\/ \t\n\r*?[]{}(),")) abort();
            }
        }
    }
    sl_csv_free(&t);
    /* the run's notes: refused with a message, or lines of printable UTF-8 of a note's length */
    static sl_notes notes;
    const sl_notes *use = &notes;
    e.msg[0] = '\0';
    if (sl_notes_read(dir, &notes, &e)) {
        if (!e.msg[0] || notes.n != 0) abort();
        use = NULL;
    }
    for (int i = 0; use && i < notes.n; i++) {
        const size_t k = strnlen(notes.line[i], sizeof notes.line[i]);
        if (k >= sizeof notes.line[i] || !sl_check_utf8(notes.line[i], k)) abort();
        for (size_t j = 0; j < k; j++)
            if ((unsigned char)notes.line[i][j] < 0x20 || notes.line[i][j] == 0x7f) abort();
    }
    if (notes.n > SL_NOTES_MAX) abort();
    if (sl_report_write(dir, use, &e)) {
        if (!e.msg[0]) abort();
        return 0;
    }
    snprintf(path, sizeof path, "%s/report.md", dir);
    char *md = read_page(path);
    if (!md) abort();
    const long nverd = verdict_rows_whole(md);
    free(md);
    if (nverd < 0) abort();
    snprintf(path, sizeof path, "%s/report.html", dir);
    char *page = read_page(path);
    if (page) {
        long scripts = 0, bad = 0;
        if (!notes_section_inert(page) || !verdict_tables_inert(page, nverd)) abort();
        scan_tags(page, &scripts, &bad);
        if (scripts != 1 || bad != 0) abort();
        free(page);
    }
    return 0;
}
