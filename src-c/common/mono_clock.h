/* mono_clock.h: the one clock of the library, its tools and the MPI wrapper for times
 * that only need to be compared on this host: CLOCK_MONOTONIC in nanoseconds (never
 * steps back, async-signal-safe). Header only, inline: it is on the read paths. */
#ifndef PAPI_MONO_CLOCK_H
#define PAPI_MONO_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t mono_clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
