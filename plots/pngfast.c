/* pngfast.c: a preload for render.sh's gnuplot (LD_PRELOAD; render.sh compiles it into its
 * scratch directory): cairo's PNG writer (pngcairo) gets zlib level 2 and no row filter
 * instead of libpng's defaults (level 6, adaptive filters). The same pixels, files as large,
 * less than half the encoding time (encoding was half of a chart's PNG time). Only libpng's
 * png_write_info is wrapped; nothing else in gnuplot changes.
 * Assumptions: glibc's dlsym(RTLD_NEXT) finds libpng's png_write_info, which cairo calls
 * once per image before any row is written (libpng 1.6). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <png.h>

void png_write_info(png_structrp png, png_const_inforp info)
{
    static void (*next)(png_structrp, png_const_inforp);
    if (!next) *(void **)&next = dlsym(RTLD_NEXT, "png_write_info");
    if (!next) png_error(png, "pngfast: libpng's png_write_info not found");
    png_set_compression_level(png, 2);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    next(png, info);
}
