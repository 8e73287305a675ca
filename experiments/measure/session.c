/* session.c: an input prepared once for many measurements (sl_measure.h): the backend chosen,
 * the exact reference computed once and, on the GPU backend, the input uploaded once. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_gpu.h"
#include "sl_measure_impl.h"
#include "sl_twin.h"

int sl_backend_parse(const char *s, sl_backend *out)
{
    if (!s) return -1;
    if (!strcmp(s, "auto")) *out = SL_BACKEND_AUTO;
    else if (!strcmp(s, "cpu")) *out = SL_BACKEND_CPU;
    else if (!strcmp(s, "gpu")) *out = SL_BACKEND_GPU;
    else return -1;
    return 0;
}

int sl_session_open(sl_session **sp, const void *x, uint64_t n, sl_dtype dt, sl_backend backend,
                    uint32_t offset, char *chosen_msg, size_t msg_len, sl_err *err)
{
    sl_session_opts o = {backend, offset, 1, NULL, 0, NULL, NULL, NULL};
    return sl_session_open_opts(sp, x, n, dt, &o, chosen_msg, msg_len, err);
}

int sl_session_open_opts(sl_session **sp, const void *x, uint64_t n, sl_dtype dt,
                         const sl_session_opts *o, char *chosen_msg, size_t msg_len, sl_err *err)
{
    const sl_backend backend = o->backend;
    const uint32_t offset = o->offset;
    *sp = NULL;
    if (chosen_msg && msg_len) chosen_msg[0] = '\0';
    if (!sl_dtype_valid(dt)) return sl_err_set(err, "unsupported dtype %d", (int)dt);
    if (!x && n > 0) return sl_err_set(err, "no input data");
    const sl_operation *op = o->op ? o->op : sl_op_default();
    if (op->inputs != 1 && op->inputs != 2)
        return sl_err_set(err, "operation '%s' reads %d arrays: a session measures one or two",
                          op->name, op->inputs);
    if (op->inputs == 2 && !o->y && n > 0)
        return sl_err_set(err, "operation '%s' reads two arrays: the second input is missing", op->name);
    if (op->inputs == 1 && o->y)
        return sl_err_set(err, "operation '%s' reads one array: a second input was given", op->name);
    sl_session *s = calloc(1, sizeof *s);
    if (!s) return sl_err_set(err, "out of memory");
    s->x = x;
    s->y = op->inputs == 2 ? o->y : NULL;
    s->n = n;
    s->dt = dt;
    s->op = op;
    s->offset = offset;
    s->threads = o->threads ? o->threads : 1;
    s->twin_once = o->twin_once;
    s->params = o->params ? *o->params : sl_op_params_default();
    if (s->params.ddof > SL_DDOF_MAX) {
        const unsigned ddof = s->params.ddof;
        free(s);
        return sl_err_set(err, "ddof %u is out of range (at most %u)", ddof, SL_DDOF_MAX);
    }
    sl_twin_set_threads(s->threads);        /* a twin's own threads (the pairwise tree) */

    if (backend != SL_BACKEND_CPU) {
        sl_gpu_info info;
        sl_err why = {{0}};
        memset(&info, 0, sizeof info);
        int have = sl_gpu_available(&info, &why) == 1;
        if (have) {
            s->on_gpu = 1;
            if (chosen_msg)
                snprintf(chosen_msg, msg_len, "backend gpu: %s (%d SMs)", info.name, info.sm_count);
        } else if (backend == SL_BACKEND_GPU) {
            free(s);
            return sl_err_set(err, "--backend gpu: no usable GPU (%s)", why.msg[0] ? why.msg : "none found");
        } else if (chosen_msg) {
            /* the reason already starts "no GPU: ": said once */
            const char *w = why.msg[0] ? why.msg : "none found";
            if (!strncmp(w, "no GPU: ", 8)) w += 8;
            snprintf(chosen_msg, msg_len, "backend cpu: no GPU (%s); using the CPU twins", w);
        }
    } else if (chosen_msg) {
        snprintf(chosen_msg, msg_len, "backend cpu: CPU twins");
    }

    if (o->ref) {
        s->ref = o->ref;
    } else {
        s->ref_ok = 1;
        s->ref = &s->ref_own;
        const void *const in[2] = {x, s->y};
        if (op->reference(&s->ref_own, in, n, dt, &s->params, s->threads, err)) {
            sl_session_close(s);
            return -1;
        }
    }
    if (s->on_gpu && (sl_gpu_ctx_create(&s->ctx, x, n, dt, offset, err) ||
                      (s->y && sl_gpu_ctx_set_y(s->ctx, s->y, err)))) {
        sl_session_close(s);
        return -1;
    }
    *sp = s;
    return 0;
}

void sl_session_close(sl_session *s)
{
    if (!s) return;
    if (s->ctx) sl_gpu_ctx_destroy(s->ctx);
    if (s->ref_ok) sl_reference_clear(&s->ref_own);
    free(s);
}

const sl_reference *sl_session_reference(const sl_session *s) { return s->ref; }
int sl_session_on_gpu(const sl_session *s) { return s->on_gpu; }
const sl_operation *sl_session_op(const sl_session *s) { return s->op; }
const sl_op_params *sl_session_params(const sl_session *s) { return &s->params; }
void sl_session_on_gpu_done(sl_session *s, void (*fn)(void *arg), void *arg)
{
    s->gpu_done = fn;
    s->gpu_done_arg = arg;
}
void sl_session_times(const sl_session *s, double *run_s, double *judge_s)
{
    if (run_s) *run_s = s->run_s;
    if (judge_s) *judge_s = s->judge_s;
}
void sl_session_phases(const sl_session *s, double *gpu_s, double *side_s, double *check_s)
{
    if (gpu_s) *gpu_s = s->gpu_s;
    if (side_s) *side_s = s->side_s;
    if (check_s) *check_s = s->check_s;
}
