/* html.c: DIR/report.html, one self-contained page made from report.md's own Markdown text (so it
 * holds every table and note report.md has), every chart's SVG inline (ids made unique per
 * chart), sortable tables (a small inline script), meta.json's provenance; every string escaped. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "html.h"

#define HTML_SVG_MAX (64u << 20)   /* a chart larger than this is not inlined (said on the page) */

/* ---- escaping ------------------------------------------------------------------------------ */
/* s[0..n) as HTML text or attribute value: & < > " ' escaped; other bytes as they are (UTF-8). */
static void esc(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        switch (s[i]) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(s[i], f);
        }
    }
}
static void escz(FILE *f, const char *s) { esc(f, s, strlen(s)); }

/* A link target the page may carry: relative (no scheme), so never javascript: or a remote URL. */
static int safe_url(const char *u, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (u[i] == ':') return 0;
        if (u[i] == '/' || u[i] == '?' || u[i] == '#') return 1;
    }
    return n > 0;
}

/* ---- inline Markdown: `code`, **strong**, [text](url), \| ----------------------------------- */
static void inl(FILE *f, const char *s, size_t n)
{
    int strong = 0;
    for (size_t i = 0; i < n;) {
        char ch = s[i];
        if (ch == '\\' && i + 1 < n && strchr("|\\`*[]", s[i + 1])) {
            esc(f, s + i + 1, 1);
            i += 2;
            continue;
        }
        if (ch == '`') {
            const char *e = memchr(s + i + 1, '`', n - i - 1);
            if (e) {
                fputs("<code>", f);
                esc(f, s + i + 1, (size_t)(e - (s + i + 1)));
                fputs("</code>", f);
                i = (size_t)(e - s) + 1;
                continue;
            }
        }
        if (ch == '*' && i + 1 < n && s[i + 1] == '*') {
            fputs(strong ? "</strong>" : "<strong>", f);
            strong = !strong;
            i += 2;
            continue;
        }
        if (ch == '[') {
            const char *rb = memchr(s + i + 1, ']', n - i - 1);
            size_t j = rb ? (size_t)(rb - s) : n;
            const char *rp = j + 1 < n && s[j + 1] == '(' ? memchr(s + j + 2, ')', n - j - 2) : NULL;
            if (rp) {
                const char *url = s + j + 2;
                size_t ul = (size_t)(rp - url);
                if (safe_url(url, ul)) {
                    fputs("<a href=\"", f);
                    esc(f, url, ul);
                    fputs("\">", f);
                    inl(f, s + i + 1, j - i - 1);
                    fputs("</a>", f);
                } else {
                    inl(f, s + i + 1, j - i - 1);
                }
                i = (size_t)(rp - s) + 1;
                continue;
            }
        }
        esc(f, s + i, 1);
        i++;
    }
    if (strong) fputs("</strong>", f);
}

/* ---- tables ----------------------------------------------------------------------------------- */
/* The cells of one table line "| a | b |": their [start, end) offsets, unescaped '|' splits. */
static size_t split_cells(const char *s, size_t n, size_t *st, size_t *en, size_t max)
{
    size_t k = 0, i = 0;
    while (i < n && s[i] == ' ') i++;
    if (i < n && s[i] == '|') i++;
    size_t start = i;
    for (; i <= n && k < max; i++) {
        if (i == n || (s[i] == '|' && s[i - 1] != '\\')) {
            size_t a = start, b = i;
            while (a < b && s[a] == ' ') a++;
            while (b > a && s[b - 1] == ' ') b--;
            if (i == n && a == b) break;      /* nothing after the closing '|' */
            st[k] = a;
            en[k] = b;
            k++;
            start = i + 1;
        }
    }
    return k;
}

/* The class of a cell that states a verdict: pass, fail or none. */
static const char *cell_class(const char *s, size_t n)
{
    if (n >= 4 && !memcmp(s, "**", 2) && !memcmp(s + n - 2, "**", 2) && n > 4) { s += 2; n -= 4; }
    if (n == 4 && !memcmp(s, "FAIL", 4)) return "fail";
    if ((n == 4 || n == 5) && !memcmp(s, "PASS", 4)) return "pass";
    for (size_t i = 0; i + 7 <= n; i++)
        if ((i + 8 <= n && !memcmp(s + i, "VIOLATED", 8)) || !memcmp(s + i, "DIFFERS", 7)) return "fail";
    return NULL;
}

