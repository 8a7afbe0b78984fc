/* trace_openmp.h: a process's OpenMP slices (what the project's OMPT tool, src-c/ompt,
 * logs per thread when a trace is asked for) as regions on its OS threads' tracks, the
 * one home of what the three trace writers share (the region API's PAPI_TRACE, the MPI
 * wrapper's PAPI_MPI_TRACE, papi_run --trace): the spans' form and names, their clock
 * map, their order (each worker's late end cut at its parallel region's end, every
 * slice nested inside the one around it on its thread), the walk that turns them into
 * enter/leave pairs, their addition to a trace builder, and their file form, by which the
 * tool in papi_run's child hands them to papi_run (trace_openmp.c). Not installed. */
#ifndef TRACE_OPENMP_H
#define TRACE_OPENMP_H

#include <stddef.h>
#include <stdint.h>

#include "trace_writer.h"

/* A slice's kind; TRACE_OMP_PARALLEL is the parallel region, named by its name index. */
enum trace_omp_kind {
    TRACE_OMP_PARALLEL = 0, /* the forking thread's: parallel_begin .. parallel_end */
    TRACE_OMP_IMPLICIT,     /* "implicit task" */
    TRACE_OMP_BARRIER,      /* "barrier": a barrier inside the region */
    TRACE_OMP_JOIN,         /* "join": the region's implicit barrier at its end */
    TRACE_OMP_TASKWAIT,     /* "taskwait" */
    TRACE_OMP_TASKGROUP,    /* "taskgroup" (its end's wait) */
    TRACE_OMP_EXPLICIT,     /* "explicit task": an explicit task run by the thread */
    /* The constructs (issue 73), each named "ROLE function (file:line)" by its name index
     * (trace_region_type.h's roles, in their order). */
    TRACE_OMP_LOOP,
    TRACE_OMP_SECTIONS,
    TRACE_OMP_SINGLE,
    TRACE_OMP_WORKSHARE,
    TRACE_OMP_CRITICAL,
    TRACE_OMP_LOCK,
    TRACE_OMP_ORDERED,
    TRACE_OMP_ATOMIC,
    TRACE_OMP_REDUCTION,
    TRACE_OMP_MASKED,
    TRACE_OMP_TARGET,
    TRACE_OMP_KINDS
};

#define TRACE_OMP_NAME_LEN 320 /* "function (file:line)", as the tool's file names it */
/* The most names one process's slices take: its parallel regions and constructs (the
 * tool's tables, ompt_regions.h's and ompt_constructs.h's 1024 each) and the kinds'. */
#define TRACE_OMP_MAX_NAMES (2048 + TRACE_OMP_KINDS)

/* One slice: on OS thread `thread`, start .. end (ticks of mono_clock.h's tick_clock
 * until trace_omp_spans_to_mono), of instance `instance` of a parallel region (the same
 * number on the region's slice and its team's; 0: none known), kind, and for
 * TRACE_OMP_PARALLEL and the constructs' kinds its name index (-1: named by its kind). */
struct trace_omp_span {
    uint64_t start, end, instance;
    uint32_t thread;
    int16_t kind;
    int16_t pad;
    int32_t name;
};

/* A process's slices (several processes' after a load of their file), and its clock:
 * ticks t map to ns of CLOCK_MONOTONIC by the line through (tick0, mono0) and
 * (tick1, mono1) (both pairs read by the tool: its start and the moment it handed the
 * slices over). */
struct trace_omp_spans {
    struct trace_omp_span *span;
    size_t n, cap;
    char (*name)[TRACE_OMP_NAME_LEN];
    int nnames, names_cap;
    uint64_t dropped; /* slices past a thread's log (PAPI_OMPT_TRACE_SPANS) or without one
                       * (no memory): not in span */
    uint64_t tick0, mono0, tick1, mono1;
    int mono; /* 1: start and end are CLOCK_MONOTONIC ns already */
};

