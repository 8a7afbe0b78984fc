/* refuse_sampling.c: a kernel that refuses to sample, for check_sample_limits.py refused.
 * Preloaded into papi_run (and so into the program it starts), it fails every
 * perf_event_open that asks for samples (a period or a frequency) with REFUSE_ERRNO, as
 * kernel.perf_event_paranoid 3 does (EACCES) or a PMU whose event cannot sample
 * (EOPNOTSUPP); counting opens and every other system call go through unchanged. Built
 * once per errno (REFUSE_ERRNO defined by the build). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <sys/syscall.h>

long syscall(long number, ...)
{
    va_list ap;
    long arg[6];
    va_start(ap, number);
    for (int i = 0; i < 6; i++)
        arg[i] = va_arg(ap, long); /* the kernel's six argument registers, used or not */
    va_end(ap);
    if (number == SYS_perf_event_open) {
        const struct perf_event_attr *a = (const struct perf_event_attr *)arg[0];
        if (a && a->sample_period != 0) { /* (sample_freq shares it) */
            errno = REFUSE_ERRNO;
            return -1;
        }
    }
    static long (*real)(long, ...);
    if (!real)
        real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
    return real(number, arg[0], arg[1], arg[2], arg[3], arg[4], arg[5]);
}
