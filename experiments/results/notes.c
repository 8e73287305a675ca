/* notes.c: the lines a run leaves for its report's "Notes" section (each at most once). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "sl_results.h"

void sl_notes_add(sl_notes *notes, const char *fmt, ...)
{
    if (notes->n >= SL_NOTES_MAX) return;
    va_list ap;
    va_start(ap, fmt);
    sl_vfit(notes->line[notes->n], sizeof notes->line[0], fmt, ap);  /* a long note ends in "..." */
    va_end(ap);
    for (int i = 0; i < notes->n; i++)      /* the same note twice (resume) once */
        if (!strcmp(notes->line[i], notes->line[notes->n])) return;
    notes->n++;
}
