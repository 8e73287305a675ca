/* fuzz_parse.c: libFuzzer target of the option parsers (sl_parse_u64 and its list,
 * sl_parse_int, the launch options, dataset --param K=V): never a crash, and what is accepted
 * is right: plain decimals equal strtoull, a^b equals the power, A-B the difference, a list
 * is its items, a launch value lies in its range. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include "fuzz_util.h"
#include "sl_cli.h"
#include "sl_datasets.h"

static int all_digits(const char *s)
{
    if (!*s) return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s)) return 0;
    return 1;
}

static int devnull = -1, saved_err = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc; (void)argv;
    devnull = open("/dev/null", O_WRONLY);
    saved_err = dup(2);
    return 0;
}

/* sl_cli_launch_opt's messages go to /dev/null, not into the fuzzer's log (stderr). */
static void quiet(int on)
{
    fflush(stderr);
    if (devnull >= 0 && saved_err >= 0) dup2(on ? devnull : saved_err, 2);
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n > 4096) return 0;
    char s[4097];
    memcpy(s, d, n);
    s[n] = '\0';
    if (strlen(s) != n) return 0;            /* options are C strings */
    sl_err e = {{0}};
    uint64_t v = 0;
    if (sl_parse_u64(s, &v, &e) == 0) {
        if (all_digits(s)) {
            errno = 0;
            unsigned long long w = strtoull(s, NULL, 10);
            if (errno || w != v) abort();       /* a wrong value */
        }
        for (const char *p = s; *p; p++)       /* the grammar's alphabet only */
            if (!strchr("0123456789abcdefABCDEFxX.eE+^*-", *p)) abort();
        const char *caret = strchr(s, '^');
        if (caret && !strpbrk(s, "*+-.eExX")) { /* a^b, decimals: the exact power */
            uint64_t a = strtoull(s, NULL, 10), b = strtoull(caret + 1, NULL, 10), r = 1;
            for (uint64_t i = 0; i < b; i++) r *= a;
            if (r != v) abort();
        }
        const char *minus = strchr(s, '-');
        if (minus && all_digits(minus + 1) && !strpbrk(s, "*+^.eExX")) {
            char left[4097];
            memcpy(left, s, (size_t)(minus - s));
            left[minus - s] = '\0';
            if (all_digits(left) && !strchr(minus + 1, '-')) {
                uint64_t a = strtoull(left, NULL, 10), b = strtoull(minus + 1, NULL, 10);
                if (a < b || a - b != v) abort();   /* a negative accepted, or a wrong difference */
            }
        }
    } else if (!e.msg[0]) {
        abort();
    }
    uint64_t list[8];
    size_t cnt = 0;
    if (sl_parse_u64_list(s, list, 8, &cnt, &e) == 0) {
        if (cnt < 1 || cnt > 8) abort();
        size_t commas = 0;
        for (const char *p = s; *p; p++) commas += *p == ',';
        if (commas + 1 != cnt) abort();
    }
    long iv;
    if (sl_parse_int(s, -1000, 1000000, &iv, &e) == 0 && (iv < -1000 || iv > 1000000)) abort();
    static const char *const opts[] = {"--block", "--grid", "--items"};
    int bad = 0;
    quiet(1);
    for (int k = 0; k < 3; k++) {
        uint32_t lv = 0;
        if (sl_cli_launch_opt("fuzz", opts[k], s, &lv) == 0) {
            if (k == 0 && (lv < 32 || lv > 1024 || (lv & (lv - 1)))) bad = 1;
            if (k == 1 && (lv < 1 || lv > 0x7fffffffu)) bad = 1;
            if (k == 2 && (lv < 1 || lv > (1u << 20))) bad = 1;
        }
    }
    quiet(0);
    if (bad) abort();     /* after stderr is back: the report reaches the log */
    for (size_t i = 0; i < sl_dataset_count(); i++) {
        const sl_dataset *ds = sl_dataset_at(i);
        sl_params p;
        sl_params_defaults(ds, &p);
        (void)sl_params_set(ds, &p, s, &e);
    }
    return 0;
}
