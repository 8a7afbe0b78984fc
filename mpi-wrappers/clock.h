/* clock.h: the two clocks of the wrapper library. pmpi_now_ns: CLOCK_MONOTONIC, for
 * the wall time of the run and of regions. pmpi_ticks: the interval timer of the hot
 * path, the TSC on x86 (about half the cost of clock_gettime here), converted to ns
 * with the ratio measured over the whole run (pmpi_ns_per_tick, record.c). */
#ifndef PAPI_MPI_CLOCK_H
#define PAPI_MPI_CLOCK_H

#include <time.h>

static inline long long pmpi_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
static inline long long pmpi_ticks(void)
{
    return (long long)__rdtsc();
}
#else
static inline long long pmpi_ticks(void)
{
    return pmpi_now_ns();
}
#endif

#endif
