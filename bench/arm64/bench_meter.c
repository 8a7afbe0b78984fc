/* bench_meter: the instruction meters of bench_paths (bench_meter.h). */
#define _GNU_SOURCE
#include "bench_meter.h"
#include "exact_loop.h"

#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The virtual counter, after an isb so that it is not read ahead of what came before. */
static inline uint64_t cntvct(void)
{
    uint64_t v;
    __asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
    return v;
}

static inline uint64_t cntfrq(void)
{
    uint64_t v;
    __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(v));
    return v;
}

/* Guest instructions per CNTVCT tick: 2^shift ns per instruction, 1e9 / freq ns per tick. */
static double inst_per_tick = 1.0;

/* A raw event of the calling thread (its later threads too when inherit). */
static int raw_event(uint64_t config, int group_fd, struct perf_event_attr a)
{
    a.size = sizeof a;
    a.type = PERF_TYPE_RAW;
    a.config = config;
    a.exclude_hv = 1;
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, group_fd, 0);
}

int open_raw(uint64_t config, int group_fd, int kernel, int rdpmc_bit, uint64_t format)
{
    struct perf_event_attr a = {
        .exclude_kernel = !kernel, .disabled = group_fd < 0, .read_format = format};
    if (rdpmc_bit >= 0)
        a.config1 |= UINT64_C(1) << rdpmc_bit;
    return raw_event(config, group_fd, a);
}

static __thread int meter = -1;
/* The user instructions of the whole process, its later threads included (inherit): the
 * library empties the rings on a thread of its own. Opened before the library starts. */
static int pmeter = -1;

void pmeter_open(void)
{
    /* the user part: all of it comes from CNTVCT */
    struct perf_event_attr a = {.exclude_kernel = 1, .inherit = 1, .pinned = 1};
    pmeter = raw_event(0x08, -1, a);
}

struct meter pmeter_now(void)
{
    uint64_t v;
    if (read(pmeter, &v, sizeof v) != (ssize_t)sizeof v)
        abort();
    struct meter m = {(long long)cntvct(), (long long)v, -1};
    return m;
}

/* Pinned: always on a counter. Unpinned, a multiplexed set's rotation took the meter off
 * the PMU for part of the time, and what it missed there was missing from the costs. */
void meter_open(void)
{
    struct perf_event_attr a = {.disabled = 1, .pinned = 1, .read_format = PERF_FORMAT_GROUP};
    meter = raw_event(0x08, -1, a);
    if (meter < 0 || open_raw(0x08, meter, 0, -1, PERF_FORMAT_GROUP) < 0 ||
        ioctl(meter, PERF_EVENT_IOC_ENABLE, 0) != 0) {
        fprintf(stderr, "meter: %s\n", strerror(errno));
        exit(1);
    }
}

void meter_close(void)
{
    close(meter);
    meter = -1;
}

struct meter meter_now(void)
{
    uint64_t buf[3];
    struct meter m;
    if (read(meter, buf, sizeof buf) != (ssize_t)sizeof buf)
        abort();
    m.all = (long long)cntvct();
    m.pmu = (long long)buf[1];
    m.user = (long long)buf[2];
    return m;
}

/* ((b1 - b0) - (a1 - a0)) / n: the measured interval b less the same work without the
 * path (a), per call, signal or sample. */
struct cost cost_of(struct meter a0, struct meter a1, struct meter b0, struct meter b1, long n)
{
    struct cost r = {(double)((b1.all - b0.all) - (a1.all - a0.all)) * inst_per_tick / n,
                     (double)((b1.user - b0.user) - (a1.user - a0.user)) / n,
                     (double)((b1.pmu - b0.pmu) - (a1.pmu - a0.pmu)) / n};
    return r;
}

static __attribute__((noinline)) void op_nothing(void)
{
    __asm__ volatile("");
}

/* One loop for the path and the empty call alike: the same instructions around each call. */
static __attribute__((noinline)) void calls_of(op_fn op, int calls)
{
    for (int i = 0; i < calls; i++)
        op();
}

static long long least(long long x, long long y)
{
    return y < x ? y : x;
}

