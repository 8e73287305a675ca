/* html.c: DIR/report.html, one page made from report.md's own Markdown text
 * (rendered by cmark-gfm with GFM tables, raw HTML and unsafe links dropped), every chart's SVG
 * (inline when this process rendered it and it passes an allow-list, else an <img> of a data:
 * URL; past HTML_INLINE_BUDGET of SVG per page, an <img> linking charts/STEM.svg relative to the
 * page, so a study of many charts stays a few MB and works wherever its run directory is
 * copied), sortable tables (a small inline script), meta.json's provenance; every string escaped.
 * Without cmark-gfm (SUMLAB_HAVE_CMARK unset) there is no report.html, said on stderr. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef SUMLAB_HAVE_CMARK
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#endif
#include "charts.h"
#include "check.h"
#include "html.h"

#define HTML_SVG_MAX (64u << 20)   /* a chart larger than this is not inlined (said on the page) */
/* SVG bytes a page embeds (inline, or as data: URLs counted at their base64 size); the charts
 * past it are linked (charts/STEM.svg). The full study's 67 charts are ~9.7 MB of SVG: all
 * embedded, its page was 7.4 MB; with 1.5 MB embedded it stays under 3 MB. */
#define HTML_INLINE_BUDGET ((size_t)3 << 19)

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

/* ---- charts: the SVG beside each PNG ------------------------------------------------------------ */
/* The elements and attributes that gnuplot's svg terminal writes (and a few more of the same
 * kind, none active): an SVG holding anything else is not inlined. */
static const char *const svg_elements[] = {
    "svg", "g", "path", "text", "tspan", "rect", "line", "polyline", "polygon", "circle", "ellipse",
    "defs", "use", "title", "desc", "clipPath", "filter", "feFlood", "feComposite", "feOffset",
    "feGaussianBlur", "feMerge", "feMergeNode", "feBlend", "linearGradient", "radialGradient", "stop",
    "marker", "symbol", "pattern"};
static const char *const svg_attributes[] = {
    "id", "class", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "dx", "dy", "d",
    "width", "height", "viewBox", "points", "transform", "fill", "fill-opacity", "fill-rule", "stroke",
    "stroke-width", "stroke-opacity", "stroke-dasharray", "stroke-dashoffset", "stroke-linecap",
    "stroke-linejoin", "stroke-miterlimit", "color", "opacity", "font-family", "font-size",
    "font-weight", "font-style", "text-anchor", "dominant-baseline", "xml:space", "xmlns",
    "xmlns:xlink", "version", "xlink:href", "href", "clip-path", "clipPathUnits", "filter",
    "filterUnits", "flood-color", "flood-opacity", "in", "in2", "operator", "result", "k1", "k2", "k3",
    "k4", "stdDeviation", "mode", "offset", "stop-color", "stop-opacity", "gradientUnits",
    "gradientTransform", "patternUnits", "preserveAspectRatio", "visibility", "display",
    "textLength", "lengthAdjust", "rotate", "baseline-shift", "letter-spacing", "word-spacing",
    "markerWidth", "markerHeight", "refX", "refY", "orient", "markerUnits", "vector-effect",
    "shape-rendering", "text-rendering", "style"};

static int in_set(const char *s, size_t n, const char *const *set, size_t m)
{
    for (size_t i = 0; i < m; i++)
        if (strlen(set[i]) == n && !memcmp(set[i], s, n)) return 1;
    return 0;
}

static int ci_find(const char *s, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++) {
        size_t j = 0;
        while (j < k && (s[i + j] | 0x20) == (needle[j] | 0x20)) j++;
        if (j == k) return 1;
    }
    return 0;
}

/* An attribute value the page may carry: no character reference but the five named ones (so no
 * hidden "javascript&#58;"), no javascript: or any url() but url(#id); href only "#id". */
