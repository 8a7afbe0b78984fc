/* pe_types.h: an event set's perf_event state (struct cmp_context and its events and
 * groups), shared by the files that manage it (perf_context.c: open, close, start, stop,
 * overflow), read it (perf_read.c) and empty its rings (perf_sampler.c), and the direct
 * system calls of the counting paths. Types and inline functions only. Not seen outside
 * this component.
 *
 * The arrays grow with the events (a 2-event set holds two pe_events, not a fixed 128:
 * struct perf_event_attr alone is 136 bytes). */
#ifndef PE_TYPES_H
#define PE_TYPES_H

#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "component.h"
#include "perf_ring.h"
#include "thread_pointer.h"

#define PE_MAX_EVENTS 128 /* a limit on the events of one set, not an array size */

struct pe_event {
    int local;                               /* native event (table index) */
    int fd;                                  /* -1 while closed */
    int group;                               /* index into ctx->grp */
    int pos;                                 /* position in its group's read buffer */
    const struct perf_event_mmap_page *page; /* for user-space reads, or NULL */
    int time_from;                           /* user reads: -1 own times, else the last leader's */
    struct cmp_count carry; /* count and times of this slot's earlier descriptors */
    uint64_t period;        /* overflow period, 0 = counting only */
    int sampling;           /* overflows write samples into ring (set_sampling) */
    uint64_t lost_told;     /* samples the receiver was told lost (this descriptor) */
    struct pe_ring ring;    /* mapped while sampling (and open) */
    cmp_sample_fn fn;       /* where its samples go (arm_sampling) */
    void *arg;
    struct perf_event_attr attr;
};

struct pe_group {
    int leader;   /* index into ctx->ev */
    int nmembers; /* events whose .group is this one, leader included */
};

struct cmp_context {
    /* Read by every PAPI_read first: one cache line. */
    uintptr_t fast1; /* reader while running one event with user reads and nothing
                              carried, else 0: the whole test of PAPI_read's fastest path */
    const struct perf_event_mmap_page *page1; /* ev[0].page, for that path */
    uintptr_t fast_reader; /* reader while running with user reads, else 0 (hot path) */
    struct pe_event *ev;   /* n of cap */
    int n;
    int carried; /* some event carries counts of an earlier descriptor */
    int ngrp, cap;
    struct pe_group *grp; /* ngrp of cap */
    const struct papi_component *self;
    struct cmp_target target;
    pid_t pid;
    int cpu;
    int running;
    int counters;      /* the core PMU's counters (libpfm4), 0 when unknown */
    int user_read;     /* every event has a page: try the user-space read first */
    uintptr_t reader;  /* the thread whose counters these are (user reads only there) */
    int other_adder;   /* events were added by several threads: no user reads */
    int one_group;     /* one group, led by slot 0, slot i at position i, no lost counts:
                           PAPI_read without user reads is one read() into the values */
    pid_t owner_pid;   /* the process that opened it (a forked child's copy is not) */
    int sampler;       /* place in the sampler table (perf_sampler.c), -1 none */
    pid_t sampler_pid; /* the process that gave it */
    int sampling_on;   /* published to the sampler thread (running): reads empty rings */
    int resettable;    /* running, and pe_reset may use PERF_EVENT_IOC_RESET */
    int reset_fd;      /* with one group: its leader, and the flag of its reset */
    unsigned long reset_flag;
    uintptr_t frozen; /* after pe_stop of a set read from user space: its reader, whose
                           stopped counts are on the pages (perf_read.c), else 0 */
    /* NULL, or the constant table whose context callbacks own this context (a hybrid
     * machine's summed slots, hybrid_sets.c): perf_component.c and pe_read_values hand
     * every call on it there. Such a context is never started itself. */
    const struct papi_component *wrap;
};

#ifndef PERF_FORMAT_LOST
#define PERF_FORMAT_LOST (1U << 4) /* Linux 6.0 */
#endif
/* Words per member in a group read by this leader: its count, and the samples the kernel
 * lost when the leader samples into a ring (PERF_FORMAT_LOST). */
static inline int pe_group_stride(const struct pe_event *leader)
{
    return leader->attr.read_format & PERF_FORMAT_LOST ? 2 : 1;
}

/* read(2) of a perf descriptor without the C library's wrapper: in a process with more
 * than one thread, glibc's read() is a cancellation point and switches asynchronous
 * cancellation on and off around the system call, about 40 instructions a call, paid
 * per event by a multiplexed read (PAPI 7 pays them too). A counter read is not a point
 * where a thread should be cancelled anyway. Sanitizer builds keep read(): their
 * interceptors must see the buffer written. -errno on failure. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define PE_LIBC_READ 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PE_LIBC_READ 1
#endif
#if (defined(__aarch64__) || defined(__x86_64__)) && !defined(PE_LIBC_READ)
#define PE_DIRECT_SYSCALLS 1
/* A system call of three integer arguments, straight to the kernel: -errno on failure. */
static inline long pe_syscall3(long nr, long a, long b, long c)
{
#if defined(__aarch64__)
    register long x0 __asm__("x0") = a;
    register long x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c;
    register long x8 __asm__("x8") = nr;
    __asm__ volatile("svc #0" : "+r"(x0) : "r"(x1), "r"(x2), "r"(x8) : "memory");
    return x0;
#else
    long ret;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "0"(nr), "D"(a), "S"(b), "d"(c)
                     : "rcx", "r11", "memory");
    return ret;
#endif
}
#endif

static inline long pe_sys_read(int fd, void *buf, size_t len)
{
#ifdef PE_DIRECT_SYSCALLS
    return pe_syscall3(SYS_read, fd, (long)buf, (long)len);
#else
    ssize_t got = read(fd, buf, len);
    return got < 0 ? -errno : got;
#endif
}

/* ioctl(2) of a perf descriptor with an integer argument (enable, disable, reset), the
 * same way: the counting calls' system calls without the C library's wrapper and its
 * procedure-linkage call. -errno on failure. */
static inline long pe_sys_ioctl(int fd, unsigned long request, unsigned long arg)
{
#ifdef PE_DIRECT_SYSCALLS
    return pe_syscall3(SYS_ioctl, fd, (long)request, (long)arg);
#else
    return ioctl(fd, request, arg) != 0 ? -errno : 0;
#endif
}

/* perf_event_open with errno preserved. */
static inline int perf_syscall_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
                                    unsigned long flags)
{
    return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

#endif
