/* hl_omp_share.h: all-thread totals at O(1) where the other threads are OpenMP's (issue 58
 * item 5; hl_omp_share.c): the workers' counts come from the project's OMPT tool, which
 * reads each worker's event set at its implicit tasks' begins and barriers anyway
 * (src-c/common/ompt_query.h, struct papi_ompt_share), instead of one read() per thread
 * of the process counters at every region begin and end (hl_all_threads.c). */
#ifndef HL_OMP_SHARE_H
#define HL_OMP_SHARE_H

#include "hl_state.h"

/* For a region of thread t now: 1 when the tool's share stands for every other thread of
 * the process (the tool counts the region events, every other thread is an OpenMP
 * thread it knows, no parallel region is open, no worker's span was ever left out), with
 * its sums (g_hlr's events) in sum and its count of spans left out (0) in *missed; else 0
 * (the exact path). The caller is the main thread, alone to call it. */
PAPI_INTERNAL int hlo_share_read(const struct hlr_thread *t, long long *sum,
                                 unsigned long long *missed);

#endif
