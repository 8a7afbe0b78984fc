/* ompt_share.h: the workers' share of the process's counts (src-c/common/ompt_query.h,
 * struct papi_ompt_share; ompt_share.c), for the region API's all-thread totals at O(1)
 * (issue 58 item 5): each worker adds its counts over its outermost implicit tasks at
 * every barrier's begin. Only while the counters are on. */
#ifndef PAPI_OMPT_SHARE_H
#define PAPI_OMPT_SHARE_H

#include <stdatomic.h>
#include <stdint.h>

#include "ompt_query.h"
#include "ompt_regions.h"

/* At the tool's start, after the counters': the events' names. */
OMPT_HIDDEN void ompt_share_start(void);
OMPT_HIDDEN struct papi_ompt_share *ompt_share_get(void);
/* A worker's counts from -> to added (to then becomes its next from). */
OMPT_HIDDEN void ompt_share_add(const uint64_t *from, const uint64_t *to);
OMPT_HIDDEN void ompt_share_missed(void);
/* The share itself (ompt_share.c): ompt_share_team, at every outermost fork and join
 * while counting, is inline (a call and its frame were a tenth of what counting adds per
 * region and thread in the arm64 guest, issue 73 item 1). */
OMPT_HIDDEN extern struct papi_ompt_share ompt_share_state;
static inline void ompt_share_team(int delta)
{
    atomic_fetch_add_explicit(&ompt_share_state.teams_open, delta, memory_order_relaxed);
}
OMPT_HIDDEN void ompt_share_thread(int begin);

#endif