static int svg_value_ok(const char *an, size_t anl, const char *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (v[i] == '<') return 0;
        if (v[i] == '&') {
            static const char *const ok[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
            int good = 0;
            for (size_t q = 0; q < 5 && !good; q++) good = !strncmp(v + i, ok[q], strlen(ok[q])) && i + strlen(ok[q]) <= n;
            if (!good) return 0;
        }
    }
    if (ci_find(v, n, "javascript") || ci_find(v, n, "script:") || ci_find(v, n, "expression(") ||
        ci_find(v, n, "@import"))
        return 0;
    for (size_t i = 0; i + 4 <= n; i++)
        if ((v[i] | 0x20) == 'u' && !strncasecmp(v + i, "url(", 4) && (i + 4 >= n || v[i + 4] != '#')) return 0;
    if ((anl == 4 && !memcmp(an, "href", 4)) || (anl == 10 && !memcmp(an, "xlink:href", 10)))
    {
        if (n < 2 || n > 65 || v[0] != '#') return 0;
        char id[66];
        memcpy(id, v + 1, n - 1);
        id[n - 1] = '\0';
        return sl_check_name(id, 64, NULL) && !strchr(id, ':');
    }
    return 1;
}

/* 1 when s[0..n) is an SVG the page may inline: from its <svg root to its end only elements and
 * attributes of the allow-lists, quoted attribute values that pass svg_value_ok, no comment,
 * CDATA, processing instruction or doctype, tags balanced, nothing but blanks after the root. */
int sl_html_svg_allowed(const char *s, size_t n, const char **root_out)
{
    const char *p = NULL;
    for (size_t i = 0; i + 4 <= n && !p; i++)
        if (!memcmp(s + i, "<svg", 4)) p = s + i;
    if (!p) return 0;
    for (const char *q = s; q < p; q++)   /* before the root: the XML declaration, blanks */
        if (*q == '<' && (q + 5 > p || memcmp(q, "<?xml", 5))) return 0;
    *root_out = p;
    const char *e = s + n;
    const char *stack[256];
    size_t stackl[256];
    int depth = 0, done = 0;
    while (p < e) {
        if (*p != '<') {
            if (done && *p != ' ' && *p != '\n' && *p != '\r' && *p != '\t') return 0;
            p++;
            continue;
        }
        if (done) return 0;
        p++;
        int closing = p < e && *p == '/';
        if (closing) p++;
        const char *nm = p;
        while (p < e && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))) p++;
        size_t nl = (size_t)(p - nm);
        if (!nl || !in_set(nm, nl, svg_elements, sizeof svg_elements / sizeof *svg_elements)) return 0;
        if (closing) {
            while (p < e && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')) p++;
            if (p >= e || *p != '>' || !depth || stackl[depth - 1] != nl || memcmp(stack[depth - 1], nm, nl)) return 0;
            p++;
            if (--depth == 0) done = 1;
            continue;
        }
        if (depth == 0 && (nl != 3 || memcmp(nm, "svg", 3))) return 0;
        for (;;) {   /* attributes */
            const char *ws = p;
            while (p < e && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')) p++;
            if (p >= e) return 0;
            if (*p == '>' || (*p == '/' && p + 1 < e && p[1] == '>')) break;
            if (p == ws) return 0;                 /* attributes are separated by blanks */
            const char *an = p;
            while (p < e && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                             *p == '-' || *p == ':' || *p == '_'))
                p++;
            size_t anl = (size_t)(p - an);
            if (!anl || !in_set(an, anl, svg_attributes, sizeof svg_attributes / sizeof *svg_attributes)) return 0;
            while (p < e && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')) p++;
            if (p >= e || *p != '=') return 0;
            p++;
            while (p < e && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')) p++;
            if (p >= e || (*p != '"' && *p != '\'')) return 0;
            const char qt = *p++;
            const char *v = p;
            while (p < e && *p != qt) p++;
            if (p >= e || !svg_value_ok(an, anl, v, (size_t)(p - v))) return 0;
            p++;
        }
        if (*p == '/') { p += 2; if (depth == 0) done = 1; continue; }
        p++;
        if (depth == 256) return 0;
        stack[depth] = nm;
        stackl[depth++] = nl;
    }
    return done;
}

/* Shared group styles: gnuplot wraps every stroke in <g fill=".." color=".." stroke=".."
 * stroke-width=".." stroke-linecap=".." stroke-linejoin="..">, half of a chart's bytes; the page
 * writes each distinct set once, as a CSS class (.sgN) in a <style> after the charts, and the
 * groups as <g class="sgN">. Values: letters, digits and ( ) , . # - and spaces only. */
#define SG_MAX 512
#define SG_LEN 160
static char sg_set[SG_MAX][SG_LEN];
static int sg_n;
static const char *const sg_attrs[] = {"fill", "color", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin"};

/* p at "<g fill=": the length of the whole start tag when it is exactly gnuplot's group with
 * safe values (vals: the six values, '\0'-separated, into out[SG_LEN]), else 0. */
static size_t sg_match(const char *p, const char *e, char *out)
{
    const char *q = p + 3;   /* after "<g " */
    size_t o = 0;
    for (size_t a = 0; a < 6; a++) {
        size_t al = strlen(sg_attrs[a]);
        if (a && (q >= e || *q++ != ' ')) return 0;
        if ((size_t)(e - q) < al + 2 || memcmp(q, sg_attrs[a], al) || q[al] != '=' || q[al + 1] != '"') return 0;
        q += al + 2;
        const char *v = q;
        while (q < e && *q != '"') {
            char c = *q;
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("(),.# -", c)))
                return 0;
            q++;
        }
        if (q >= e || q - v == 0 || o + (size_t)(q - v) + 1 >= SG_LEN) return 0;
        memcpy(out + o, v, (size_t)(q - v));
        o += (size_t)(q - v);
        out[o++] = '\0';
        q++;
    }
    if (q >= e || *q != '>') return 0;
    memset(out + o, 0, SG_LEN - o);
    return (size_t)(q + 1 - p);
}

