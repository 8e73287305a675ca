/* tresults.c: the results files without the CLI: a record through the column table and the CSV
 * writer comes back unchanged through the one reader (quoting, empty groups, the note cleaned);
 * the row key; resume keys; run.conf and meta.json (cJSON) written and read back; run_notes.txt
 * written and read back byte for byte, and every file it did not write refused by name. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sl_test.h"
#include "sl_results.h"

static char tmpdir[256];

static const char *cell(const sl_csv *t, size_t r, const char *col)
{
    return sl_csv_get(t, r, sl_csv_col(t, col));
}

/* A judged row, a skipped row (reference only) and an empty one, written and read back. */
static void check_csv_round_trip(void)
{
    const sl_dataset *ds = sl_dataset_find("uniform");
    CHECK(ds != NULL, "dataset uniform in the registry");
    if (!ds) return;
    sl_params p;
    sl_params_defaults(ds, &p);
    sl_rowctx c = {.experiment = "accuracy-vs-n", .ds = ds, .dt = SL_F32, .n = 4096,
                   .config = "default", .sweep = "n", .sweep_value = NAN};
    sl_rowctx_params(&c, ds, &p);

    double results[3] = {1.5, 1.5, 0x1.8p+0 + 0x1p-23};
    sl_row_value values[2] = {{1.5, 2, 0.0}, {0x1.8p+0 + 0x1p-23, 1, -1.0}};
    sl_row ok, skip, none;
    sl_row_empty(&ok, "cpu", SL_F32, 4096);
    ok.have_run = ok.have_cfg = ok.have_exact = ok.judged = 1;
    ok.reps = 3;
    ok.result = 1.5;
    ok.distinct = 2;
    ok.min_result = 1.5;
    ok.max_result = results[2];
    ok.spread_ulps = 1;
    ok.err.abs_err = 0x1p-23;
    ok.err.ulps = 1;
    ok.exact = 1.5 + 0x1p-23;
    ok.cfg.block = 256;
    ok.cfg.grid = 7;
    ok.time_ms_median = 0.25;
    ok.twin_checked = 1;
    ok.twin_match = 0;
    ok.values = values;
    ok.nvalues = 2;
    sl_row_empty(&skip, "cpu", SL_F32, 4096);
    skip.have_exact = 1;
    skip.exact = 2.0;
    skip.cond = 1;
    sl_row_empty(&none, "gpu", SL_F32, 4096);

    char path[512];
    snprintf(path, sizeof path, "%s/r.csv", tmpdir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "open %s", path);
    if (!f) return;
    sl_err err = {{0}};
    sl_record r1 = {.ctx = &c, .variant = "serial", .family = "serial", .det_class = "run-to-run", .status = "ok",
                    .note = "a note, with \"quotes\"\nand a break", .seed = 7, .row = &ok, .instances = 1};
    sl_record r2 = {.ctx = &c, .variant = "kahan", .family = "kahan", .det_class = "run-to-run",
                    .status = "skipped", .note = "does not take f32 input", .seed = 7, .row = &skip, .instances = 1};
    sl_record r3 = {.ctx = &c, .variant = "read-ceiling", .family = "ceiling", .det_class = "", .status = "ok",
                    .seed = 7, .row = &none, .instances = 1};
    CHECK(sl_schema_write_header(f, &sl_results_schema) == 0, "header written");
    CHECK(sl_schema_write_row(f, &sl_results_schema, &r1, 0, &err) == 0, "row 1: %s", err.msg);
    CHECK(sl_schema_write_row(f, &sl_results_schema, &r2, 0, &err) == 0, "row 2: %s", err.msg);
    CHECK(sl_schema_write_row(f, &sl_results_schema, &r3, 0, &err) == 0, "row 3: %s", err.msg);
    CHECK(fclose(f) == 0, "close");

    sl_csv t;
    int truncated = 1;
    CHECK(sl_csv_read(path, &t, &truncated, &err) == 0, "read back: %s", err.msg);
    CHECK(!truncated, "not truncated");
    CHECK(sl_schema_matches(&sl_results_schema, &t), "header = the column table");
    CHECK(t.nrows == 3 && (size_t)t.ncols == sl_results_schema.ncols, "3 rows of %zu columns (got %zu x %d)",
          sl_results_schema.ncols, t.nrows, t.ncols);
    if (t.nrows == 3) {
        CHECK(!strcmp(cell(&t, 0, "params"), c.params), "params '%s'", cell(&t, 0, "params"));
        CHECK(!strcmp(cell(&t, 0, "sweep_value"), "4096"), "sweep_value is n");
        CHECK(!strcmp(cell(&t, 0, "result_hex"), "0x1.8p+0"), "result_hex '%s'", cell(&t, 0, "result_hex"));
        CHECK(!strcmp(cell(&t, 0, "result"), "1.5"), "result '%s'", cell(&t, 0, "result"));
        CHECK(!strcmp(cell(&t, 0, "block"), "256") && !strcmp(cell(&t, 0, "grid"), "7"), "cfg");
        CHECK(!strcmp(cell(&t, 0, "ulps"), "1") && !strcmp(cell(&t, 0, "abs_err"), "1.1920928955078125e-07"),
              "ulps '%s' abs_err '%s'", cell(&t, 0, "ulps"), cell(&t, 0, "abs_err"));
        CHECK(!strcmp(cell(&t, 0, "bound_abs"), ""), "no bound: empty");
        CHECK(!strcmp(cell(&t, 0, "time_ms_median"), "0.25"), "time");
        CHECK(!strcmp(cell(&t, 0, "twin_checked"), "1") && !strcmp(cell(&t, 0, "twin_match"), "0"), "twin");
        CHECK(!strcmp(cell(&t, 0, "note"), "a note; with  quotes  and a break"), "note cleaned: '%s'",
              cell(&t, 0, "note"));
        CHECK(!strcmp(cell(&t, 0, "unit_roundoff"), "5.9604644775390625e-08"), "unit roundoff");
        CHECK(!strcmp(cell(&t, 1, "result"), "") && !strcmp(cell(&t, 1, "exact"), "2"),
              "skipped: no result, the exact sum");
        CHECK(!strcmp(cell(&t, 1, "reps"), "") && !strcmp(cell(&t, 1, "block"), ""), "skipped: no run");
        CHECK(!strcmp(cell(&t, 2, "exact"), "") && !strcmp(cell(&t, 2, "family"), "ceiling") &&
              !strcmp(cell(&t, 2, "backend"), "gpu") && !strcmp(cell(&t, 2, "det_class"), ""),
              "empty row: names only");
        char key[SL_KEY_LEN], key2[SL_KEY_LEN];
        CHECK(sl_csv_key(&t, 0, key, sizeof key) == 0 && sl_rowctx_key(&c, "serial", key2, sizeof key2) == 0,
              "keys made");
        CHECK(!strcmp(key, key2), "the key of a written row is the key of its context: '%s' vs '%s'", key, key2);
    }
    sl_csv_free(&t);

    /* the distribution rows of r1 */
    snprintf(path, sizeof path, "%s/d.csv", tmpdir);
    f = fopen(path, "w");
    CHECK(f && sl_schema_write_header(f, &sl_dist_schema) == 0, "dist header");
    for (size_t i = 0; f && i < ok.nvalues; i++)
        CHECK(sl_schema_write_row(f, &sl_dist_schema, &r1, i, &err) == 0, "dist row %zu", i);
    if (f) fclose(f);
    CHECK(sl_csv_read(path, &t, NULL, &err) == 0, "dist read: %s", err.msg);
    CHECK(t.nrows == 2 && sl_schema_matches(&sl_dist_schema, &t), "2 distribution rows");
    if (t.nrows == 2) {
        CHECK(!strcmp(cell(&t, 1, "value_hex"), "0x1.800002p+0") && !strcmp(cell(&t, 1, "count"), "1") &&
              !strcmp(cell(&t, 1, "ulps_signed"), "-1"), "value 2: %s %s %s", cell(&t, 1, "value_hex"),
              cell(&t, 1, "count"), cell(&t, 1, "ulps_signed"));
    }
    sl_csv_free(&t);
}

