/* tformat_escape.c: the table writers' escaping (results/format.c): CSV text cells that a
 * spreadsheet would read as a formula (= + - @ TAB CR first) get a leading ', numbers (-1.5,
 * -0x1.8p+3, -inf) stay as they are; JSON refuses a table with text that is no UTF-8 (writing
 * nothing) and keeps valid UTF-8 as it is. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include "sl_format.h"
#include "sl_test.h"

/* The CSV (or JSON) text of a one-column table of the given text cells; NULL when the writer
 * failed (*rc its return). */
static char *write_table(const char *const *cells, size_t n, sl_out_format fmt, int *rc)
{
    static const char *const hdr[] = {"name"};
    sl_table *t = sl_table_new(1, hdr);
    for (size_t i = 0; i < n; i++) {
        sl_table_row(t);
        sl_table_str(t, cells[i]);
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    *rc = sl_table_write(t, fmt, f);
    fclose(f);
    sl_table_free(t);
    return buf;
}

int main(void)
{
    static const struct { const char *in, *out; } csv[] = {
        {"=HYPERLINK(1)", "'=HYPERLINK(1)"},
        {"@SUM(A1)", "'@SUM(A1)"},
        {"+x", "'+x"},
        {"-x", "'-x"},
        {"-", "'-"},
        {"+", "'+"},
        {"\tx", "'\tx"},
        {"=1,2", "\"'=1,2\""},
        {"-1.5", "-1.5"},
        {"-0x1.8p+3", "-0x1.8p+3"},
        {"+2e-5", "+2e-5"},
        {"-inf", "-inf"},
        {"-0x00000000000000ff", "-0x00000000000000ff"},
        {"serial", "serial"},
        {"a=b", "a=b"},
    };
    for (size_t i = 0; i < sizeof csv / sizeof *csv; i++) {
        int rc;
        char *out = write_table(&csv[i].in, 1, SL_OUT_CSV, &rc);
        char want[64];
        snprintf(want, sizeof want, "name\n%s\n", csv[i].out);
        CHECK(rc == 0 && out && !strcmp(out, want), "csv of '%s': got '%s', want '%s'", csv[i].in, out ? out : "(null)", want);
        free(out);
    }
    /* JSON: valid UTF-8 as it is; \xff\xfe (and an overlong '/', a lone continuation byte, a
     * cut-short sequence, a surrogate) refused with nothing written */
    {
        const char *ok[] = {"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"};
        int rc;
        char *out = write_table(ok, 1, SL_OUT_JSON, &rc);
        CHECK(rc == 0 && out && strstr(out, "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\""), "valid UTF-8 in JSON: %s", out ? out : "(null)");
        free(out);
    }
    static const char *const bad[] = {"\xff\xfe", "a\xc0\xaf", "\x80", "x\xe2\x82", "\xed\xa0\x80"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *cells[] = {"fine", bad[i]};
        int rc;
        char *out = write_table(cells, 2, SL_OUT_JSON, &rc);
        CHECK(rc != 0 && out && !*out, "invalid UTF-8 %zu: rc %d, wrote '%s'", i, rc, out ? out : "(null)");
        free(out);
    }
    /* the string primitive alone never emits invalid JSON: U+FFFD for a stray byte */
    {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        sl_json_string(f, "a\xff" "b");
        fclose(f);
        CHECK(buf && !strcmp(buf, "\"a\\ufffdb\""), "sl_json_string: %s", buf ? buf : "(null)");
        free(buf);
    }
    return sl_test_done("tformat_escape");
}