/* The CSS of the shared group styles (after the charts). */
static void sg_css(FILE *f)
{
    if (!sg_n) return;
    fputs("<style>", f);
    for (int i = 0; i < sg_n; i++) {
        const char *v = sg_set[i];
        fprintf(f, ".sg%d{", i);
        for (size_t a = 0; a < 6; a++) {
            fprintf(f, "%s:%s%s;", sg_attrs[a], v, a == 3 ? "px" : "");
            v += strlen(v) + 1;
        }
        fputc('}', f);
    }
    fputs("</style>\n", f);
}

/* Writes the SVG from root (an allowed SVG's <svg element) to e, every id / #ref / url(#ref)
 * prefixed with "cK-" (one page holds many gnuplot charts, which all name their points
 * gpPt0...), gnuplot's group attributes as shared classes (sg_match). */
static void svg_inline(FILE *f, const char *root, const char *e, int k, const char *label)
{
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
        else if (left > 9 && !memcmp(p, "<g fill=\"", 9)) {
            char vals[SG_LEN];
            size_t tl = sg_match(p, e, vals);
            int idx = -1;
            for (int i = 0; tl && i < sg_n && idx < 0; i++)
                if (!memcmp(sg_set[i], vals, SG_LEN)) idx = i;
            if (tl && idx < 0 && sg_n < SG_MAX) { memcpy(sg_set[sg_n], vals, SG_LEN); idx = sg_n++; }
            if (tl) {   /* an empty group (gnuplot writes one per style change) is left out */
                const char *q = p + tl;
                while (q < e && (*q == ' ' || *q == '\n' || *q == '\t' || *q == '\r')) q++;
                if ((size_t)(e - q) >= 4 && !memcmp(q, "</g>", 4)) {
                    fwrite(run, 1, (size_t)(p - run), f);
                    p = q + 4;
                    run = p;
                    continue;
                }
            }
            if (tl && idx >= 0) {
                fwrite(run, 1, (size_t)(p - run), f);
                fprintf(f, "<g class=\"sg%d\">", idx);
                p += tl;
                run = p;
                continue;
            }
        }
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
}

