/* treport_md.c: report/table.c's Markdown escaping of data (sl_report_md_text for text,
 * sl_report_md_cell for a GFM table cell): the exact output of each case, and, where cmark-gfm is
 * built in (report.html's renderer), hostile and random cells read back by it: the row keeps its
 * cells, the cell holds no link, image or raw HTML, and its text is the data as typed; and
 * sl_report_fit's explicit cut (on a UTF-8 character boundary, marked). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "table.h"
#ifdef SUMLAB_HAVE_CMARK
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#endif

/* s escaped by fn, as a malloc'ed string. */
static char *escaped(void (*fn)(FILE *, const char *), const char *s)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (!f) abort();
    fn(f, s);
    if (fclose(f)) abort();
    return out;
}

static void exact_cases(void)
{
    static const struct { const char *in, *cell, *text; } cases[] = {
        {"a|b", "a\\|b", "a|b"},
        {"|lead", "\\|lead", "\\|lead"},
        {"code `a|b` here", "code `a\\|b` here", "code `a|b` here"},
        {"``a ` | b``", "``a ` \\| b``", "``a ` | b``"},
        {"`open|", "`open\\|", "`open|"},                        /* a run without its closer: text */
        {"a\\|b", "a\\\\\\|b", "a\\\\|b"},                        /* a backslash before a pipe */
        {"`a\\|b`", "`a\\\\|b`", "`a\\|b`"},                      /* ... in a code span */
        {"<script>x</script>", "\\<script\\>x\\</script\\>", "\\<script\\>x\\</script\\>"},
        {"[x](javascript:alert(1))", "\\[x\\](javascript:alert(1))", "\\[x\\](javascript:alert(1))"},
        {"a &amp; b", "a \\&amp; b", "a \\&amp; b"},
        {"line\nbreak\r\nand\ttab\x7f", "line break  and tab ", "line break  and tab "},
        {"`a\nb|`", "`a b\\|`", "`a b|`"},                       /* a control byte in a code span */
        {"# heading", "# heading", "\\# heading"},               /* a cell holds no block */
        {"12. item", "12. item", "12\\. item"},
        {"- item", "- item", "\\- item"},
        {"*em* and **strong**", "*em* and **strong**", "\\*em* and **strong**"},
        {"caf\xc3\xa9 \xe2\x80\xa8 \xc2\x85 x", "caf\xc3\xa9 \xe2\x80\xa8 \xc2\x85 x", "caf\xc3\xa9 \xe2\x80\xa8 \xc2\x85 x"},
        {"", "", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *c = escaped(sl_report_md_cell, cases[i].in), *t = escaped(sl_report_md_text, cases[i].in);
        CHECK(!strcmp(c, cases[i].cell), "case %zu: cell of '%s' is '%s', want '%s'", i, cases[i].in, c, cases[i].cell);
        CHECK(!strcmp(t, cases[i].text), "case %zu: text of '%s' is '%s', want '%s'", i, cases[i].in, t, cases[i].text);
        free(c);
        free(t);
    }
}

#ifdef SUMLAB_HAVE_CMARK
/* What cmark-gfm reads in a row "| L | cell | R |" under a 3-column header. */
typedef struct {
    int rows, cells, markup;   /* body rows, cells of the first, links/images/raw HTML in it */
    char left[16], text[4096], right[16];
} read_back;

/* The text of a cell's inline content (text and code literals, a soft break as a space); counts
 * every link, image and raw HTML node into *markup. */
static void cell_text(cmark_node *cell, char *buf, size_t len, int *markup)
{
    size_t k = 0;
    buf[0] = '\0';
    cmark_iter *it = cmark_iter_new(cell);
    for (cmark_event_type ev; (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE;) {
        if (ev != CMARK_EVENT_ENTER) continue;
        cmark_node *n = cmark_iter_get_node(it);
        const cmark_node_type ty = cmark_node_get_type(n);
        *markup += ty == CMARK_NODE_LINK || ty == CMARK_NODE_IMAGE || ty == CMARK_NODE_HTML_INLINE;
        const char *lit = ty == CMARK_NODE_TEXT || ty == CMARK_NODE_CODE ? cmark_node_get_literal(n)
                          : ty == CMARK_NODE_SOFTBREAK || ty == CMARK_NODE_LINEBREAK ? " " : NULL;
        if (!lit || k + 1 >= len) continue;
        const int w = snprintf(buf + k, len - k, "%s", lit);
        k = w < 0 || (size_t)w >= len - k ? len - 1 : k + (size_t)w;
    }
    cmark_iter_free(it);
}

static void read_cell(const char *s, read_back *rb)
{
    char *md = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&md, &len);
    if (!f) abort();
    fputs("| left | data | right |\n|---|---|---:|\n| L | ", f);
    sl_report_md_cell(f, s);
    fputs(" | R |\n", f);
    if (fclose(f)) abort();
    memset(rb, 0, sizeof *rb);
    cmark_gfm_core_extensions_ensure_registered();
    cmark_parser *ps = cmark_parser_new(CMARK_OPT_DEFAULT);
    if (!ps || !cmark_parser_attach_syntax_extension(ps, cmark_find_syntax_extension("table"))) abort();
    cmark_parser_feed(ps, md, len);
    cmark_node *doc = cmark_parser_finish(ps);
    cmark_node *tab = doc ? cmark_node_first_child(doc) : NULL;
    const char *ty = tab ? cmark_node_get_type_string(tab) : "";
    for (cmark_node *row = tab && !strcmp(ty, "table") ? cmark_node_first_child(tab) : NULL; row;
         row = cmark_node_next(row)) {
        if (strcmp(cmark_node_get_type_string(row), "table_row") || cmark_gfm_extensions_get_table_row_is_header(row) ||
            rb->rows++)
            continue;
        for (cmark_node *c = cmark_node_first_child(row); c; c = cmark_node_next(c), rb->cells++) {
            char *dst = rb->cells == 0 ? rb->left : rb->cells == 1 ? rb->text : rb->right;
            const size_t cap = rb->cells == 1 ? sizeof rb->text : sizeof rb->left;
            if (rb->cells < 3) cell_text(c, dst, cap, &rb->markup);
        }
    }
    if (cmark_node_next(tab ? tab : doc)) rb->rows = -1;   /* anything after the table */
    cmark_node_free(doc);
    cmark_parser_free(ps);
    free(md);
}

/* s as a cell shows it: control bytes as spaces, the spaces at either end trimmed (GFM). */
static void as_shown(const char *s, char *out, size_t cap)
{
    size_t k = 0;
    while (*s == ' ' || (unsigned char)*s < 0x20 || *s == 0x7f) { if (!*s) break; s++; }
    for (; *s && k + 1 < cap; s++) out[k++] = (unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s;
    while (k && out[k - 1] == ' ') k--;
    out[k] = '\0';
}

/* One cell: the row keeps its 3 cells and the table stays whole; with text set (s holds no
 * emphasis or code span), the cell's text is s as typed. */
static void check_cell(const char *s, int text)
{
    read_back rb;
    read_cell(s, &rb);
    CHECK(rb.rows == 1 && rb.cells == 3 && !strcmp(rb.left, "L") && !strcmp(rb.right, "R"),
          "'%s': %d rows, %d cells ('%s' .. '%s')", s, rb.rows, rb.cells, rb.left, rb.right);
    CHECK(rb.markup == 0, "'%s': %d links, images or raw HTML in the cell", s, rb.markup);
    if (!text) return;
    char want[4096];
    as_shown(s, want, sizeof want);
    CHECK(!strcmp(rb.text, want), "'%s': the cell reads '%s'", s, rb.text);
}

static void rendered_cases(void)
{
    static const char *const text[] = {
        "not run on this backend: planted | <script>alert(1)</script> [x](javascript:alert(1)) a\\nb",
        "a|b||c\\|d\\\\|e |", "\\", "ends with a backslash \\", "| lead and trail |",
        "![i](x.png) <img src=x onerror=alert(1)> &lt; &#58; <https://example.com>",
        "line\nbreak\r\nand\rcr | x", "# h", "> q", "- l", "1. n", "---", "=== x",
        "\xe2\x80\xa8 U+2028 \xc2\x85 NEL",
    };
    for (size_t i = 0; i < sizeof text / sizeof *text; i++) check_cell(text[i], 1);
    /* code spans and emphasis: the row and table hold, no markup is made; the spans' text */
    static const char *const spans[] = {
        "`a|b`", "``a ` | b``", "`a\\|b`", "`open | x", "``` fence | x", "*a|b* _c|d_ **e|f**",
        "`[x](javascript:alert(1))`", "`<script>`|`</script>`",
    };
    for (size_t i = 0; i < sizeof spans / sizeof *spans; i++) check_cell(spans[i], 0);
    read_back rb;
    read_cell("x `a|b` y `c\\|d`", &rb);
    CHECK(!strcmp(rb.text, "x a|b y c\\|d"), "code spans read '%s'", rb.text);
    /* random cells of markup characters: with no backtick, '*' or '_', the text as typed */
    static const char alpha[] = "ab |\\<>[]()!&#;:/-=+.1\n\r\t\"'{}~^%$@?";
    static const char more[] = "`*_";
    char s[64];
    for (int rep = 0; rep < 4000; rep++) {
        const int plain = rep % 2 == 0, len = (int)(sl_test_rand64() % 40);
        for (int j = 0; j < len; j++) {
            const uint64_t r = sl_test_rand64();
            s[j] = !plain && r % 5 == 0 ? more[(r >> 8) % 3] : alpha[(r >> 8) % (sizeof alpha - 1)];
        }
        s[len] = '\0';
        check_cell(s, plain);
    }
}
#endif

/* sl_report_fit: a text that fits is whole; one that does not is cut on a UTF-8 character
 * boundary (never inside a multi-byte character) and ends in SL_REPORT_CUT. */
static void fit_cases(void)
{
    char b[16];
    CHECK(sl_report_fit(b, sizeof b, "%s", "abc") == 0 && !strcmp(b, "abc"), "fits: '%s'", b);
    CHECK(sl_report_fit(b, sizeof b, "%s", "0123456789abcde") == 0 && !strcmp(b, "0123456789abcde"),
          "fits exactly: '%s'", b);
    /* 16 bytes: cut, ten kept before the mark */
    CHECK(sl_report_fit(b, sizeof b, "%s", "0123456789abcdef") == -1 && !strcmp(b, "0123456789" SL_REPORT_CUT),
          "cut: '%s'", b);
    /* every offset of a 4-byte and a 2-byte character across the cut: never a partial character */
    for (int pad = 0; pad < 12; pad++) {
        char in[64];
        snprintf(in, sizeof in, "%.*s\xf0\x9d\x84\x9e\xc3\xa9zzzzzzzzzz", pad, "pppppppppppp");
        const int rc = sl_report_fit(b, sizeof b, "%s", in);
        const size_t n = strlen(b), m = strlen(SL_REPORT_CUT);
        CHECK(rc == -1 && n >= m && !strcmp(b + n - m, SL_REPORT_CUT), "pad %d: not marked: '%s'", pad, b);
        CHECK(!strncmp(b, in, n - m), "pad %d: the kept text is not the input's start: '%s'", pad, b);
        const size_t k = n - m;   /* the kept bytes end on a character: the next input byte starts one */
        CHECK(((unsigned char)in[k] & 0xc0) != 0x80, "pad %d: cut inside a character at byte %zu: '%s'", pad, k, b);
    }
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    exact_cases();
    fit_cases();
#ifdef SUMLAB_HAVE_CMARK
    rendered_cases();
#else
    printf("treport_md: no cmark-gfm in this build: the output checked, not read back\n");
#endif
    return sl_test_done("treport_md");
}
