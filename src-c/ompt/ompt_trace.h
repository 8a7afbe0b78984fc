/* ompt_trace.h: the threads' logged slices (ompt_spans.h) handed to a trace writer
 * (ompt_trace.c): in trace_openmp.h's form, each parallel region named as the tool's
 * file names it; and at the tool's finalize, papi_run's file of them. */
#ifndef PAPI_OMPT_TRACE_H
#define PAPI_OMPT_TRACE_H

#include "ompt_regions.h"
#include "trace_openmp.h"

/* Every thread's slices so far into s (ticks, with the clock pairs; open ones end now),
 * not ordered: 0, or -1 (s empty) when slices are off or out of memory. Called between
 * parallel regions (a report) or at finalize. */
OMPT_HIDDEN int ompt_trace_collect(struct trace_omp_spans *s);
/* At finalize: the slices appended to PAPI_RUN_OMPT_TRACE_FILE (papi_run --trace), when
 * it is set; a failure is one line. */
OMPT_HIDDEN void ompt_trace_save_for_papi_run(void);

#endif