#define MAXCOLS 256
/* lines[0..nl): the table's lines (header, alignment, rows); each line [ls, le). */
static void table_html(FILE *f, const char *md, const size_t *ls, const size_t *le, size_t nl)
{
    static size_t st[MAXCOLS], en[MAXCOLS];
    char align[MAXCOLS];
    size_t nh = split_cells(md + ls[0], le[0] - ls[0], st, en, MAXCOLS);
    memset(align, 'l', sizeof align);
    size_t first_row = 1;
    if (nl > 1) {
        size_t na = split_cells(md + ls[1], le[1] - ls[1], st, en, MAXCOLS);
        int is_align = na > 0;
        for (size_t k = 0; k < na; k++) {
            const char *c = md + ls[1] + st[k];
            size_t cl = en[k] - st[k];
            for (size_t q = 0; q < cl; q++)
                if (!strchr("-:", c[q])) is_align = 0;
            if (cl && c[cl - 1] == ':') align[k] = 'r';
        }
        if (is_align) first_row = 2;
        else memset(align, 'l', sizeof align);
    }
    fputs("<div class=\"tw\"><table class=\"sortable\">\n<thead><tr>", f);
    nh = split_cells(md + ls[0], le[0] - ls[0], st, en, MAXCOLS);
    for (size_t k = 0; k < nh; k++) {
        fputs("<th>", f);
        inl(f, md + ls[0] + st[k], en[k] - st[k]);
        fputs("</th>", f);
    }
    fputs("</tr></thead>\n<tbody>\n", f);
    for (size_t r = first_row; r < nl; r++) {
        size_t nc = split_cells(md + ls[r], le[r] - ls[r], st, en, MAXCOLS);
        fputs("<tr>", f);
        for (size_t k = 0; k < nc; k++) {
            const char *c = md + ls[r] + st[k];
            size_t cl = en[k] - st[k];
            const char *cls = cell_class(c, cl);
            if (align[k] == 'r' || cls)
                fprintf(f, "<td class=\"%s%s%s\">", align[k] == 'r' ? "num" : "",
                        align[k] == 'r' && cls ? " " : "", cls ? cls : "");
            else
                fputs("<td>", f);
            inl(f, c, cl);
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table></div>\n", f);
}

/* ---- charts: the SVG beside each PNG, inlined with its ids prefixed ---------------------------- */
static char *read_all(const char *path, size_t max, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    while (b) {
        if (n == cap) {
            if (cap >= max) { free(b); b = NULL; break; }
            char *nb = realloc(b, cap * 2);
            if (!nb) { free(b); b = NULL; break; }
            b = nb;
            cap *= 2;
        }
        size_t k = fread(b + n, 1, cap - n, f);
        n += k;
        if (k == 0) break;
    }
    if (b && ferror(f)) { free(b); b = NULL; }
    fclose(f);
    if (b) *len = n;
    return b;
}

/* Writes the SVG s[0..n) from its <svg element on, every id / #ref / url(#ref) prefixed with
 * "cK-" (one page holds many gnuplot charts, which all name their points gpPt0...). 0, or -1
 * when it is no SVG the page may inline (no <svg, or active content). */
static int svg_inline(FILE *f, const char *s, size_t n, int k, const char *label)
{
    const char *root = NULL;
    for (size_t i = 0; i + 4 <= n && !root; i++)
        if (!memcmp(s + i, "<svg", 4)) root = s + i;
    if (!root) return -1;
    for (size_t i = 0; i + 7 <= n; i++)   /* gnuplot's standalone SVG has none of these */
        if ((s[i] == '<' && (!strncmp(s + i, "<script", 7) ||
                             (i + 14 <= n && !strncmp(s + i, "<foreignObject", 14)))) ||
            (s[i] == 'j' && i + 11 <= n && !strncmp(s + i, "javascript:", 11)))
            return -1;
    const char *e = s + n;
    fprintf(f, "<svg class=\"chart\" role=\"img\" aria-label=\"");
    escz(f, label);
    fputc('"', f);
    char pre[16];
    int pl = snprintf(pre, sizeof pre, "c%d-", k);
    const char *run = root + 4;   /* written up to here */
    for (const char *p = root + 4; p < e;) {
        size_t left = (size_t)(e - p), take = 0;
        if (left > 4 && (p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n') && !memcmp(p, "id=", 3) &&
            (p[3] == '\'' || p[3] == '"'))
            take = 4;
        else if (left > 6 && !memcmp(p, "href=", 5) && (p[5] == '\'' || p[5] == '"') && p + 6 < e && p[6] == '#')
            take = 7;
        else if (left > 5 && !memcmp(p, "url(#", 5))
            take = 5;
        if (!take) {
            p++;
            continue;
        }
        fwrite(run, 1, (size_t)(p + take - run), f);   /* the text before, and the attribute */
        fwrite(pre, 1, (size_t)pl, f);
        p += take;
        run = p;
    }
    fwrite(run, 1, (size_t)(e - run), f);
    fputc('\n', f);
    return 0;
}

/* One image line "![alt](charts/STEM.png)": a figure with charts/STEM.svg inline, or a visible
 * "missing" note; cap[0..capn): the line of links under it in report.md (its caption here). */
static void figure_html(FILE *f, const char *dir, const char *s, size_t n, const char *cap, size_t capn,
                        int *nchart)
{
    const char *lp = memchr(s, '(', n), *rp = lp ? memchr(lp, ')', n - (size_t)(lp - s)) : NULL;
    const char *ab = memchr(s, ']', n);
    if (!lp || !rp || !ab || ab < s + 2) { fputs("<p>", f); inl(f, s, n); fputs("</p>\n", f); return; }
    char url[1024], path[2048];
    snprintf(url, sizeof url, "%.*s", (int)(rp - lp - 1), lp + 1);
    char alt[512];
    snprintf(alt, sizeof alt, "%.*s", (int)(ab - s - 2), s + 2);
    size_t ul = strlen(url);
    fputs("<figure>\n", f);
    int ok = 0;
    if (ul > 4 && !strcmp(url + ul - 4, ".png") && !strncmp(url, "charts/", 7) && !strstr(url, "..")) {
        snprintf(path, sizeof path, "%s/%.*s.svg", dir, (int)(ul - 4), url);
        size_t len = 0;
        char *svg = read_all(path, HTML_SVG_MAX, &len);
        if (svg) {
            ok = svg_inline(f, svg, len, ++*nchart, alt) == 0;
            free(svg);
        }
    }
    if (!ok) {
        fputs("<p class=\"missing\">chart <code>", f);
        escz(f, alt);
        fputs("</code>: its SVG (beside the PNG in charts/) is missing, unreadable or not inlinable</p>\n", f);
    }
    fputs("<figcaption>", f);
    escz(f, alt);
    if (capn) {
        fputs(" &mdash; ", f);
        inl(f, cap, capn);
    }
    fputs("</figcaption>\n</figure>\n", f);
}

/* ---- provenance: meta.json as a table, the machine, commit, build and command first ---------- */
static const char *jstr(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) && v->valuestring[0] ? v->valuestring : "?";
}

static void json_value(FILE *f, const cJSON *v, const char *key, const sl_report_ctx *R)
{
    if (cJSON_IsString(v)) {
        if (v->valuestring[0]) escz(f, v->valuestring);
        else fputs("(empty)", f);
    } else if (cJSON_IsBool(v)) {
        fputs(cJSON_IsTrue(v) ? "true" : "false", f);
    } else if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        if (!strcmp(key, "seed")) escz(f, R->seed);          /* run.conf's exact digits */
        else if (d == floor(d) && fabs(d) <= 9007199254740992.0) fprintf(f, "%.0f", d);
        else fprintf(f, "%.17g", d);
    } else if (cJSON_IsNull(v)) {
        fputs("null", f);
    } else {
        char *txt = cJSON_PrintUnformatted(v);
        if (txt) { escz(f, txt); free(txt); }
    }
}

static void json_rows(FILE *f, const cJSON *o, const char *prefix, const sl_report_ctx *R)
{
    for (const cJSON *v = o ? o->child : NULL; v; v = v->next) {
        char key[256];
        snprintf(key, sizeof key, "%s%s", prefix, v->string ? v->string : "?");
        if (cJSON_IsObject(v)) {
            char p[260];
            snprintf(p, sizeof p, "%s.", key);
            json_rows(f, v, !strcmp(key, "provenance") ? "" : p, R);
            continue;
        }
        fputs("<tr><td><code>", f);
        escz(f, key);
        fputs("</code></td><td>", f);
        json_value(f, v, v->string ? v->string : "", R);
        fputs("</td></tr>\n", f);
    }
}

static void provenance_html(FILE *f, const sl_report_ctx *R)
{
    fputs("<h2 id=\"provenance\">Provenance (meta.json)</h2>\n", f);
    char path[SL_DIR_MAX + 64];
    size_t len = 0;
    char *txt = NULL;
    if (!sl_path_join(path, sizeof path, R->dir, "meta.json", NULL)) txt = read_all(path, 1 << 20, &len);
    cJSON *j = NULL;
    if (txt) {
        char *z = realloc(txt, len + 1);
        if (z) { txt = z; txt[len] = '\0'; j = cJSON_Parse(txt); }
        free(txt);
    }
    if (!j) {
        fputs("<p class=\"missing\">meta.json is missing or is no JSON: no provenance for this run.</p>\n", f);
        return;
    }
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(j, "provenance");
    const char *gpu = jstr(p, "gpu_name");
    fputs("<ul class=\"prov\">\n<li>machine: <strong>", f);
    escz(f, jstr(p, "hostname"));
    fputs("</strong>", f);
    if (strcmp(gpu, "?")) { fputs(", GPU ", f); escz(f, gpu); }
    fputs("</li>\n<li>commit: <code>", f);
    escz(f, jstr(p, "git_sha"));
    fputs("</code> (tree dirty: ", f);
    escz(f, jstr(p, "git_dirty"));
    fputs(")</li>\n<li>build: sumlab ", f);
    escz(f, jstr(p, "sumlab_version"));
    fputs(", C compiler ", f);
    escz(f, jstr(p, "c_compiler"));
    fputs(", CUDA compiler ", f);
    escz(f, jstr(p, "cuda_compiler"));
    fputs(", MPFR ", f);
    escz(f, jstr(p, "mpfr_version"));
    fputs(", GMP ", f);
    escz(f, jstr(p, "gmp_version"));
    fputs("</li>\n<li>command: <code>", f);
    escz(f, jstr(p, "argv"));
    fputs("</code></li>\n</ul>\n<details><summary>every key of meta.json</summary>\n"
          "<div class=\"tw\"><table class=\"sortable\" id=\"meta\">\n"
          "<thead><tr><th>key</th><th>value</th></tr></thead>\n<tbody>\n", f);
    json_rows(f, j, "", R);
    fputs("</tbody></table></div>\n</details>\n", f);
    cJSON_Delete(j);
}

/* ---- the page ------------------------------------------------------------------------------ */
static const char css[] =
    "body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1500px;padding:0 1.2em 3em;color:#222}"
    "nav{position:sticky;top:0;background:#f7f7f7;border-bottom:1px solid #ccc;padding:.4em .6em;"
    "margin:0 -1.2em;font-size:13px;z-index:2}nav a{margin-right:1em;white-space:nowrap}"
    "h1{font-size:1.6em}h2{margin-top:1.8em;border-bottom:1px solid #ddd}h3{margin-top:1.4em}"
    "code{background:#f2f2f2;padding:0 .2em;border-radius:3px}"
    ".tw{overflow-x:auto;margin:.6em 0}table{border-collapse:collapse;font-size:13px}"
    "th,td{border:1px solid #ccc;padding:.2em .5em;vertical-align:top}td.num{text-align:right;"
    "font-variant-numeric:tabular-nums;white-space:nowrap}thead th{background:#eef;cursor:pointer;"
    "user-select:none}th[aria-sort=ascending]::after{content:\" \\25B2\"}"
    "th[aria-sort=descending]::after{content:\" \\25BC\"}tbody tr:nth-child(even){background:#fafafa}"
    "td.pass{background:#e6f4e6}td.fail{background:#fbe3e3}"
    "figure{margin:1em 0;border:1px solid #eee;padding:.4em}svg.chart{width:100%;height:auto;display:block}"
    "figcaption{font-size:12px;color:#555}.missing{color:#a00;font-weight:bold}";

/* Sorts a table by the clicked header: numbers (leading figure of the cell: 1.2e-3, 2.50x, inf)
 * before text, "-" and empty cells last; a second click reverses; ties keep their order. */
static const char js[] =
    "(function(){\n"
    "function key(td){var s=td.textContent.trim();\n"
    " var m=/^[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:e[-+]?\\d+)?(?:x\\b|(?![\\w.]))/i.exec(s);\n"
    " if(m)return[0,parseFloat(m[0])];if(/^inf\\b/.test(s))return[0,Infinity];\n"
    " if(/^-inf\\b/.test(s))return[0,-Infinity];if(s===''||s==='-')return[2,0];return[1,s.toLowerCase()];}\n"
    "function sortBy(th){var tr=th.parentNode,tb=th.closest('table').tBodies[0],col=Array.prototype.indexOf.call(tr.children,th);\n"
    " var dir=th.getAttribute('aria-sort')==='ascending'?-1:1;\n"
    " Array.prototype.forEach.call(tr.children,function(h){h.removeAttribute('aria-sort');});\n"
    " th.setAttribute('aria-sort',dir>0?'ascending':'descending');\n"
    " var rows=Array.prototype.map.call(tb.rows,function(r,i){var c=r.cells[col];return{r:r,i:i,k:c?key(c):[2,0]};});\n"
    " rows.sort(function(a,b){if(a.k[0]!==b.k[0])return a.k[0]===2||b.k[0]===2?a.k[0]-b.k[0]:dir*(a.k[0]-b.k[0]);\n"
    "  if(a.k[0]!==2&&a.k[1]!==b.k[1])return dir*(a.k[1]<b.k[1]?-1:1);return a.i-b.i;});\n"
    " rows.forEach(function(x){tb.appendChild(x.r);});}\n"
    "document.querySelectorAll('table.sortable thead th').forEach(function(th){\n"
    " th.title='click to sort';th.addEventListener('click',function(){sortBy(th);});});\n"
    "})();\n";

/* Heading text of line [s, s+n) after its #s, as plain escaped text (for <title> and nav). */
static void plain(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != '`' && s[i] != '*') esc(f, s + i, 1);
}

