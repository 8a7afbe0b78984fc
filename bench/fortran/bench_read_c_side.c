/* bench_read_c_side.c: the C half of bench_fortran_read: a clock and a batch of C
 * PAPI_read calls timed exactly like the Fortran batch, so the two are comparable. */
#include <time.h>

#include "papi.h"

long long bench_now_ns(void);
long long bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* ns per PAPI_read over one batch; a failed read returns -1. */
double bench_c_read_batch(int eventset, int batch);
double bench_c_read_batch(int eventset, int batch)
{
    long long values[4];
    long long t0 = bench_now_ns();
    for (int i = 0; i < batch; i++)
        if (PAPI_read(eventset, values) != PAPI_OK)
            return -1.0;
    return (double)(bench_now_ns() - t0) / batch;
}
