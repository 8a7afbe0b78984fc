/* test_perf_open.h: a raw perf event of this process on any CPU, counting user space
 * only, for the tests that reach the kernel beside the library (what this kernel allows,
 * an event's mmap page). Header-only, for tests. */
#ifndef PAPI_TEST_PERF_OPEN_H
#define PAPI_TEST_PERF_OPEN_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The event's descriptor, or -1 with errno (disabled: opened stopped). */
static inline int test_perf_open(uint32_t type, uint64_t config, int disabled)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = type;
    a.config = config;
    a.disabled = disabled ? 1 : 0;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
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
