/* hl_trace.h: PAPI_TRACE=json|otf2, the region API's timeline (hl_trace.c): hooks the
 * region calls and the PAPI_INTERVAL sampler call, and the writer the report calls. Not
 * installed. */
#ifndef HL_TRACE_H
#define HL_TRACE_H

#include <stddef.h>

#include "papi_globals.h"

/* A region's begin (enter 1) or end (enter 0) on thread tid at ts_ns (hl_real_ns()), or
 * now when ts_ns < 0 (the clock then read only when tracing is on). */
PAPI_INTERNAL void hl_trace_region(long tid, const char *name, int enter, long long ts_ns);
/* The sampler's counts: nthreads threads' (tid[k]) nevents counts each, since they
 * started, in v[k * nevents + j] (g_hlr's events). */
PAPI_INTERNAL void hl_trace_counters(int nthreads, const long *tid, const long long *v,
                                     int nevents);
/* Whether PAPI_TRACE asked for a trace (and it is being recorded). */
PAPI_INTERNAL int hl_trace_on(void);
/* Writes <dir>/trace_rank_NNNNNN.json or the archive .../trace_rank_NNNNNN (rank, or the
 * pid when it is < 0) when tracing, its path (the archive's traces.otf2) into path; a
 * failure is one line on stderr and path "". */
PAPI_INTERNAL void hl_trace_write(const char *dir, int rank, char *path, size_t pathlen);

#endif
