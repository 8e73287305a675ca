/* fuzz_raw.c: libFuzzer target of the raw reader and of sl_array_load's dispatch by content
 * (raw with a dtype, or a .npy/.npz by its magic): never a crash; a raw file of n bytes is
 * accepted exactly when n is a multiple of the element size, with n / size values. */
#include "fuzz_util.h"
#include "sl_datasets.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char path[300];
    snprintf(path, sizeof path, "%s/in.raw", fz_scratch());
    fz_write(path, d, n);
    for (int k = 0; k < SL_NDTYPES; k++) {   /* f32, f64, f16, bf16 */
        const sl_dtype want = (sl_dtype)k;
        void *data = NULL;
        uint64_t cnt = 0;
        sl_err e = {{0}};
        int rc = sl_raw_read(path, want, &data, &cnt, &e);
        const size_t es = sl_dtype_size(want);
        if (rc == 0) {
            if (n % es || cnt != n / es || (cnt && !data)) abort();   /* a wrong acceptance */
            if (cnt && memcmp(data, d, n)) abort();                  /* little-endian host */
        } else if (n % es == 0 && n > 0) {
            abort();                                                /* a wrong refusal */
        }
        free(data);
        data = NULL;
        sl_dtype dt;
        if (sl_array_load(path, 1, want, &data, &cnt, &dt, &e) == 0) {
            if (cnt && !data) abort();
            (void)fz_touch(data, cnt, dt);
        } else if (!e.msg[0]) {
            abort();
        }
        free(data);
    }
    return 0;
}
