/* mpi_stub.c: sl_mpi.h in a build without MPI: every entry point says it needs MPI. */
#include <stdio.h>
#include "sl_mpi.h"

int sl_mpi_compiled(void) { return 0; }

int sl_mpi_sum_file(const sl_mpi_sum_opts *o, sl_mpi_row **rows, size_t *nrows, sl_reference *ref,
                    int *have_ref, int *is_root, char *backend_msg, size_t msg_len, sl_err *err)
{
    (void)o; (void)ref; (void)backend_msg; (void)msg_len;
    *rows = NULL;
    *nrows = 0;
    *is_root = 1;
    *have_ref = 0;
    sl_err_set(err, "sums across ranks need MPI: " SL_MPI_MISSING);
    return 1;
}
void sl_mpi_rows_free(sl_mpi_row *rows, size_t n) { (void)rows; (void)n; }
int sl_mpi_end(int code) { return code; }

int sl_mpi_cmd_ranks(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "sumlab run: the ranks experiment needs MPI: " SL_MPI_MISSING "\n");
    return 1;
}
