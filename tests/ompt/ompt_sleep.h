/* ompt_sleep.h: the tests' unit of work. A thread that sleeps runs user code as far as
 * OMPT can tell (useful time), and a sleep keeps its length on a loaded machine where
 * computing would not: the known answers hold under CI's load. */
#ifndef OMPT_SLEEP_H
#define OMPT_SLEEP_H

#include <omp.h>
#include <time.h>

#define UNIT_MS 50

static inline void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* A thread's clock reading that the master reads after the region: atomic, as the
 * runtime's join orders them but not visibly to TSan (Debian's libomp is not
 * instrumented: the TSan lane). */
static inline void stamp(double *at)
{
    double now = omp_get_wtime();
    __atomic_store(at, &now, __ATOMIC_RELAXED);
}

static inline double read_stamp(double *at)
{
    double v;
    __atomic_load(at, &v, __ATOMIC_RELAXED);
    return v;
}

#endif
