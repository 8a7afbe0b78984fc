/* run_trace.h: --trace: the run's trace files (run_trace.c). */
#ifndef RUN_TRACE_H
#define RUN_TRACE_H

#include "run.h"

/* --trace: run_trace_check before the program runs (a bad format or no libotf2: one
 * line, and no trace), run_trace_write after the report (run_trace.c). */
void run_trace_check(struct run_state *s);
void run_trace_write(const struct run_state *s);

#endif
