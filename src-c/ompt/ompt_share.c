/* ompt_share.c: the workers' share (ompt_share.h): relaxed atomic adds, one per event at
 * each barrier a worker reaches; the region API reads the sums on the master between
 * parallel regions. */
#include <stdatomic.h>
#include <stddef.h>

#include "ompt_counters.h"
#include "ompt_share.h"

struct papi_ompt_share ompt_share_state;

void ompt_share_start(void)
{
    struct ompt_counters_info info;
    ompt_counters_describe(&info);
    ompt_share_state.nevents =
        info.nevents < PAPI_OMPT_SHARE_EVENTS ? info.nevents : PAPI_OMPT_SHARE_EVENTS;
    for (int i = 0; i < ompt_share_state.nevents; i++)
        ompt_share_state.names[i] = info.names[i];
}

struct papi_ompt_share *ompt_share_get(void)
{
    return ompt_counters_n > 0 ? &ompt_share_state : NULL;
}

void ompt_share_add(const uint64_t *from, const uint64_t *to)
{
    for (int i = 0; i < ompt_share_state.nevents; i++)
        atomic_fetch_add_explicit(&ompt_share_state.sums[i], to[i] - from[i], memory_order_relaxed);
}

void ompt_share_missed(void)
{
    atomic_fetch_add_explicit(&ompt_share_state.missed, 1, memory_order_relaxed);
}

void ompt_share_thread(int begin)
{
    atomic_fetch_add_explicit(begin ? &ompt_share_state.threads_begun
                                    : &ompt_share_state.threads_ended,
                              1, memory_order_relaxed);
}
