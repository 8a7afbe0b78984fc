/* ompt_spans.h: each thread's log of OpenMP slices for the traces (ompt_spans.c), kept
 * only when a trace is asked for (PAPI_TRACE, PAPI_MPI_TRACE, or papi_run --trace's
 * PAPI_RUN_OMPT_TRACE_FILE set at the tool's start); off, a callback pays one branch.
 * A log is the thread's own (no lock), made at its first slice and bounded by
 * PAPI_OMPT_TRACE_SPANS slices (default 65536): past it slices are counted as dropped,
 * and so are all of a thread's slices when its log cannot be allocated (it does not try
 * again). A log outlives its thread: at the thread's end it joins the retired logs.
 * Times are ticks of mono_clock.h's tick_clock, the MPI wrapper's clock; the kinds are
 * trace_openmp.h's. */
#ifndef PAPI_OMPT_SPANS_H
#define PAPI_OMPT_SPANS_H

#include <stdatomic.h>
#include <stdint.h>

#include "mono_clock.h"
#include "ompt_regions.h"

#define OMPT_SPANS_DEFAULT 65536

struct ompt_span {
    uint64_t start;
    _Atomic uint64_t end; /* 0: open */
    uint64_t instance;    /* the parallel region's instance (parallel_data's value) */
    int32_t region;       /* TRACE_OMP_PARALLEL: the region's index, -1: dropped; a
                           * construct's kind: the construct's index */
    _Atomic int16_t kind; /* enum trace_omp_kind (a barrier becomes the join at the task's end) */
};

struct ompt_span_log {
    _Atomic uint64_t n; /* slices begun (published with release: a reader takes these) */
    _Atomic uint64_t dropped;
    uint32_t tid;                       /* the OS thread */
    struct ompt_span_log *retired_next; /* the log retired before it (ompt_spans_retire) */
    struct ompt_span span[];
};

/* Whether slices are kept (set once, at the tool's start), and the bound per thread. */
extern int ompt_spans_on OMPT_HIDDEN;
OMPT_HIDDEN uint64_t ompt_spans_cap(void);
/* Reads the environment at the tool's start (a bad PAPI_OMPT_TRACE_SPANS: one line, the
 * default) and notes the clock pair the slices' ticks map from. */
OMPT_HIDDEN void ompt_spans_start(void);
/* The clock pair of the start: ticks and CLOCK_MONOTONIC ns. */
OMPT_HIDDEN void ompt_spans_origin(uint64_t *tick, uint64_t *mono);

/* A slice begun now on the calling thread's log (*log made at its first): its index, or
 * -1 (past the bound, or no memory for the log: counted as dropped either way). Ended
 * now, and relabelled, by its index. */
OMPT_HIDDEN int64_t ompt_span_begin(struct ompt_span_log **log, int kind, int region,
                                    uint64_t instance);
/* A log whose thread ended (NULL, or no log for want of memory: nothing), kept for the
 * readers: a list only ever pushed to (release), read from its head (acquire). */
OMPT_HIDDEN void ompt_spans_retire(struct ompt_span_log *log);
OMPT_HIDDEN const struct ompt_span_log *ompt_spans_retired(void);
/* A thread's log (NULL for none and for the log of a thread without memory for one). */
OMPT_HIDDEN const struct ompt_span_log *ompt_spans_log(const struct ompt_span_log *log);
/* Slices dropped by threads whose log could not be allocated. */
OMPT_HIDDEN uint64_t ompt_spans_unlogged(void);
static inline void ompt_span_end(struct ompt_span_log *log, int64_t i)
{
    if (log && i >= 0)
        atomic_store_explicit(&log->span[i].end, tick_clock(), memory_order_relaxed);
}
static inline void ompt_span_relabel(struct ompt_span_log *log, int64_t i, int kind)
{
    if (log && i >= 0)
        atomic_store_explicit(&log->span[i].kind, (int16_t)kind, memory_order_relaxed);
}

#endif
