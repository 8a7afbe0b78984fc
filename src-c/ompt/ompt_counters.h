/* ompt_counters.h: the events each OpenMP thread counts over its implicit tasks (issue 58
 * item 1; ompt_counters.c). The events are PAPI_OMPT_EVENTS' (papi_run sets it to its -e
 * events, or its cheap defaults), else PAPI_EVENTS' (where it is unset or empty), counted
 * as the region API counts them (the library's default domain, user mode); none named:
 * counters off, one branch per callback. Each thread counts with an event set of its own,
 * attached to the thread (as papi_run --per-thread's library: the program's own event
 * sets stay free), made at its first implicit task and read at the task's begin and at
 * the end of its work (the join barrier's begin, as work_ns). */
#ifndef PAPI_OMPT_COUNTERS_H
#define PAPI_OMPT_COUNTERS_H

#include <stdint.h>

#include "ompt_threads.h"

/* What the report says of the counters. */
struct ompt_counters_info {
    const char *source; /* "PAPI_OMPT_EVENTS", "PAPI_EVENTS", or "" (off) */
    int nevents;
    const char *names[OMPT_EVENTS_MAX];
    const char *reason; /* events left out or counters off, and why; "" when none */
    uint64_t threads_counted, threads_not_counted;
    uint64_t read_ns; /* one read of a thread's set, measured at the start; 0: not measured */
};

/* At the tool's start: the events named, checked (one line for each that cannot be
 * counted, left out). The number of events counted (0: off). */
OMPT_HIDDEN int ompt_counters_start(void);
/* Events counted (0: off): the callbacks' one branch. */
OMPT_HIDDEN extern int ompt_counters_n;
/* The calling thread's event set made and started (at its thread_begin, so that its first
 * task does not pay for it); a no-op when made or off. */
OMPT_HIDDEN void ompt_counters_thread(struct ompt_thread *th);
/* The calling thread's counts now into v[0..ompt_counters_n-1] (its event set made first
 * where thread_begin did not): 0, or -1 when the thread cannot count (in the report). */
OMPT_HIDDEN int ompt_counters_read(struct ompt_thread *th, uint64_t *v);
/* The calling thread's end: its event set stopped and destroyed (its descriptors closed),
 * so that the thread that takes its slot next makes its own. */
OMPT_HIDDEN void ompt_counters_release(struct ompt_thread *th);
OMPT_HIDDEN void ompt_counters_describe(struct ompt_counters_info *info);

#endif
