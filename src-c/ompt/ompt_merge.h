/* ompt_merge.h: the threads' slots summed into one row per parallel region and one per
 * OpenMP thread number in it (ompt_merge.c), at finalize, for the report. */
#ifndef PAPI_OMPT_MERGE_H
#define PAPI_OMPT_MERGE_H

#include <stdint.h>

#include "ompt_threads.h"

#define OMPT_REGION_SIZES 16 /* distinct team sizes a region's row keeps */

/* One OpenMP thread number of a region, over the OS threads that ran it. */
struct ompt_region_thread {
    uint64_t tasks, work_ns, barrier_ns, taskwait_ns, in_team_ns;
    uint64_t wall_ns; /* the wall time of the instances whose team had this thread */
    uint64_t counted_tasks, events[OMPT_EVENTS_MAX]; /* ompt_counters.h */
};

struct ompt_region_row {
    int index;
    uintptr_t address;
    unsigned context; /* the named and MPI_Pcontrol regions it was forked in (ompt_contexts.h) */
    uint64_t instances, wall_ns, outer_instances, outer_wall_ns;
    struct ompt_team_size sizes[OMPT_REGION_SIZES];
    int nsizes;
    uint64_t other_size_instances, other_size_wall_ns; /* sizes past OMPT_REGION_SIZES */
    unsigned team_max;                                 /* the largest team seen */
    unsigned nthreads; /* rows in threads: max(team_max, largest thread number + 1) */
    struct ompt_region_thread *threads;
    uint64_t unmeasured_tasks; /* implicit tasks of threads without a slot: in no thread */
};

struct ompt_merged {
    struct ompt_region_row *rows; /* by wall time, longest first */
    int nrows;
    uint64_t region_drops, deep_tasks, pair_drops, unmeasured_events, context_drops;
    uint64_t outer_unnamed_ns;            /* outermost instances' wall in dropped regions */
    uint64_t threads_seen, threads_ended; /* threads that had a slot (one may have had two) */
    /* Threads that found no slot (OMPT_THREADS_MAX alive at once), the implicit tasks
     * they ran (in their rows' unmeasured_tasks, or of instances not measured) and the
     * instances they forked (in no row, nor in parallel time). */
    uint64_t threads_without_slot, unmeasured_tasks, unmeasured_instances;
};

/* 0, or -1 when out of memory (m then empty). parked: also the tasks of threads parked at
 * a join barrier, whose end the runtime has not reported yet (a query between regions;
 * at finalize every end has come). */
OMPT_HIDDEN int ompt_merge(struct ompt_merged *m, int parked);
OMPT_HIDDEN void ompt_merged_free(struct ompt_merged *m);

#endif