static int starts(const char *s, size_t n, const char *p)
{
    size_t k = strlen(p);
    return n >= k && !memcmp(s, p, k);
}

/* The body: every block of md, and the provenance before the first "## ". Collects the h2s. */
static void body_html(FILE *f, FILE *nav, const sl_report_ctx *R, const char *md, size_t len)
{
    size_t nlines = 1;
    for (size_t i = 0; i < len; i++) nlines += md[i] == '\n';
    size_t *ls = malloc(nlines * sizeof *ls), *le = malloc(nlines * sizeof *le);
    if (!ls || !le) { free(ls); free(le); fputs("<p class=\"missing\">out of memory</p>", f); return; }
    size_t nl = 0;
    for (size_t i = 0; i <= len && nl < nlines;) {
        size_t j = i;
        while (j < len && md[j] != '\n') j++;
        ls[nl] = i;
        le[nl] = j;
        nl++;
        i = j + 1;
    }
    int prov_done = 0, nchart = 0, nsec = 0;
    for (size_t l = 0; l < nl;) {
        const char *s = md + ls[l];
        size_t n = le[l] - ls[l];
        if (!n) { l++; continue; }
        if (starts(s, n, "## ") && !prov_done) {
            provenance_html(f, R);
            fputs("<a href=\"#provenance\">Provenance</a>\n", nav);
            prov_done = 1;
        }
        if (s[0] == '#') {
            int lev = 0;
            while (lev < (int)n && s[lev] == '#') lev++;
            if (lev > 6 || lev >= (int)n || s[lev] != ' ') lev = 0;
            if (lev) {
                const char *h = s + lev + 1;
                size_t hn = n - (size_t)lev - 1;
                if (lev == 2) {
                    fprintf(f, "<h2 id=\"s%d\">", ++nsec);
                    fprintf(nav, "<a href=\"#s%d\">", nsec);
                    plain(nav, h, hn);
                    fputs("</a>\n", nav);
                } else {
                    fprintf(f, "<h%d>", lev);
                }
                inl(f, h, hn);
                fprintf(f, "</h%d>\n", lev);
                l++;
                continue;
            }
        }
        if (s[0] == '|') {
            size_t a = l;
            while (l < nl && le[l] > ls[l] && md[ls[l]] == '|') l++;
            table_html(f, md, ls + a, le + a, l - a);
            continue;
        }
        if (starts(s, n, "- ")) {
            fputs("<ul>\n", f);
            for (; l < nl && starts(md + ls[l], le[l] - ls[l], "- "); l++) {
                fputs("<li>", f);
                inl(f, md + ls[l] + 2, le[l] - ls[l] - 2);
                fputs("</li>\n", f);
            }
            fputs("</ul>\n", f);
            continue;
        }
        if (starts(s, n, "![")) {
            l++;
            const char *cap = NULL;
            size_t capn = 0;
            if (l < nl && starts(md + ls[l], le[l] - ls[l], "[PNG](")) {
                cap = md + ls[l];
                capn = le[l] - ls[l];
                l++;
            }
            figure_html(f, R->dir, s, n, cap, capn, &nchart);
            continue;
        }
        /* a paragraph: the lines up to a blank line or another block */
        size_t a = l;
        l++;
        while (l < nl && le[l] > ls[l] && !strchr("#|", md[ls[l]]) && !starts(md + ls[l], le[l] - ls[l], "- ") &&
               !starts(md + ls[l], le[l] - ls[l], "!["))
            l++;
        fputs("<p>", f);
        inl(f, md + ls[a], le[l - 1] - ls[a]);
        fputs("</p>\n", f);
    }
    if (!prov_done) {
        provenance_html(f, R);
        fputs("<a href=\"#provenance\">Provenance</a>\n", nav);
    }
    free(ls);
    free(le);
}