static void check_keys(void)
{
    const char *f[SL_KEY_FIELDS] = {"sum", "e", "d", "p", "f32", "1024", "v", "default"};
    char buf[SL_KEY_LEN], small[8];
    CHECK(sl_row_key(buf, sizeof buf, f) == 0 && !strcmp(buf, "sum|e|d|p|f32|1024|v|default"), "key '%s'", buf);
    CHECK(sl_row_key(small, sizeof small, f) == -1, "a short buffer is an error, not a cut key");
    /* a '|' or '\\' inside a field is escaped: fields that differ never make one key */
    {
        const char *g1[SL_KEY_FIELDS] = {"sum", "e|x", "d", "p", "f32", "1024", "v", "default"};
        const char *g2[SL_KEY_FIELDS] = {"sum", "e", "x|d", "p", "f32", "1024", "v", "default"};
        const char *g3[SL_KEY_FIELDS] = {"sum", "e\\", "|d", "p", "f32", "1024", "v", "default"};
        const char *g4[SL_KEY_FIELDS] = {"sum", "e", "\\|d", "p", "f32", "1024", "v", "default"};
        char k1[SL_KEY_LEN], k2[SL_KEY_LEN], k3[SL_KEY_LEN], k4[SL_KEY_LEN], k5[32];
        CHECK(!sl_row_key(k1, sizeof k1, g1) && !sl_row_key(k2, sizeof k2, g2) && !sl_row_key(k3, sizeof k3, g3) &&
                  !sl_row_key(k4, sizeof k4, g4), "escaped keys made");
        CHECK(strcmp(k1, k2) && strcmp(k3, k4) && strcmp(k1, k3), "distinct fields, distinct keys: '%s' '%s' '%s' '%s'",
              k1, k2, k3, k4);
        CHECK(!strcmp(k1, "sum|e\\|x|d|p|f32|1024|v|default"), "escaped key '%s'", k1);
        /* the buffer's edge: "sum|e|d|p|f32|1024|v|default" is 28 bytes */
        CHECK(sl_row_key(k5, 29, f) == 0 && sl_row_key(k5, 28, f) == -1, "the key fits exactly or is an error");
    }
    sl_keyset k = {0};
    char b[64];
    for (int i = 0; i < 1000; i++) {
        snprintf(b, sizeof b, "key%d", i);
        CHECK(sl_keyset_add(&k, b) == 1, "add %s", b);
    }
    CHECK(sl_keyset_add(&k, "key7") == 0 && sl_keyset_has(&k, "key999") && !sl_keyset_has(&k, "key1000"),
          "key set membership");
    sl_keyset_free(&k);
}

