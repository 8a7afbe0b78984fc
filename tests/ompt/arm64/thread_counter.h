/* thread_counter.h: the calling thread's own counter of one event (perf_event_open, no
 * inherit, on any CPU), user or kernel part, for the OMPT lane tests that count what a
 * thread executes around the tool (pmu_ompt_cost.c, pmu_ompt_construct_cost.c). */
#ifndef OMPT_THREAD_COUNTER_H
#define OMPT_THREAD_COUNTER_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The event's user part (kernel 0) or kernel part (1): its fd, or -1. */
static inline int thread_counter_open(uint32_t type, uint64_t config, int kernel)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = type;
    a.config = config;
    a.exclude_user = kernel;
    a.exclude_kernel = !kernel;
    a.exclude_hv = 1;
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

/* Its count, or -1 (no counter, a failed read). */
static inline long long thread_counter_value(int fd)
{
    long long v = -1;
    if (fd < 0 || read(fd, &v, sizeof v) != (ssize_t)sizeof v)
        return -1;
    return v;
}

#endif
