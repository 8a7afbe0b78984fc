/* run_stat_lines.h: perf stat's machine-readable lines (-x SEP, --json) (run_stat_lines.c). */
#ifndef RUN_STAT_LINES_H
#define RUN_STAT_LINES_H

#include "run.h"

/* run_stat_lines.c: -x SEP or --json, perf stat's machine-readable lines on stderr. */
void run_stat_lines(const struct run_state *s);

#endif