/* The SVG as an image (runs no script, whatever it holds): <img src="data:image/svg+xml;base64,...">. */
static void svg_img(FILE *f, const char *s, size_t n, const char *label)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    fputs("<img class=\"chart\" alt=\"", f);
    escz(f, label);
    fputs("\" src=\"data:image/svg+xml;base64,", f);
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned char)s[i] << 16;
        if (i + 1 < n) v |= (unsigned char)s[i + 1] << 8;
        if (i + 2 < n) v |= (unsigned char)s[i + 2];
        char o[4] = {b64[v >> 18 & 63], b64[v >> 12 & 63], i + 1 < n ? b64[v >> 6 & 63] : '=', i + 2 < n ? b64[v & 63] : '='};
        fwrite(o, 1, 4, f);
    }
    fputs("\">\n", f);
}

/* Chart STEM (a checked name): charts/STEM.svg inline when this process rendered it and it passes
 * the allow-list, else as an <img> of a data: URL, while the page's embedded SVG (*embedded
 * bytes) stays within HTML_INLINE_BUDGET; past it, an <img> linking the file (a regular file, no
 * link followed; an image runs no script, whatever it holds). A visible note when there is none. */
static void chart_svg(FILE *f, const char *dir, const char *stem, const char *label, int *nchart, size_t *embedded)
{
    char path[SL_DIR_MAX + 400];
    snprintf(path, sizeof path, "%s/charts/%s.svg", dir, stem);
    struct stat st;
    if (lstat(path, &st) || !S_ISREG(st.st_mode)) {
        fputs("<p class=\"missing\">chart <code>", f);
        escz(f, stem);
        fputs("</code>: its SVG (beside the PNG in charts/) is missing or unreadable</p>\n", f);
        return;
    }
    char name[300];
    snprintf(name, sizeof name, "%s.svg", stem);
    const int here = sl_charts_rendered_here(dir, name);
    const size_t cost = here ? (size_t)st.st_size : (size_t)st.st_size / 3 * 4 + 4;
    if ((size_t)st.st_size > HTML_SVG_MAX || *embedded + cost > HTML_INLINE_BUDGET) {
        /* a relative link inside the run directory: the name is checked (letters, digits, ._:=+-
         * after "charts/", nothing a URL reads otherwise) */
        fputs("<img class=\"chart\" alt=\"", f);
        escz(f, label);
        fputs("\" src=\"charts/", f);
        escz(f, name);
        fputs("\">\n", f);
        return;
    }
    size_t len = 0;
    char *svg = read_all(path, HTML_SVG_MAX, &len);
    if (!svg) {
        fputs("<p class=\"missing\">chart <code>", f);
        escz(f, stem);
        fputs("</code>: its SVG (beside the PNG in charts/) is missing or unreadable</p>\n", f);
        return;
    }
    const char *root = NULL;
    if (here && sl_html_svg_allowed(svg, len, &root)) {
        svg_inline(f, root, svg + len, ++*nchart, label);
        *embedded += len;
    } else {
        svg_img(f, svg, len, label);
        *embedded += (len + 2) / 3 * 4;
    }
    free(svg);
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
    "figure{margin:1em 0;border:1px solid #eee;padding:.4em}svg.chart,img.chart{width:100%;height:auto;display:block}"
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

/* ---- the body: report.md rendered by cmark-gfm (CommonMark, GFM tables) ----------------------- */
#ifdef SUMLAB_HAVE_CMARK
/* Raw HTML is dropped (no CMARK_OPT_UNSAFE): "<!-- raw HTML omitted -->"; cmark also empties
 * javascript:, vbscript:, file: and data: links. */
#define MD_OPTS CMARK_OPT_DEFAULT

/* A link target the page may carry: http(s), or a relative path (no scheme, not "//host", no
 * backslash, blank or control character, which browsers strip or turn into '/'). */
static int safe_url(const char *u)
{
    if (!strncasecmp(u, "http://", 7) || !strncasecmp(u, "https://", 8)) {
        for (const unsigned char *p = (const unsigned char *)u; *p; p++)
            if (*p <= 0x20 || *p == 0x7f || *p == '\\') return 0;
        return 1;
    }
    if (!*u || (u[0] == '/' && u[1] == '/')) return 0;
    for (const unsigned char *p = (const unsigned char *)u; *p; p++)
        if (*p <= 0x20 || *p == 0x7f || *p == '\\') return 0;
    for (const char *p = u; *p; p++) {
        if (*p == ':') return 0;
        if (*p == '/' || *p == '?' || *p == '#') return 1;
    }
    return 1;
}

/* Every link and image whose target is not safe_url becomes its text. */
static void drop_unsafe_links(cmark_node *doc)
{
    cmark_node *bad[4096];
    size_t nb = 0;
    cmark_iter *it = cmark_iter_new(doc);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *n = cmark_iter_get_node(it);
        const cmark_node_type ty = cmark_node_get_type(n);
        if (ev != CMARK_EVENT_ENTER || (ty != CMARK_NODE_LINK && ty != CMARK_NODE_IMAGE)) continue;
        const char *u = cmark_node_get_url(n);
        if (!safe_url(u ? u : "") && nb < sizeof bad / sizeof *bad) bad[nb++] = n;
    }
    cmark_iter_free(it);
    for (size_t i = nb; i-- > 0;) {   /* innermost first */
        cmark_node *c;
        while ((c = cmark_node_first_child(bad[i]))) cmark_node_insert_before(bad[i], c);
        cmark_node_free(bad[i]);
    }
}

