/* ompt_sleep.h: the tests' unit of work. A thread that sleeps runs user code as far as
 * OMPT can tell (useful time), and a sleep keeps its length on a loaded machine where
 * computing would not: the known answers hold under CI's load. */
#ifndef OMPT_SLEEP_H
#define OMPT_SLEEP_H

#include <time.h>

#define UNIT_MS 50

static inline void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* sleep_ms, and how long it took by the monotonic clock (ms): a loaded machine wakes a
 * sleeper late, and a test judges the tool against the work that really ran. */
static inline double sleep_ms_timed(long ms)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    sleep_ms(ms);
    clock_gettime(CLOCK_MONOTONIC, &b);
    return (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) * 1e-6;
}

#endif
