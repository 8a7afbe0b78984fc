/* timers.c: real (wall-clock) and virtual (this thread's CPU) time in cycles, us, ns. */
#include <time.h>

#include "papi_globals.h"

static long long clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static double mhz(void)
{
    static double cached;
    if (cached <= 0) {
        const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
        cached = hw && hw->mhz > 0 ? hw->mhz : 1000.0;
    }
    return cached;
}

long long PAPI_get_real_nsec(void)
{
    return clock_ns(CLOCK_MONOTONIC);
}
long long PAPI_get_real_usec(void)
{
    return clock_ns(CLOCK_MONOTONIC) / 1000;
}
long long PAPI_get_virt_nsec(void)
{
    return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}
long long PAPI_get_virt_usec(void)
{
    return clock_ns(CLOCK_THREAD_CPUTIME_ID) / 1000;
}

long long PAPI_get_real_cyc(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return (long long)__builtin_ia32_rdtsc();
#else
    return (long long)((double)clock_ns(CLOCK_MONOTONIC) * mhz() / 1000.0);
#endif
}

long long PAPI_get_virt_cyc(void)
{
    return (long long)((double)clock_ns(CLOCK_THREAD_CPUTIME_ID) * mhz() / 1000.0);
}