static void render_node(FILE *f, cmark_node *n, cmark_llist *ext)
{
    char *h = cmark_render_html(n, MD_OPTS, ext);
    if (h) { fputs(h, f); free(h); }
}
/* The children of n (its inline content) as HTML. */
static void render_children(FILE *f, cmark_node *n, cmark_llist *ext)
{
    for (cmark_node *c = cmark_node_first_child(n); c; c = cmark_node_next(c)) render_node(f, c, ext);
}
/* The text of n's inline content (text and code spans), whole, in a malloc'ed string (NULL when
 * memory runs out; the callers read it as ""). */
static char *node_text(cmark_node *n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    cmark_iter *it = cmark_iter_new(n);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *c = cmark_iter_get_node(it);
        const cmark_node_type ty = cmark_node_get_type(c);
        if (ev != CMARK_EVENT_ENTER) continue;
        const char *lit = ty == CMARK_NODE_TEXT || ty == CMARK_NODE_CODE ? cmark_node_get_literal(c)
                          : ty == CMARK_NODE_SOFTBREAK || ty == CMARK_NODE_LINEBREAK ? " " : NULL;
        if (lit) fputs(lit, f);
    }
    cmark_iter_free(it);
    if (fclose(f)) { free(buf); return NULL; }
    return buf;
}

/* The class of a cell that states a verdict: pass, fail or none. */
static const char *cell_class(const char *s)
{
    if (!strcmp(s, "FAIL")) return "fail";
    if (!strcmp(s, "PASS") || !strcmp(s, "PASS*")) return "pass";
    if (strstr(s, "VIOLATED") || strstr(s, "DIFFERS")) return "fail";
    return NULL;
}

static int is_type(cmark_node *n, const char *t)
{
    const char *s = cmark_node_get_type_string(n);
    return s && !strcmp(s, t);
}

