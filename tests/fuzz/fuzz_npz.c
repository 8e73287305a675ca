/* fuzz_npz.c: libFuzzer target of the .npz (zip: stored, deflate, zip64) reader, with the
 * implicit member and a named one: never a crash; an accepted member's values are all there. */
#include "fuzz_util.h"
#include "sl_datasets.h"
#include "sl_io_impl.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char path[300];
    snprintf(path, sizeof path, "%s/in.npz", fz_scratch());
    fz_write(path, d, n);
    static const char *const keys[] = {NULL, "arr_0", "x", "a"};
    for (int k = 0; k < 4; k++) {
        void *data = NULL;
        uint64_t cnt = 0;
        sl_dtype dt;
        sl_err e = {{0}};
        static sl_array_info info;
        memset(&info, 0, sizeof info);
        if (sl_npz_read(path, keys[k], &data, &cnt, &dt, &info, &e) == 0) {
            if (cnt && !data) abort();
            (void)fz_touch(data, cnt, dt);
        } else if (!e.msg[0]) {
            abort();
        }
        free(data);
    }
    return 0;
}
