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

#endif