/* A GFM table as a sortable table: right-aligned columns numeric, verdict cells coloured. */
static void table_html(FILE *f, cmark_node *tab, cmark_llist *ext)
{
    const uint16_t nc = cmark_gfm_extensions_get_table_columns(tab);
    const uint8_t *al = cmark_gfm_extensions_get_table_alignments(tab);
    fputs("<div class=\"tw\"><table class=\"sortable\">\n", f);
    int body = 0;
    for (cmark_node *row = cmark_node_first_child(tab); row; row = cmark_node_next(row)) {
        const int head = is_type(row, "table_header") || cmark_gfm_extensions_get_table_row_is_header(row);
        if (!head && !is_type(row, "table_row")) continue;
        if (head) fputs("<thead><tr>", f);
        else {
            if (!body) { fputs("<tbody>\n", f); body = 1; }
            fputs("<tr>", f);
        }
        uint16_t k = 0;
        for (cmark_node *cell = cmark_node_first_child(row); cell; cell = cmark_node_next(cell), k++) {
            if (head) {
                fputs("<th>", f);
                render_children(f, cell, ext);
                fputs("</th>", f);
                continue;
            }
            const int num = al && k < nc && al[k] == 'r';
            char *text = node_text(cell);
            const char *cls = cell_class(text ? text : "");
            free(text);
            if (num || cls)
                fprintf(f, "<td class=\"%s%s%s\">", num ? "num" : "", num && cls ? " " : "", cls ? cls : "");
            else
                fputs("<td>", f);
            render_children(f, cell, ext);
            fputs("</td>", f);
        }
        fputs(head ? "</tr></thead>\n" : "</tr>\n", f);
    }
    if (body) fputs("</tbody>", f);
    fputs("</table></div>\n", f);
}

/* A paragraph "![alt](charts/STEM.png)" + the line of links under it: a figure with the chart's
 * SVG and the links as its caption. 1 when p was one. */
static int figure_html(FILE *f, const char *dir, cmark_node *p, cmark_llist *ext, int *nchart, size_t *embedded)
{
    cmark_node *img = cmark_node_first_child(p);
    if (!img || cmark_node_get_type(img) != CMARK_NODE_IMAGE) return 0;
    const char *url = cmark_node_get_url(img);
    size_t ul = url ? strlen(url) : 0;
    char stem[256];
    if (ul <= 11 || ul - 11 >= sizeof stem || strncmp(url, "charts/", 7) || strcmp(url + ul - 4, ".png")) return 0;
    snprintf(stem, sizeof stem, "%.*s", (int)(ul - 11), url + 7);
    if (!sl_check_name(stem, sizeof stem - 1, NULL)) return 0;
    char *alt = node_text(img);
    if (!alt) return 0;
    fputs("<figure>\n", f);
    chart_svg(f, dir, stem, alt, nchart, embedded);
    fputs("<figcaption>", f);
    escz(f, alt);
    cmark_node *c = cmark_node_next(img);
    while (c && (cmark_node_get_type(c) == CMARK_NODE_SOFTBREAK || cmark_node_get_type(c) == CMARK_NODE_LINEBREAK))
        c = cmark_node_next(c);
    if (c) fputs(" &mdash; ", f);
    for (; c; c = cmark_node_next(c)) render_node(f, c, ext);
    fputs("</figcaption>\n</figure>\n", f);
    free(alt);
    return 1;
}

/* The text of a heading, escaped (for <title> and the nav). */
static void heading_text(FILE *f, cmark_node *h)
{
    char *text = node_text(h);
    escz(f, text ? text : "");
    free(text);
}

