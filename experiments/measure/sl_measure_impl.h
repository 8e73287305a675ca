/* sl_measure_impl.h: the session's insides, shared by the files of measure/ only. */
#ifndef SL_MEASURE_IMPL_H
#define SL_MEASURE_IMPL_H
#include "sl_gpu.h"
#include "sl_measure.h"

struct sl_session {
    const void *x;
    const void *y;             /* the second input of a two-input operation (dot), else NULL */
    uint64_t n;
    sl_dtype dt;
    const sl_operation *op;
    uint32_t offset;
    int on_gpu;
    sl_gpu_ctx *ctx;
    unsigned threads;
    int ref_ok;                /* ref_own holds a reference to clear */
    sl_reference ref_own;
    const sl_reference *ref;   /* &ref_own, or the caller's (sl_session_opts.ref) */
    int twin_once;             /* sl_session_opts.twin_once */
    sl_op_params params;       /* sl_session_opts.params (or the defaults) */
    double run_s, judge_s;     /* sl_session_times */
    double gpu_s, side_s, check_s;   /* sl_session_phases */
    void (*gpu_done)(void *arg);     /* sl_session_on_gpu_done's function and argument */
    void *gpu_done_arg;
};

/* Bit pattern with every NaN folded into one (NaN payloads differ between CPU and GPU). */
uint64_t sl_canon_bits(double v);

/* The log-binned histogram of sl_sketch and sl_rep_agg (stats.c; sl_measure.h says its
 * resolution): new (NULL when out of memory), free, add x with weight w, merge o into h
 * (-1 when out of memory), and the median clamped to [mn, mx] (NaN when empty). */
sl_hist *sl_hist_new(void);
void sl_hist_free(sl_hist *h);
int sl_hist_add(sl_hist *h, double x, uint64_t w);
int sl_hist_merge(sl_hist *h, const sl_hist *o);
double sl_hist_median(const sl_hist *h, double mn, double mx);

#endif
