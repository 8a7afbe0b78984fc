/* ompt_share.c: the workers' share (ompt_share.h): relaxed atomic adds, one per event at
 * each barrier a worker reaches; the region API reads the sums on the master between
 * parallel regions. */
#include <stdatomic.h>
#include <stddef.h>

#include "ompt_counters.h"
#include "ompt_share.h"

static struct papi_ompt_share share;

void ompt_share_start(void)
{
    struct ompt_counters_info info;
    ompt_counters_describe(&info);
    share.nevents = info.nevents < PAPI_OMPT_SHARE_EVENTS ? info.nevents : PAPI_OMPT_SHARE_EVENTS;
    for (int i = 0; i < share.nevents; i++)
        share.names[i] = info.names[i];
}

struct papi_ompt_share *ompt_share_get(void)
{
    return ompt_counters_n > 0 ? &share : NULL;
}

void ompt_share_add(const uint64_t *from, const uint64_t *to)
{
    for (int i = 0; i < share.nevents; i++)
        atomic_fetch_add_explicit(&share.sums[i], to[i] - from[i], memory_order_relaxed);
}

void ompt_share_missed(void)
{
    atomic_fetch_add_explicit(&share.missed, 1, memory_order_relaxed);
}

void ompt_share_team(int delta)
{
    atomic_fetch_add_explicit(&share.teams_open, delta, memory_order_relaxed);
}

void ompt_share_thread(int begin)
{
    atomic_fetch_add_explicit(begin ? &share.threads_begun : &share.threads_ended, 1,
                              memory_order_relaxed);
}
