/* clock_shift_shim.c: preloaded by check_mpi_gpu_trace.py, a rank whose CLOCK_MONOTONIC
 * runs PAPI_TEST_CLOCK_SHIFT_NS ahead of the others' (as on another node): in the rank
 * whose launcher-given rank (PMI_RANK, OMPI_COMM_WORLD_RANK) is PAPI_TEST_CLOCK_SHIFT_RANK,
 * every CLOCK_MONOTONIC read through clock_gettime is moved by that much. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long long shift_ns(void)
{
    static long long shift = -1;
    if (shift < 0) {
        const char *want = getenv("PAPI_TEST_CLOCK_SHIFT_RANK"),
                   *ns = getenv("PAPI_TEST_CLOCK_SHIFT_NS");
        const char *rank = getenv("PMI_RANK");
        if (!rank)
            rank = getenv("OMPI_COMM_WORLD_RANK");
        shift = want && ns && rank && strcmp(want, rank) == 0 ? atoll(ns) : 0;
    }
    return shift;
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
    static int (*real)(clockid_t, struct timespec *);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "clock_gettime");
    int rc = real(id, ts);
    long long s = id == CLOCK_MONOTONIC && rc == 0 ? shift_ns() : 0;
    if (s > 0) {
        long long ns = (long long)ts->tv_nsec + s % 1000000000LL;
        ts->tv_sec += (time_t)(s / 1000000000LL + ns / 1000000000LL);
        ts->tv_nsec = (long)(ns % 1000000000LL);
    }
    return rc;
}
