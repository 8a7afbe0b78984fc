/* ompt_callbacks.h: the tool's callbacks (ompt_callbacks.c), which ompt_tool.c registers
 * with the runtime, and the clock they share with the report. */
#ifndef PAPI_OMPT_CALLBACKS_H
#define PAPI_OMPT_CALLBACKS_H

#include "ompt_api.h"
#include "ompt_regions.h"

/* The table the tool registers: the event, its callback, its name (for the message when
 * the runtime will not call it). */
struct ompt_callback_entry {
    ompt_callbacks_t event;
    ompt_callback_t callback;
    const char *name;
    int detail; /* a construct's (1): declined, it is listed in the report, not on stderr */
};
OMPT_HIDDEN extern const struct ompt_callback_entry ompt_callback_table[];
OMPT_HIDDEN extern const int ompt_callback_count;

/* Told by the tool after registering: whether the runtime calls sync_region_wait (without
 * it a barrier's wait is the whole barrier region) and sync_region (without it the join
 * barrier cannot be told apart: a worker's work then runs to its late task end). */
OMPT_HIDDEN void ompt_callbacks_support(int sync_region, int sync_region_wait);
/* A thread parked at its join barrier between regions, whose task end the runtime reports
 * only at the next fork (libomp's workers): what that end will add to its accumulator,
 * into add (its region and thread number set), its state left as it is. 0, or -1 when
 * its top task is not at a join barrier. For a query between regions (MPI_Finalize). */
struct ompt_thread;
struct ompt_acc;
OMPT_HIDDEN int ompt_parked_task(const struct ompt_thread *th, struct ompt_acc *add);
/* The clock's origin (the runtime's start, initialize) and now, in ns. */
OMPT_HIDDEN void ompt_clock_start(void);
OMPT_HIDDEN uint64_t ompt_clock_origin(void);

#endif
