/* clock.h: the two clocks of the wrapper library. pmpi_now_ns: mono_clock.h's, for
 * the wall time of the run and of regions. pmpi_ticks: the interval timer of the hot
 * path, the TSC on x86 (about half the cost of clock_gettime here), converted to ns
 * with the ratio measured over the whole run (pmpi_ns_per_tick, record.c). */
#ifndef PAPI_MPI_CLOCK_H
#define PAPI_MPI_CLOCK_H

#include "mono_clock.h"

static inline long long pmpi_now_ns(void)
{
    return (long long)mono_clock_ns();
}

/* mono_clock.h's tick_clock: the one the OMPT tool's trace spans read too. */
static inline long long pmpi_ticks(void)
{
    return (long long)tick_clock();
}

#endif
