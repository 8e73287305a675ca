/* cmd_list.c: `sumlab list [variants|datasets]`: the variant registry and the dataset
 * registry with their parameters, as a table, CSV or JSON. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "sl_cli.h"
#include "sl_datasets.h"
#include "sl_gpu.h"
#include "sl_ops.h"
#include "sl_results.h"
#include "sl_variants.h"
#include "rows/rows.h"

static void list_usage(FILE *f)
{
    fputs("usage: sumlab list [ops|variants|datasets|columns] [--op OP] [--format table|csv|json]\n\n"
          "Lists the operations (name, inputs, exact reference, description), the variants\n"
          "(name, operation, family, determinism class, input dtypes, whether this build has a\n"
          "GPU kernel and a CPU twin, largest n, description; row-wise: its path and what can\n"
          "change a row's bits) and the dataset generators with\n"
          "their parameters (name, type, default, range, description); `columns`: every column\n"
          "of results.csv and of the commands' outputs (--columns picks from them).\n"
          "Without an argument all three are listed (tables only).\n\n"
          "options:\n"
          "  --op OP      only the variants of this operation\n"
          "  --format F   table (default), csv or json\n"
          "  -h, --help   this text\n", f);
}

/* The formats of mask m, comma-separated in the order f32, f64, f16, bf16 ("none": none). */
static const char *dtypes_str(unsigned m, char *b, size_t len)
{
    size_t w = 0;
    b[0] = '\0';
    for (int k = 0; k < SL_NDTYPES; k++)
        if (m & SL_DTYPE_MASK(k)) {
            int r = snprintf(b + w, len - w, "%s%s", w ? "," : "", sl_dtype_name((sl_dtype)k));
            if (r > 0 && (size_t)r < len - w) w += (size_t)r;
        }
    return w ? b : "none";
}

static void max_n_str(char *b, size_t len, uint64_t n)
{
    if (n == 0) snprintf(b, len, "any");
    else if ((n & (n - 1)) == 0) snprintf(b, len, "2^%d", __builtin_ctzll(n));
    else snprintf(b, len, "%llu", (unsigned long long)n);
}

/* The one column table (sl_results.h): every column any output has. */
static int list_columns(sl_out_format fmt)
{
    static const char *const h[] = {"column", "unit", "type", "description"};
    static const char *const kinds[] = {"string", "number", "boolean"};
    sl_table *t = sl_table_new(4, h);
    if (!t) return 1;
    for (size_t i = 0; i < sl_column_count(); i++) {
        const sl_column *c = sl_column_at(i);
        sl_table_row(t);
        sl_table_str(t, c->name);
        sl_table_str(t, c->unit);
        sl_table_str(t, kinds[c->kind]);
        sl_table_str(t, c->help);
    }
    int rc = sl_table_write(t, fmt, stdout);
    sl_table_free(t);
    return rc ? 1 : 0;
}

static int list_ops(sl_out_format fmt)
{
    static const char *const h[] = {"op", "inputs", "variants", "exact", "description"};
    sl_table *t = sl_table_new(5, h);
    if (!t) return 1;
    for (size_t i = 0; i < sl_op_count(); i++) {
        const sl_operation *op = sl_op_at(i);
        uint64_t nv = 0;
        for (size_t j = 0; j < sl_variant_count(); j++) nv += sl_op_of(sl_variant_at(j)) == op;
        sl_table_row(t);
        sl_table_str(t, op->name);
        sl_table_i64(t, op->inputs);
        sl_table_u64(t, nv);
        sl_table_str(t, op->reference_text);
        sl_table_str(t, op->description);
    }
    int rc = sl_table_write(t, fmt, stdout);
    sl_table_free(t);
    return rc ? 1 : 0;
}

static int list_variants(sl_out_format fmt, const sl_operation *only)
{
    static const char *const h[] = {"name", "op", "family", "determinism", "dtypes", "gpu", "twin",
                                    "max_n", "description", "rows", "row_bits"};
    sl_table *t = sl_table_new(11, h);
    if (!t) return 1;
    for (size_t i = 0; i < sl_variant_count(); i++) {
        const sl_variant *v = sl_variant_at(i);
        if (only && sl_op_of(v) != only) continue;
        char mx[32];
        max_n_str(mx, sizeof mx, v->max_n);
        sl_table_row(t);
        sl_table_str(t, v->name);
        sl_table_str(t, v->op);
        sl_table_str(t, v->family);
        sl_table_str(t, sl_determinism_name(v->determinism));
        char dts[32];
        sl_table_str(t, dtypes_str(v->dtypes, dts, sizeof dts));
        sl_table_bool(t, sl_variant_has_gpu(v));
        sl_table_bool(t, sl_variant_has_cpu(v));
        sl_table_str(t, mx);
        sl_table_str(t, v->description);
        /* row-wise (--axis): its row kernel or its 1-D kernel on each row, and what its
         * descriptor says can change a row's bits */
        /* (a two-input operation's row is a pair of rows, one of x and one of y) */
        sl_rows_entries re;
        sl_rows_entries_of(v, &re);
        sl_table_str(t, sl_op_is_exact(v) ? "reference" : re.dedicated ? "row kernel" : "1-D per row");
        sl_table_str(t, sl_op_is_exact(v) ? "the row's values alone (the exact value rounded once)" : re.bits);
    }
    int rc = sl_table_write(t, fmt, stdout);
    sl_table_free(t);
    if (fmt == SL_OUT_TABLE && !sl_gpu_compiled())
        fputs("sumlab list: this build has no GPU kernels (built without CUDA): gpu = no for every "
              "variant\n", stderr);
    return rc ? 1 : 0;
}

