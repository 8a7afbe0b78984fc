/* refuse_dwarf.c: a kernel that refuses --call-graph dwarf, for check_sample.py
 * dwarf_refused. Preloaded into papi_run (and so into the program it starts), it fails
 * every perf_event_open asking for the user registers or stack with each sample with
 * EINVAL, as a kernel without PERF_SAMPLE_REGS_USER / STACK_USER support does; every
 * other system call goes through unchanged. */
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
        if (a && (a->sample_type & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER))) {
            errno = EINVAL;
            return -1;
        }
    }
    static long (*real)(long, ...);
    if (!real)
        real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
    return real(number, arg[0], arg[1], arg[2], arg[3], arg[4], arg[5]);
}
