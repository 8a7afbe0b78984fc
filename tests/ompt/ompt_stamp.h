/* ompt_stamp.h: omp_get_wtime readings a thread takes in a region and the master reads
 * after it. */
#ifndef OMPT_STAMP_H
#define OMPT_STAMP_H

#include <omp.h>

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
