/* fuzz_npy.c: libFuzzer target of the .npy reader (sl_npy_read, and sl_array_load_ex's
 * dispatch on the same bytes): never a crash, and an accepted file's values are all there. */
#include "fuzz_util.h"
#include "sl_datasets.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char path[300];
    snprintf(path, sizeof path, "%s/in.npy", fz_scratch());
    fz_write(path, d, n);
    void *data = NULL;
    uint64_t cnt = 0;
    sl_dtype dt;
    sl_err e = {{0}};
    if (sl_npy_read(path, &data, &cnt, &dt, &e) == 0) {
        if (cnt && !data) abort();
        if (cnt * sl_dtype_size(dt) > n) abort();        /* more values than bytes: a lie */
        (void)fz_touch(data, cnt, dt);
    } else if (!e.msg[0]) {
        abort();                                          /* a refusal must say why */
    }
    free(data);
    data = NULL;
    static sl_array_info info;
    if (sl_array_load_ex(path, 0, SL_F32, &data, &cnt, &dt, &info, &e) == 0) {
        if (cnt && !data) abort();
        (void)fz_touch(data, cnt, dt);
        if (!memchr(info.note, '\0', sizeof info.note)) abort();
    }
    free(data);
    return 0;
}
