/* bench_meter: what bench_paths counts with. all = every guest instruction, kernel and
 * other tasks included: the virtual counter CNTVCT_EL0 under QEMU's -icount (one tick per
 * instruction at shift 4 and 62.5 MHz; cntvct_check verifies it). user and pmu = the
 * calling thread's user, and user + kernel, instructions from a pinned raw INST_RETIRED
 * group (the PMU misses what the kernel does while the arm64 driver has the PMU stopped).
 * The process meter (pmeter) counts the user part of the whole process, threads included. */
#ifndef BENCH_METER_H
#define BENCH_METER_H

#include <linux/perf_event.h>
#include <stdint.h>

#define CALLS 1000
#define GROUP_FORMAT \
    (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

struct meter {
    long long all, user, pmu; /* CNTVCT ticks; PMU user; PMU user + kernel (-1: none) */
};

struct cost {
    double all, user, pmu; /* per call: instructions */
};

typedef void (*op_fn)(void);

extern const char *label; /* the library's label: ours, papi7.0, papi7.2 */
extern int ua;            /* kernel.perf_user_access */

int open_raw(uint64_t config, int group_fd, int kernel, int rdpmc_bit, uint64_t format);
void meter_open(void); /* this thread's meter */
void meter_close(void);
struct meter meter_now(void);
void pmeter_open(void); /* before the library starts threads */
struct meter pmeter_now(void);
/* ((b1 - b0) - (a1 - a0)) / n: interval b less the same work without the path (a). */
struct cost cost_of(struct meter a0, struct meter a1, struct meter b0, struct meter b1, long n);
struct cost per_call_min(op_fn op, int calls); /* of 5 runs, each meter its least */
struct cost per_call(op_fn op);                /* per_call_min of CALLS */
void report(const char *path, struct cost c);
void report_process(const char *path, struct cost c, long n);
void spin(long n); /* 2n user instructions */
void cntvct_check(void);

#endif