static void check_runconf(void)
{
    sl_runconf a = {0}, b;
    snprintf(a.experiment, sizeof a.experiment, "all");
    snprintf(a.preset, sizeof a.preset, "tiny");
    snprintf(a.backend, sizeof a.backend, "cpu");
    snprintf(a.started, sizeof a.started, "2026-01-31T12:00:00Z");
    a.seed = 18446744073709551615ull;
    a.reps = 7;
    sl_err err = {{0}};
    CHECK(sl_runconf_write(tmpdir, &a, &err) == 0, "run.conf written: %s", err.msg);
    CHECK(sl_runconf_read(tmpdir, &b) == 0, "run.conf read");
    CHECK(!strcmp(a.experiment, b.experiment) && !strcmp(a.preset, b.preset) && !strcmp(a.backend, b.backend) &&
          !strcmp(a.started, b.started) && a.seed == b.seed && a.reps == b.reps, "run.conf round trip");
    CHECK(sl_runconf_read("/nonexistent-dir", &b) == -1, "no run.conf: -1");
    char path[512];
    snprintf(path, sizeof path, "%s/run.conf", tmpdir);
    FILE *f = fopen(path, "w");
    if (f) { fputs("experiment=all\npreset=tiny\n", f); fclose(f); }
    CHECK(sl_runconf_read(tmpdir, &b) == -2 && (b.seen & SL_CONF_PRESET) && !(b.seen & SL_CONF_SEED),
          "incomplete run.conf: -2 with what it has");
    CHECK(strstr(b.error, "field 'backend' missing") && strstr(b.error, "run.conf"), "missing field named: %s", b.error);

    /* strict fields (issue 29): a good run.conf with every field, then one bad field at a time:
     * -2 and a message naming the file and the field (seed=xyz was read as seed 0) */
    static const char *const good[][2] = {
        {"experiment", "accuracy-vs-cond"}, {"preset", "tiny"}, {"backend", "cpu"}, {"seed", "20261129"},
        {"reps", "0"}, {"started", "2026-01-31T12:00:00Z"}, {"n", "1024,4096"}, {"datasets", "uniform,normal"},
        {"variants", "serial,pairwise"}, {"dtypes", "f32,f16"}, {"seeds", "2"}, {"baseline", "serial"}};
    static const char *const badv[][2] = {
        {"experiment", ""}, {"experiment", "x';touch /tmp/PWNED;'"}, {"experiment", "../../x"},
        {"preset", "huge"}, {"preset", ""}, {"backend", "tpu"}, {"backend", "auto"},
        {"seed", "xyz"}, {"seed", ""}, {"seed", "-1"}, {"seed", "18446744073709551616"}, {"seed", "12abc"},
        {"seed", "1e3"}, {"seed", " 5"}, {"seed", "+5"},
        {"reps", "abc"}, {"reps", "-3"}, {"reps", "1000001"}, {"reps", "3.5"}, {"reps", ""},
        {"started", "yesterday"}, {"started", "2026-01-31T12:00:00Z;rm"},
        {"n", "abc"}, {"n", "0"}, {"n", "1024,,4096"}, {"n", "1024,1024"}, {"n", "-5"}, {"n", "1e3"},
        {"datasets", "nope"}, {"datasets", "uniform,uniform"}, {"datasets", "../../../../tmp/x"},
        {"datasets", "uniform,"}, {"variants", "nope"}, {"variants", "serial,serial"},
        {"dtypes", "f128"}, {"dtypes", "f32,f32"}, {"seeds", "0"}, {"seeds", "abc"}, {"seeds", "1001"},
        {"baseline", "nope"}, {"baseline", "serial\x01"}};
    const size_t ng = sizeof good / sizeof good[0];
    for (size_t t = 0; t <= sizeof badv / sizeof badv[0]; t++) {
        const int is_good = t == sizeof badv / sizeof badv[0];
        f = fopen(path, "w");
        if (!f) { CHECK(0, "cannot write %s", path); return; }
        fputs("# sumlab run settings (read by --resume)\n", f);
        for (size_t i = 0; i < ng; i++)
            fprintf(f, "%s=%s\n", good[i][0], !is_good && !strcmp(good[i][0], badv[t][0]) ? badv[t][1] : good[i][1]);
        fclose(f);
        int r = sl_runconf_read(tmpdir, &b);
        if (is_good) {
            CHECK(r == 0 && b.seed == 20261129 && b.reps == 0 && b.seeds == 2 && !strcmp(b.n, "1024,4096") &&
                  !strcmp(b.dtypes, "f32,f16") && !strcmp(b.baseline, "serial"),
                  "a good run.conf with every field reads back (%d: %s)", r, b.error);
            continue;
        }
        char want[64];
        snprintf(want, sizeof want, "field '%s'", badv[t][0]);
        CHECK(r == -2 && strstr(b.error, want) && strstr(b.error, "run.conf"),
              "run.conf %s=%s: -2 naming the field and the file (got %d, '%s')", badv[t][0], badv[t][1], r, b.error);
    }
    /* a line that is no key=value, an unknown key, a key twice */
    static const char *const badl[] = {"seed 5\n", "colour=blue\n", "seed=5\n"};
    for (size_t t = 0; t < sizeof badl / sizeof badl[0]; t++) {
        f = fopen(path, "w");
        if (!f) return;
        for (size_t i = 0; i < ng; i++) fprintf(f, "%s=%s\n", good[i][0], good[i][1]);
        fputs(badl[t], f);
        fclose(f);
        CHECK(sl_runconf_read(tmpdir, &b) == -2 && strstr(b.error, "run.conf"), "run.conf line '%s': -2 (%s)",
              badl[t], b.error);
    }
}

