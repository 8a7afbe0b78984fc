/* hl_clock.h: the high-level calls' wall clock (CLOCK_MONOTONIC in ns), one inline
 * read shared by the sessions, the regions, the time series and the trace. Not
 * installed. */
#ifndef HL_CLOCK_H
#define HL_CLOCK_H

#include <time.h>

static inline long long hl_real_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

#endif
