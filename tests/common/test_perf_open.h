/* test_perf_open.h: a raw perf event of this process on any CPU, counting user space (or
 * the kernel's part), for the tests that reach the kernel beside the library (what this
 * kernel allows, an event's mmap page, what a thread executes around the OMPT tool).
 * Header-only, for tests. */
#ifndef PAPI_TEST_PERF_OPEN_H
#define PAPI_TEST_PERF_OPEN_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The event's user part (kernel 0) or kernel part (1) in the calling thread: its
 * descriptor, or -1 with errno (disabled: opened stopped). */
static inline int test_perf_open_part(uint32_t type, uint64_t config, int disabled, int kernel)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = type;
    a.config = config;
    a.disabled = disabled ? 1 : 0;
    a.exclude_user = kernel ? 1 : 0;
    a.exclude_kernel = kernel ? 0 : 1;
    a.exclude_hv = 1;
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

/* The event's user part: its descriptor, or -1 with errno (disabled: opened stopped). */
static inline int test_perf_open(uint32_t type, uint64_t config, int disabled)
{
    return test_perf_open_part(type, config, disabled, 0);
}

/* An event's count, or -1 (no descriptor, a failed read). */
static inline __attribute__((unused)) long long test_perf_value(int fd)
{
    long long v = -1;
    if (fd < 0 || read(fd, &v, sizeof v) != (ssize_t)sizeof v)
        return -1;
    return v;
}

/* The kernel's limit of samples a second (perf_event_max_sample_rate), 0 when unknown. */
static inline long test_max_sample_rate(void)
{
    long v = 0;
    FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
    if (f) {
        if (fscanf(f, "%ld", &v) != 1)
            v = 0;
        fclose(f);
    }
    return v;
}

#endif