/* The name of a kind ("implicit task", "join", ...; "parallel region" for the kind of a
 * region without a name). */
TW_HIDDEN const char *trace_omp_kind_name(int kind);
/* A region name's index in s (cut to fit; a newline becomes a space), or -1. */
TW_HIDDEN int trace_omp_spans_name(struct trace_omp_spans *s, const char *name);
/* One slice appended: 0, or -1 when out of memory. */
TW_HIDDEN int trace_omp_spans_push(struct trace_omp_spans *s, const struct trace_omp_span *sp);
/* Tick t of s's clock in CLOCK_MONOTONIC ns, and every slice moved to it (mono = 1). */
TW_HIDDEN uint64_t trace_omp_tick_to_mono(const struct trace_omp_spans *s, uint64_t t);
TW_HIDDEN void trace_omp_spans_to_mono(struct trace_omp_spans *s);
/* The slices made ready to write, whatever their clock: each slice of an instance that
 * ends after its parallel region's slice cut at that end (a worker's join barrier and
 * implicit task end only at the team's next fork in LLVM's libomp), then per thread in
 * time order, outer before inner, each one cut to lie inside the one open around it. */
TW_HIDDEN void trace_omp_spans_order(struct trace_omp_spans *s);
/* s's slices (ordered) as a properly nested sequence per thread: fn(ctx, ts, thread,
 * enter, slice) for each slice's enter and leave, every thread's in time order (at one
 * time a leave before an enter). */
typedef void (*trace_omp_emit)(void *ctx, uint64_t ts, uint32_t thread, int enter,
                               const struct trace_omp_span *sp);
/* A slice's name: its region's for a named parallel region, else its kind's. */
TW_HIDDEN const char *trace_omp_span_name(const struct trace_omp_spans *s,
                                          const struct trace_omp_span *sp);
TW_HIDDEN void trace_omp_spans_walk(const struct trace_omp_spans *s, trace_omp_emit fn, void *ctx);
/* Each slice (mono, ordered) a region entered and left on its thread's track of w, and
 * s's dropped slices counted as w's dropped records (two each; so are slices that find
 * no room). 0, or -1 when a name found no memory. */
TW_HIDDEN int trace_omp_spans_add(struct trace_writer *w, const struct trace_omp_spans *s);
TW_HIDDEN void trace_omp_spans_free(struct trace_omp_spans *s);
/* One line on stderr, "who: N OpenMP slices past a thread's PAPI_OMPT_TRACE_SPANS (or
 * without memory for its log) not traced", when s dropped any. */
TW_HIDDEN void trace_omp_say_dropped(const char *who, const struct trace_omp_spans *s);

/* The file form (times in CLOCK_MONOTONIC ns: trace_omp_spans_to_mono first): a block per
 * process appended with one write to fd (opened O_APPEND): "omp_spans PID NAMES SPANS
 * DROPPED", then a line "n NAME" per name and "s THREAD KIND NAME START END INSTANCE" per
 * slice. 0, or -1 (errno). */
TW_HIDDEN int trace_omp_spans_save(int fd, long pid, const struct trace_omp_spans *s);
/* Every block of the file at path appended to s (names renumbered, mono), then ordered.
 * 0, 1 when the file does not exist, or -1 with why (the file, the line, what is wrong;
 * s then holds the blocks before it). */
TW_HIDDEN int trace_omp_spans_load(const char *path, struct trace_omp_spans *s, char *why,
                                   size_t whylen);

/* The tool's export (src-c/ompt/ompt_tool.c), found by ompt_query_lookup: this process's
 * slices so far (ticks, with the clock pairs; open slices end now), not ordered. 0, or
 * -1 (s empty) for another version, when the tool records no slices, in a forked child
 * or out of memory. The caller frees s with trace_omp_spans_free (the same allocator:
 * the tool and its callers share the C library). */
#define TRACE_OMP_QUERY_VERSION 1
typedef int (*trace_omp_query_fn)(unsigned version, struct trace_omp_spans *s);

#endif