static void check_meta(void)
{
    sl_runconf c = {0};
    snprintf(c.experiment, sizeof c.experiment, "determinism");
    snprintf(c.preset, sizeof c.preset, "quick");
    snprintf(c.backend, sizeof c.backend, "cpu");
    c.seed = 12345678901234567890ull;
    sl_provenance p;
    char *argv[] = {"sumlab", "run", "a \"quoted\" arg\n", NULL};
    sl_provenance_collect(&p, 3, argv);
    sl_err err = {{0}};
    CHECK(sl_meta_write(tmpdir, &c, 1, &p, &err) == 0, "meta.json written: %s", err.msg);
    sl_meta m;
    CHECK(sl_meta_read(tmpdir, &m, &err) == 0, "meta.json read: %s", err.msg);
    CHECK(!strcmp(m.git_sha, p.git_sha) && !strcmp(m.date_utc, p.date), "sha %s / %s, date %s / %s",
          m.git_sha, p.git_sha, m.date_utc, p.date);
    CHECK(!strcmp(m.gpu_name, p.gpu_present ? p.gpu_name : "none"), "gpu name %s", m.gpu_name);
    char path[512];
    snprintf(path, sizeof path, "%s/meta.json", tmpdir);
    size_t len;
    char *text = sl_slurp(path, &len, &err);
    CHECK(text && strstr(text, "12345678901234567890"), "the seed's every digit is in meta.json");
    free(text);
    CHECK(sl_meta_read("/nonexistent-dir", &m, &err) == -1 && !strcmp(m.git_sha, "?"), "no meta.json: ?");
}