static const char *type_str(sl_param_type t)
{
    return t == SL_PARAM_INT ? "int" : t == SL_PARAM_ENUM ? "enum" : "real";
}

static int list_datasets(sl_out_format fmt)
{
    static const char *const h[] = {"dataset", "param", "type", "default", "range", "description"};
    sl_table *t = sl_table_new(6, h);
    if (!t) return 1;
    for (size_t i = 0; i < sl_dataset_count(); i++) {
        const sl_dataset *ds = sl_dataset_at(i);
        sl_table_row(t);
        sl_table_str(t, ds->name);
        sl_table_null(t);
        sl_table_null(t);
        sl_table_null(t);
        sl_table_null(t);
        sl_table_str(t, ds->description);
        for (int k = 0; k < ds->nparams; k++) {
            const sl_param_desc *d = &ds->params[k];
            char def[64], range[256];
            sl_table_row(t);
            sl_table_str(t, ds->name);
            sl_table_str(t, d->name);
            sl_table_str(t, type_str(d->type));
            if (d->type == SL_PARAM_ENUM && d->choices) {
                if (!sl_param_choice(d, d->def, def, sizeof def)) snprintf(def, sizeof def, "%g", d->def);
                snprintf(range, sizeof range, "%s", d->choices);
            } else {
                sl_fmt_double(def, sizeof def, d->def, 10);
                char lo[SL_FMT_LEN], hi[SL_FMT_LEN];
                snprintf(range, sizeof range, "[%s, %s]", sl_fmt_double(lo, sizeof lo, d->min, 10),
                         sl_fmt_double(hi, sizeof hi, d->max, 10));
            }
            sl_table_str(t, def);
            sl_table_str(t, range);
            sl_table_str(t, d->description);
        }
    }
    int rc = sl_table_write(t, fmt, stdout);
    sl_table_free(t);
    return rc ? 1 : 0;
}

int sl_cmd_list(int argc, char **argv)
{
    static const struct option opts[] = {
        {"op", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    sl_out_format fmt = SL_OUT_TABLE;
    const sl_operation *only = NULL;
    sl_err err = {{0}};
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":f:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            if (sl_op_parse(optarg, &only, &err)) {
                sl_cli_msg("list", "--op: %s", err.msg);
                return 2;
            }
            break;
        case 'f':
            if (sl_out_format_parse(optarg, &fmt)) {
                sl_cli_msg("list", "unknown --format '%s' (table, csv or json)", optarg);
                return 2;
            }
            break;
        case 'h': list_usage(stdout); return 0;
        default: return sl_cli_bad_option("list", c, argv, optind, optopt, opts);
        }
    }
    if (argc - optind > 1) {
        sl_cli_msg("list", "too many arguments (expected one of: ops, variants, datasets or columns)");
        return 2;
    }
    const char *what = optind < argc ? argv[optind] : NULL;
    if (!what) {
        if (fmt != SL_OUT_TABLE) {
            sl_cli_msg("list", "--format %s needs one of: ops, variants, datasets", sl_out_format_name(fmt));
            return 2;
        }
        fputs("operations:\n", stdout);
        int rc = list_ops(fmt);
        fputs("\nvariants:\n", stdout);
        rc |= list_variants(fmt, only);
        fputs("\ndatasets:\n", stdout);
        return rc | list_datasets(fmt);
    }
    if (!strcmp(what, "ops")) return list_ops(fmt);
    if (!strcmp(what, "columns")) return list_columns(fmt);
    if (!strcmp(what, "variants")) return list_variants(fmt, only);
    if (!strcmp(what, "datasets")) return list_datasets(fmt);
    sl_cli_msg("list", "unknown list '%s' (expected: ops, variants, datasets or columns)", what);
    return 2;
}
