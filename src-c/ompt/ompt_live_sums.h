/* ompt_live_sums.h: the tool's running sums for papi_run --interval (issue 73 item 6), in
 * the memory papi_run shares (src-c/common/ompt_live.h: the layout, its reader), written
 * by ompt_live_sums.c. Each thread writes its own slot: its useful time (outermost implicit
 * tasks, between their begin, the sync regions and their end), and as a master its
 * outermost instances' wall and team x wall time. Off (ompt_live NULL): one branch per
 * callback. */
#ifndef PAPI_OMPT_LIVE_SUMS_H
#define PAPI_OMPT_LIVE_SUMS_H

#include <stdatomic.h>
#include <stdint.h>

#include "ompt_live.h"
#include "ompt_regions.h"

OMPT_HIDDEN extern struct papi_ompt_live *ompt_live;

/* At the tool's start, after the clock's (origin: ompt_clock_origin): maps the file
 * PAPI_RUN_OMPT_LIVE_FILE names when this process is the first to claim it; a child
 * forked later writes nothing (its parent's sums are in the slots). */
OMPT_HIDDEN void ompt_live_start(uint64_t origin_ns);

/* Slot i's work under way from t (ns since the origin), and its end at t: its time
 * added when keep (a worker's join barrier reported late at its task's end: not). */
OMPT_HIDDEN void ompt_live_work_begin(int i, uint64_t t);
OMPT_HIDDEN void ompt_live_work_end(int i, uint64_t t, int keep);
/* Slot i's outermost instance forked at t with team threads, and joined at t. */
OMPT_HIDDEN void ompt_live_fork(int i, uint64_t t, unsigned team);
OMPT_HIDDEN void ompt_live_join(int i, uint64_t t);

#endif