/* DIR/run_notes.txt <- text[0..len) (a file this test plants). */
static void plant_notes(const char *text, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, SL_NOTES_FILE);
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(text, 1, len, f) == len && fclose(f) == 0, "%s planted", path);
}

/* The notes round trip: what sl_notes_add keeps (control bytes as spaces, a byte of no UTF-8 as
 * '?', markup as it is) comes back from run_notes.txt byte for byte, a full note and the full
 * SL_NOTES_MAX included; no file: no notes; every malformed file: -1, its message naming it. */
static void check_notes(void)
{
    static sl_notes a, b;   /* 16 x 2.5 kB each */
    sl_err err = {{0}};
    CHECK(sl_notes_read(tmpdir, &b, &err) == 0 && b.n == 0, "no run_notes.txt (an old run): no notes (%s)", err.msg);
    memset(&a, 0, sizeof a);
    sl_notes_add(&a, "determinism: nothing to measure under this run's settings (preset tiny, --dtype f16)");
    sl_notes_add(&a, "tab\there, escape \x1b[31m, cut \xe2\x82 utf-8, C1 \xc2\x85, DEL \x7f, bytes \xff\xfe");
    sl_notes_add(&a, "markup stays text: [a](javascript:x) <b> \\ & `code <i>` \xe2\x89\xa4 \xf0\x9f\x98\x80");
    char big[sizeof a.line[0] + 100];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    sl_notes_add(&a, "%s", big);   /* cut, ending in "..." */
    CHECK(!strcmp(a.line[1], "tab here, escape  [31m, cut ?? utf-8, C1 ??, DEL  , bytes ??"),
          "a note made printable: '%s'", a.line[1]);
    CHECK(strlen(a.line[3]) == sizeof a.line[0] - 1 && !strcmp(a.line[3] + strlen(a.line[3]) - 3, "..."),
          "a long note cut to a full note ending in ... (%zu bytes)", strlen(a.line[3]));
    for (int i = a.n; i < SL_NOTES_MAX + 3; i++) sl_notes_add(&a, "note %d", i);
    CHECK(a.n == SL_NOTES_MAX && strstr(a.line[SL_NOTES_MAX - 1], "further notes were left out"),
          "%d notes, the last saying more were left out: '%s'", a.n, a.line[a.n - 1]);
    CHECK(sl_notes_write(tmpdir, &a, &err) == 0, "run_notes.txt written: %s", err.msg);
    CHECK(sl_notes_read(tmpdir, &b, &err) == 0, "run_notes.txt read back: %s", err.msg);
    int same = b.n == a.n;
    for (int i = 0; same && i < a.n; i++) same = !strcmp(a.line[i], b.line[i]);
    CHECK(same, "the notes read back are the notes written (%d / %d)", b.n, a.n);
    char path[512];
    snprintf(path, sizeof path, "%s/%s.tmp", tmpdir, SL_NOTES_FILE);
    CHECK(access(path, F_OK) != 0, "no %s.tmp left", SL_NOTES_FILE);

    /* files this did not write: one message each, naming the file, and no notes */
    static char text[sizeof a.line[0] * (SL_NOTES_MAX + 2) + 64];
    const char *hdr = "# sumlab run notes v1\n";
#define BAD(what, body, want) {what, body, sizeof body - 1, want}
    static const struct { const char *what, *body; size_t len; const char *want; } bad[] = {
        BAD("empty", "", "is empty"),
        BAD("another header", "# not sumlab\nx\n", "not a sumlab notes file"),
        BAD("CRLF", "# sumlab run notes v1\r\nx\r\n", "not a sumlab notes file"),
        BAD("no end", "# sumlab run notes v1\nno newline", "the last line has no end"),
        BAD("a CR", "# sumlab run notes v1\nx\r\n", ":2: byte 2 (0x0d)"),
        BAD("a NUL", "# sumlab run notes v1\na\0b\n", ":2: byte 2 (0x00)"),
        BAD("an escape", "# sumlab run notes v1\nok\na \x1b[31m\n", ":3: byte 3 (0x1b)"),
        BAD("no UTF-8", "# sumlab run notes v1\nbyte \xff\n", ":2: byte 6 (0xff)"),
        BAD("a cut sequence", "# sumlab run notes v1\n\xe2\x82\n", ":2: byte 1 (0xe2)"),
        BAD("an overlong form", "# sumlab run notes v1\n\xc0\xbc\n", ":2: byte 1 (0xc0)"),
        BAD("a surrogate", "# sumlab run notes v1\n\xed\xa0\x80\n", ":2: byte 1 (0xed)"),
        BAD("a C1 control", "# sumlab run notes v1\n\xc2\x9b" "31m\n", ":2: byte 1 (0xc2)"),
    };
#undef BAD
    for (size_t t = 0; t < sizeof bad / sizeof bad[0]; t++) {
        plant_notes(bad[t].body, bad[t].len);
        err.msg[0] = '\0';
        b.n = 5;
        CHECK(sl_notes_read(tmpdir, &b, &err) == -1 && strstr(err.msg, SL_NOTES_FILE) &&
                  strstr(err.msg, bad[t].want) && b.n == 0,
              "run_notes.txt with %s: refused, '%s' (%s)", bad[t].what, bad[t].want, err.msg);
    }
    /* a line one byte longer than a note; SL_NOTES_MAX + 1 notes; a file larger than any notes file */
    size_t len = (size_t)snprintf(text, sizeof text, "%s", hdr);
    memset(text + len, 'y', sizeof a.line[0]);
    len += sizeof a.line[0];
    text[len++] = '\n';
    plant_notes(text, len);
    CHECK(sl_notes_read(tmpdir, &b, &err) == -1 && strstr(err.msg, "longer than a note"), "a long line: %s", err.msg);
    text[len - 2] = '\n';   /* the longest note: accepted, whole */
    plant_notes(text, len - 1);
    CHECK(sl_notes_read(tmpdir, &b, &err) == 0 && b.n == 1 && strlen(b.line[0]) == sizeof a.line[0] - 1,
          "a note of %zu bytes read whole (%s)", sizeof a.line[0] - 1, err.msg);
    len = (size_t)snprintf(text, sizeof text, "%s", hdr);
    for (int i = 0; i <= SL_NOTES_MAX; i++) len += (size_t)snprintf(text + len, sizeof text - len, "n%d\n", i);
    plant_notes(text, len);
    CHECK(sl_notes_read(tmpdir, &b, &err) == -1 && strstr(err.msg, "more than"), "%d notes: %s", SL_NOTES_MAX + 1,
          err.msg);
    memset(text, '\n', sizeof text);
    memcpy(text, hdr, strlen(hdr));
    plant_notes(text, sizeof text);
    CHECK(sl_notes_read(tmpdir, &b, &err) == -1 && strstr(err.msg, "more than a notes file holds"),
          "a %zu-byte file: %s", sizeof text, err.msg);
    /* a link or a directory in its place */
    snprintf(path, sizeof path, "%s/%s", tmpdir, SL_NOTES_FILE);
    unlink(path);
    CHECK(symlink("/etc/hostname", path) == 0, "link planted");
    CHECK(sl_notes_read(tmpdir, &b, &err) == -1 && strstr(err.msg, "symbolic link"), "a link: %s", err.msg);
    unlink(path);
    CHECK(mkdir(path, 0700) == 0, "directory planted");
    CHECK(sl_notes_read(tmpdir, &b, &err) == -1 && strstr(err.msg, "not a regular file"), "a directory: %s", err.msg);
    rmdir(path);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "%s/tresults.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir)) {
        fprintf(stderr, "tresults: cannot create a temporary directory\n");
        return 1;
    }
    check_csv_round_trip();
    check_keys();
    check_runconf();
    check_meta();
    check_notes();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "tresults: could not remove %s\n", tmpdir);
    return sl_test_done("tresults");
}
