/* ompt_constructs.h: the OpenMP constructs the tool sees inside and around parallel
 * regions (issue 73 item 2): worksharing (loop, sections, single, workshare, distribute,
 * taskloop, scope), mutual exclusion (critical, locks and nest locks by their init
 * site, ordered, atomic), explicit tasks by their creating site, the waits at taskwait,
 * taskgroup and explicit barriers by their site, reductions, masked and target regions.
 * One entry per (kind, code address, parallel region) in a fixed table that a
 * construct's first encounter fills without a lock (ompt_constructs.c), as the regions'
 * table is filled; past OMPT_CONSTRUCTS_MAX entries an encounter is counted as dropped.
 * A lock is keyed by the site that initialised it (lock_init), kept per wait id, and the
 * parallel region of the thread that sets it. */
#ifndef PAPI_OMPT_CONSTRUCTS_H
#define PAPI_OMPT_CONSTRUCTS_H

#include <stdint.h>

#include "ompt_regions.h"

#define OMPT_CONSTRUCTS_MAX 1024 /* a power of two (open addressing) */
#define OMPT_LOCK_SITES_MAX 4096 /* locks whose init site is kept, a power of two */

enum ompt_construct_kind {
    OMPT_C_LOOP = 1,
    OMPT_C_SECTIONS,
    OMPT_C_SINGLE,
    OMPT_C_WORKSHARE,
    OMPT_C_DISTRIBUTE,
    OMPT_C_TASKLOOP,
    OMPT_C_SCOPE,
    OMPT_C_CRITICAL,
    OMPT_C_LOCK,
    OMPT_C_NEST_LOCK,
    OMPT_C_ORDERED,
    OMPT_C_ATOMIC,
    OMPT_C_TASK,
    OMPT_C_TASKWAIT,
    OMPT_C_TASKGROUP,
    OMPT_C_BARRIER,
    OMPT_C_REDUCTION,
    OMPT_C_MASKED,
    OMPT_C_TARGET,
    OMPT_C_KINDS
};

/* A loop's schedules as OpenMP 5.2's work types report them (a mask: one loop site may
 * run under several, schedule(runtime)). */
enum { OMPT_SCHED_STATIC = 1, OMPT_SCHED_DYNAMIC = 2, OMPT_SCHED_GUIDED = 4, OMPT_SCHED_OTHER = 8 };

/* The kind's name in the report ("loop", "critical", ...). */
OMPT_HIDDEN const char *ompt_construct_kind_name(int kind);
/* The construct's index (0 .. OMPT_CONSTRUCTS_MAX-1) for kind at code address codeptr
 * inside parallel region region (-1: none, serial code or a lock's init site), inserted
 * at its first encounter; -1 when the table is full or the address lies past 2^48.
 * Lock-free. */
OMPT_HIDDEN int ompt_construct_index(int kind, const void *codeptr, int region);
/* Construct i's kind (0: unused), code address and parallel region (-1: none). */
OMPT_HIDDEN int ompt_construct_at(int i, uintptr_t *address, int *region);
/* A schedule seen for loop i (relaxed), and the mask seen. */
OMPT_HIDDEN void ompt_construct_add_schedule(int i, unsigned schedule);
OMPT_HIDDEN unsigned ompt_construct_schedules(int i);
/* A lock's init site: the code address of its omp_init_lock for wait id id, kept until
 * the id is initialised again; ompt_lock_site answers NULL for a lock not seen
 * initialised (made before the tool started, or past OMPT_LOCK_SITES_MAX locks).
 * Lock-free. */
OMPT_HIDDEN void ompt_lock_site_set(uint64_t id, const void *codeptr);
OMPT_HIDDEN const void *ompt_lock_site(uint64_t id);
/* The trace slice kind of a construct kind (trace_openmp.h's TRACE_OMP_LOOP ...), -1
 * for those whose waits are slices of their own (task, taskwait, taskgroup, barrier). */
OMPT_HIDDEN int ompt_construct_trace_kind(int kind);
/* Encounters of constructs past the table (relaxed), for the report's not_measured. */
OMPT_HIDDEN void ompt_construct_count_drop(void);
OMPT_HIDDEN uint64_t ompt_construct_drops(void);

#endif
