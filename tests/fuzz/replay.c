/* replay.c: runs a fuzz target's LLVMFuzzerTestOneInput once on each file named (or each file
 * of each directory named) without libFuzzer: the seed corpus and every regression input run
 * in the ordinary ctest suite (and under ASan/UBSan in tests/sanitize_cpu.sh). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static long ran;

static int one(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "replay: cannot read %s\n", path); return 1; }
    size_t cap = 1 << 16, n = 0;
    uint8_t *b = malloc(cap);
    for (size_t got; b && (got = fread(b + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) { uint8_t *nb = realloc(b, cap *= 2); if (!nb) { free(b); b = NULL; } else b = nb; }
    }
    fclose(f);
    if (!b) { fprintf(stderr, "replay: out of memory\n"); return 1; }
    LLVMFuzzerTestOneInput(b, n);   /* a finding aborts */
    free(b);
    ran++;
    return 0;
}

int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st)) { fprintf(stderr, "replay: no %s\n", argv[i]); bad = 1; continue; }
        if (!S_ISDIR(st.st_mode)) { bad |= one(argv[i]); continue; }
        DIR *dd = opendir(argv[i]);
        for (struct dirent *e; dd && (e = readdir(dd));) {
            if (e->d_name[0] == '.') continue;
            char p[4096];
            snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
            bad |= one(p);
        }
        if (dd) closedir(dd);
    }
    printf("replay: %ld inputs, no finding\n", ran);
    if (!ran) { fprintf(stderr, "replay: no input found\n"); return 1; }
    return bad;
}