/* Fieldwise the least of x and y - x0 (an interval). */
static struct meter least_span(struct meter x, struct meter x0, struct meter y)
{
    struct meter r = {least(x.all, y.all - x0.all), least(x.user, y.user - x0.user),
                      least(x.pmu, y.pmu - x0.pmu)};
    return r;
}

/* 5 runs of the empty loop then the path: (the path's least interval - the empty loop's
 * least) per call, for each meter on its own. The kernel's timer work (multiplex rotation,
 * ticks) and, for CNTVCT, other tasks land in some intervals, never in the call's cost;
 * taking the least of each interval keeps them out of the baseline too. */
struct cost per_call_min(op_fn op, int calls)
{
    struct meter zero = {0, 0, 0}, far = {LLONG_MAX, LLONG_MAX, LLONG_MAX};
    struct meter empty = far, path = far;
    for (int r = 0; r < 5; r++) {
        struct meter a = meter_now();
        calls_of(op_nothing, calls);
        struct meter b = meter_now();
        calls_of(op, calls);
        struct meter c = meter_now();
        empty = least_span(empty, a, b);
        path = least_span(path, b, c);
    }
    return cost_of(zero, empty, zero, path, calls);
}

struct cost per_call(op_fn op)
{
    return per_call_min(op, CALLS);
}

const char *label;
int ua;

void report(const char *path, struct cost c)
{
    printf("BENCH %s ua=%d %s %.0f %.0f %.0f\n", label, ua, path, c.all, c.user, c.pmu);
}

/* A cost of the whole process (pmeter): no PMU user + kernel figure. */
void report_process(const char *path, struct cost c, long n)
{
    printf("BENCH %s ua=%d %s %.0f %.0f - (%ld)\n", label, ua, path, c.all, c.user, n);
}

__attribute__((noinline)) void spin(long n)
{
    EXACT_LOOP_2(n);
}

/* CNTVCT_EL0 must be readable from EL0 (Linux arm64 allows it; a trap would be SIGILL)
 * and, under -icount, advance by one guest instruction per 2^shift ns: its frequency
 * (CNTFRQ_EL0) and the icount shift (BENCH_ICOUNT_SHIFT, run-bench.sh's) give instructions
 * per tick, checked against the PMU over a loop of known length (2 instructions per turn):
 * the PMU's user + kernel count equals CNTVCT's there, the timer interrupts included. */
static sigjmp_buf no_timer;
static void on_sigill(int sig)
{
    (void)sig;
    siglongjmp(no_timer, 1);
}

void cntvct_check(void)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigill;
    sigaction(SIGILL, &sa, &old);
    if (sigsetjmp(no_timer, 1)) {
        fprintf(stderr, "%s: CNTVCT_EL0 is not readable from user space\n", label);
        exit(1);
    }
    uint64_t freq = cntfrq(), t0 = cntvct(), t1 = cntvct();
    sigaction(SIGILL, &old, NULL);
    const char *sh = getenv("BENCH_ICOUNT_SHIFT");
    int shift = sh && *sh ? atoi(sh) : 4;
    inst_per_tick = 1e9 / (double)freq / (double)(1 << shift);
    const long turns = 1000000;
    struct cost best = {0, 0, 0};
    for (int r = 0; r < 5; r++) {
        struct meter a = meter_now(), b = meter_now();
        spin(turns);
        struct cost c = cost_of(a, a, b, meter_now(), 1);
        if (r == 0 || c.all < best.all)
            best = c;
    }
    printf("BENCH %s ua=%d cntvct freq=%llu shift=%d inst_per_tick=%.3f back_to_back=%.0f "
           "loop_of_%ld: cntvct %.0f pmu_user %.0f pmu %.0f cntvct/pmu %.5f\n",
           label, ua, (unsigned long long)freq, shift, inst_per_tick,
           (double)(t1 - t0) * inst_per_tick, 2 * turns, best.all, best.user, best.pmu,
           best.all / best.pmu);
    /* Without -icount (or at another shift) CNTVCT is time, not instructions: no figures. */
    if (best.all < 0.99 * best.pmu || best.all > 1.01 * best.pmu) {
        printf("BENCH %s ua=%d error: CNTVCT at icount shift %d counts %.0f instructions where "
               "the PMU counts %.0f: is QEMU's -icount shift %d?\n",
               label, ua, shift, best.all, best.pmu, shift);
        exit(1);
    }
}
