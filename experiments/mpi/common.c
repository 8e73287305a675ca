/* common.c: the parts of sl_mpi.h that need no MPI (strategy names, launch detection). */
#include <stdlib.h>
#include <string.h>
#include "sl_mpi.h"

static const char *const names[SL_COMBINE_COUNT] = {"mpi-sum", "ordered", "state",
                                                     "limbs", "nccl-sum", "nccl-limbs"};

const char *sl_combine_name(sl_combine c) { return c < SL_COMBINE_COUNT ? names[c] : "?"; }
int sl_combine_is_state(sl_combine c)
{
    return c == SL_COMBINE_STATE || c == SL_COMBINE_LIMBS || c == SL_COMBINE_NCCL_LIMBS;
}
int sl_combine_is_nccl(sl_combine c) { return c == SL_COMBINE_NCCL_SUM || c == SL_COMBINE_NCCL_LIMBS; }

int sl_combine_parse_list(const char *s, unsigned *mask, sl_err *err)
{
    *mask = 0;
    if (!s || !*s) return sl_err_set(err, "empty combine list");
    if (!strcmp(s, "all")) {
        *mask = SL_COMBINE_ALL_MASK;
        return 0;
    }
    const char *p = s;
    while (*p) {
        size_t len = strcspn(p, ",");
        int found = -1;
        for (int c = 0; c < SL_COMBINE_COUNT; c++)
            if (strlen(names[c]) == len && !strncmp(p, names[c], len)) found = c;
        if (found < 0)
            return sl_err_set(err, "unknown combine strategy '%.*s' (mpi-sum, ordered, state, limbs, "
                                   "nccl-sum, nccl-limbs or all)",
                              (int)len, p);
        *mask |= 1u << found;
        p += len;
        if (*p == ',') p++;
    }
    return 0;
}

int sl_mpi_launched(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE",
                                       "MPI_LOCALNRANKS", NULL};
    for (int i = 0; vars[i]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) return 1;
    }
    return 0;
}
