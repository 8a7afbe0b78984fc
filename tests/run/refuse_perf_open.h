/* refuse_perf_open.h: a preloaded syscall() that plays a kernel refusing some
 * perf_event_open calls, for the shims preloaded into papi_run (and so into the program it
 * starts). The including file defines refused(attr): the errno that call fails with, or 0
 * to let it through; every other system call goes through unchanged. */
#ifndef PAPI_TEST_REFUSE_PERF_OPEN_H
#define PAPI_TEST_REFUSE_PERF_OPEN_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <sys/syscall.h>

static int refused(const struct perf_event_attr *a);

long syscall(long number, ...)
{
    va_list ap;
    long arg[6];
    va_start(ap, number);
    for (int i = 0; i < 6; i++)
        arg[i] = va_arg(ap, long); /* the kernel's six argument registers, used or not */
    va_end(ap);
    if (number == SYS_perf_event_open && arg[0]) {
        int err = refused((const struct perf_event_attr *)arg[0]);
        if (err) {
            errno = err;
            return -1;
        }
    }
    static long (*real)(long, ...);
    if (!real)
        real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
    return real(number, arg[0], arg[1], arg[2], arg[3], arg[4], arg[5]);
}

#endif