/* The body: every block of report.md, the provenance before the first h2; h2s into nav. */
static int body_html(FILE *f, FILE *nav, FILE *title, const sl_report_ctx *R, const char *md, size_t len)
{
    cmark_gfm_core_extensions_ensure_registered();
    cmark_parser *ps = cmark_parser_new(MD_OPTS);
    cmark_syntax_extension *tx = cmark_find_syntax_extension("table");
    if (!ps || !tx || !cmark_parser_attach_syntax_extension(ps, tx)) {
        if (ps) cmark_parser_free(ps);
        return -1;
    }
    cmark_parser_feed(ps, md, len);
    cmark_node *doc = cmark_parser_finish(ps);
    cmark_llist *ext = cmark_parser_get_syntax_extensions(ps);
    if (!doc) { cmark_parser_free(ps); return -1; }
    drop_unsafe_links(doc);
    int prov_done = 0, nchart = 0, nsec = 0, h1 = 0;
    size_t embedded = 0;   /* SVG bytes in the page (chart_svg) */
    sg_n = 0;   /* this page's shared group styles */
    for (cmark_node *b = cmark_node_first_child(doc); b; b = cmark_node_next(b)) {
        const cmark_node_type ty = cmark_node_get_type(b);
        const int lev = ty == CMARK_NODE_HEADING ? cmark_node_get_heading_level(b) : 0;
        if (lev == 2 && !prov_done) {
            provenance_html(f, R);
            fputs("<a href=\"#provenance\">Provenance</a>\n", nav);
            prov_done = 1;
        }
        if (lev) {
            if (lev == 1 && !h1) { heading_text(title, b); h1 = 1; }
            if (lev == 2) {
                fprintf(f, "<h2 id=\"s%d\">", ++nsec);
                fprintf(nav, "<a href=\"#s%d\">", nsec);
                heading_text(nav, b);
                fputs("</a>\n", nav);
            } else {
                fprintf(f, "<h%d>", lev);
            }
            render_children(f, b, ext);
            fprintf(f, "</h%d>\n", lev);
        } else if (is_type(b, "table")) {
            table_html(f, b, ext);
        } else if (ty == CMARK_NODE_PARAGRAPH && figure_html(f, R->dir, b, ext, &nchart, &embedded)) {
        } else {
            render_node(f, b, ext);
        }
    }
    if (!prov_done) {
        provenance_html(f, R);
        fputs("<a href=\"#provenance\">Provenance</a>\n", nav);
    }
    cmark_node_free(doc);
    cmark_parser_free(ps);
    return 0;
}
#endif

int sl_report_html_write(const sl_report_ctx *R, const char *md, size_t len, sl_err *err)
{
    char path[SL_DIR_MAX + 64];
    if (sl_path_join(path, sizeof path, R->dir, "report.html", err)) return -1;
#ifndef SUMLAB_HAVE_CMARK
    (void)md;
    (void)len;
    (void)provenance_html;
    (void)chart_svg;
    (void)css;
    (void)js;
    /* no Markdown renderer in this build: report.md only, and no report.html of an earlier
     * report beside it */
    if (unlink(path) && errno != ENOENT) return sl_err_set(err, "cannot remove %s: %s", path, strerror(errno));
    fprintf(stderr, "sumlab: report.html not written: this build has no libcmark-gfm (apt-get install "
                    "libcmark-gfm-dev libcmark-gfm-extensions-dev, then rebuild); report.md is complete\n");
    return 0;
#else
    char *body = NULL, *navt = NULL, *page = NULL, *ttl = NULL;
    size_t bl = 0, nvl = 0, pl = 0, tl = 0;
    FILE *b = open_memstream(&body, &bl), *nav = open_memstream(&navt, &nvl);
    FILE *t = open_memstream(&ttl, &tl), *f = open_memstream(&page, &pl);
    if (!b || !nav || !t || !f) {
        if (b) fclose(b);
        if (nav) fclose(nav);
        if (t) fclose(t);
        if (f) fclose(f);
        free(body); free(navt); free(ttl); free(page);
        return sl_err_set(err, "cannot compose report.html: %s", strerror(errno));
    }
    int bad = body_html(b, nav, t, R, md, len) != 0;
    bad |= ferror(b) || ferror(nav) || ferror(t);
    bad |= fclose(b) != 0;
    bad |= fclose(nav) != 0;
    bad |= fclose(t) != 0;
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", f);
    if (!bad && tl) fwrite(ttl, 1, tl, f);
    else fputs("sumlab report", f);
    fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<nav>", css);
    if (!bad) fwrite(navt, 1, nvl, f);
    fputs("</nav>\n", f);
    if (!bad) fwrite(body, 1, bl, f);
    sg_css(f);
    fprintf(f, "<script>\n%s</script>\n</body>\n</html>\n", js);
    free(body);
    free(navt);
    free(ttl);
    bad |= ferror(f) != 0;
    bad |= fclose(f) != 0;
    if (bad) {
        free(page);
        return sl_err_set(err, "cannot compose report.html: out of memory");
    }
    int rc = sl_write_atomic(path, page, pl, err);
    free(page);
    return rc;
#endif
}