int sl_report_html_write(const sl_report_ctx *R, const char *md, size_t len, sl_err *err)
{
    char *body = NULL, *navt = NULL, *page = NULL;
    size_t bl = 0, nvl = 0, pl = 0;
    FILE *b = open_memstream(&body, &bl), *nav = open_memstream(&navt, &nvl);
    FILE *f = open_memstream(&page, &pl);
    if (!b || !nav || !f) {
        if (b) fclose(b);
        if (nav) fclose(nav);
        if (f) fclose(f);
        free(body); free(navt); free(page);
        return sl_err_set(err, "cannot compose report.html: %s", strerror(errno));
    }
    body_html(b, nav, R, md, len);
    int bad = ferror(b) || ferror(nav);
    bad |= fclose(b) != 0;
    bad |= fclose(nav) != 0;
    const char *h1 = md;
    size_t h1n = 0;
    if (starts(md, len, "# ")) { h1 = md + 2; while (h1 + h1n < md + len && h1[h1n] != '\n') h1n++; }
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", f);
    if (h1n) plain(f, h1, h1n);
    else fputs("sumlab report", f);
    fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<nav>", css);
    if (!bad) fwrite(navt, 1, nvl, f);
    fputs("</nav>\n", f);
    if (!bad) fwrite(body, 1, bl, f);
    fprintf(f, "<script>\n%s</script>\n</body>\n</html>\n", js);
    free(body);
    free(navt);
    bad |= ferror(f) != 0;
    bad |= fclose(f) != 0;
    if (bad) {
        free(page);
        return sl_err_set(err, "cannot compose report.html: out of memory");
    }
    char path[SL_DIR_MAX + 64];
    int rc = sl_path_join(path, sizeof path, R->dir, "report.html", err) ? -1
             : sl_write_atomic(path, page, pl, err);
    free(page);
    return rc;
}
