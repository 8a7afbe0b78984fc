/* PAPI_overflow_frequency and PAPI_get_overflow_callchain (extensions of this library) on
 * perf::TASK-CLOCK: frequency mode calls the handler hz times per second of the thread's
 * CPU time (the kernel turns the frequency of a software clock into the period 1e9/hz ns:
 * within 10%); the call chain in the handler holds the interrupted function, its caller and
 * the caller's caller (dladdr on the exported functions of this program); bad frequencies,
 * a derived preset (the test presets of PAPI_CSV_EVENT_FILE) and software overflow are
 * refused with their reasons and change nothing; PAPI_overflow takes the event back
 * afterwards as before. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "papi_test.h"
#include "test_perf_open.h"

#define MAX_CHAINS 4096
#define MAX_DEPTH  32

static volatile int calls, chain_errors, last_depth;
static void *chains[MAX_CHAINS][MAX_DEPTH];
static int depths[MAX_CHAINS];

static void handler(int EventSet, void *address, long long overflow_vector, void *context)
{
    (void)EventSet;
    (void)overflow_vector;
    (void)context;
    int i = calls++;
    if (i >= MAX_CHAINS)
        return;
    int n = PAPI_get_overflow_callchain(chains[i], MAX_DEPTH);
    if (n < 1 || chains[i][0] != address)
        chain_errors++;
    depths[i] = n;
    last_depth = n;
}

static double thread_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

volatile double sink;

/* Exported (the test is linked with -rdynamic) so dladdr names them. ovf_heavy makes a
 * call so that it has a frame of its own (a leaf may go without one even with
 * -fno-omit-frame-pointer, and then its caller is not in the walk: the limit of frame
 * pointers, the kernel's walk has it too). */
__attribute__((noinline)) double ovf_step(double x)
{
    return x * 0.5 + 1.0;
}

__attribute__((noinline)) void ovf_heavy(void)
{
    double x = sink;
    for (int i = 0; i < 200000; i++)
        x = x * 1.0000001 + 1e-9;
    sink = ovf_step(x);
}

__attribute__((noinline)) void ovf_caller(double seconds)
{
    double end = thread_cpu_seconds() + seconds;
    while (thread_cpu_seconds() < end)
        ovf_heavy();
}

__attribute__((noinline)) void ovf_outer(double seconds)
{
    ovf_caller(seconds);
    sink += 1.0;
}

static const char *name_of(void *pc)
{
    Dl_info info;
    if (dladdr(pc, &info) && info.dli_sname)
        return info.dli_sname;
    return "?";
}

static void check_chains(int n)
{
    int in_heavy = 0, with_caller = 0, with_outer = 0;
    for (int i = 0; i < n && i < MAX_CHAINS; i++) {
        if (depths[i] < 1 || strcmp(name_of(chains[i][0]), "ovf_heavy") != 0)
            continue;
        in_heavy++;
        int caller = 0, outer = 0;
        for (int k = 1; k < depths[i]; k++) {
            caller |= strcmp(name_of(chains[i][k]), "ovf_caller") == 0;
            outer |= strcmp(name_of(chains[i][k]), "ovf_outer") == 0;
        }
        with_caller += caller;
        with_outer += outer;
        if (i == 0 || (caller && outer && in_heavy == 1)) {
            printf("chain of sample %d:", i);
            for (int k = 0; k < depths[i]; k++)
                printf(" %s(%p)", name_of(chains[i][k]), chains[i][k]);
            printf("\n");
        }
    }
    printf("%d samples in ovf_heavy: %d with ovf_caller, %d with ovf_outer in the chain\n",
           in_heavy, with_caller, with_outer);
    CHECK(in_heavy >= n / 2, "only %d of %d samples in ovf_heavy", in_heavy, n);
    /* A sample in ovf_heavy's first or last instructions (its frame not set up) misses
     * ovf_caller: allow 10%. */
    CHECK(with_caller >= in_heavy * 9 / 10, "%d of %d chains hold ovf_caller", with_caller,
          in_heavy);
    CHECK(with_outer >= in_heavy * 9 / 10, "%d of %d chains hold ovf_outer", with_outer, in_heavy);
}

static void check_refusals(int es, int code)
{
    long max_rate = test_max_sample_rate();
    CHECK_RET(PAPI_overflow_frequency(es, code, 0, 0, handler), PAPI_EINVAL);
    CHECK(strstr(PAPI_strerror_detail(), "at least 1") != NULL, "reason: %s",
          PAPI_strerror_detail());
    CHECK_RET(PAPI_overflow_frequency(es, code, -5, 0, handler), PAPI_EINVAL);
    if (max_rate > 0 && max_rate < 0x7fffffff) {
        CHECK_RET(PAPI_overflow_frequency(es, code, (int)max_rate + 1, 0, handler), PAPI_EINVAL);
        char want[64];
        snprintf(want, sizeof want, "limit of %ld samples", max_rate);
        CHECK(strstr(PAPI_strerror_detail(), want) != NULL &&
                  strstr(PAPI_strerror_detail(), "perf_event_max_sample_rate") != NULL,
              "reason: %s", PAPI_strerror_detail());
    }
    CHECK_RET(PAPI_overflow_frequency(es, code, 100, PAPI_OVERFLOW_FORCE_SW, handler),
              PAPI_ENOSUPP);
    CHECK(strstr(PAPI_strerror_detail(), "PAPI_OVERFLOW_FORCE_SW") != NULL, "reason: %s",
          PAPI_strerror_detail());
    CHECK_RET(PAPI_overflow_frequency(es, code, 100, 0, NULL), PAPI_EINVAL);
    /* A derived preset (the test presets: PAPI_TOT_CYC = PAGE-FAULTS + MINOR-FAULTS) has no
     * single counter the kernel could sample. */
    if (PAPI_add_event(es, PAPI_TOT_CYC) == PAPI_OK) {
        CHECK_RET(PAPI_overflow_frequency(es, PAPI_TOT_CYC, 100, 0, handler), PAPI_ENOSUPP);
        CHECK(strstr(PAPI_strerror_detail(), "derived from several counters") != NULL, "reason: %s",
              PAPI_strerror_detail());
        CHECK_RET(PAPI_remove_event(es, PAPI_TOT_CYC), PAPI_OK);
    } else {
        CHECK(0, "PAPI_TOT_CYC (a derived test preset) cannot be added");
    }
    CHECK_RET(PAPI_overflow_frequency(es, PAPI_TOT_INS, 100, 0, handler), PAPI_ENOEVNT);
    CHECK_RET(PAPI_overflow_frequency(es + 1000, code, 100, 0, handler), PAPI_ENOEVST);
    /* The internal frequency flag is no public flag of PAPI_overflow. */
    CHECK_RET(PAPI_overflow(es, code, 1000000, 0x40000000, handler), PAPI_EINVAL);
    int status = 0;
    CHECK_RET(PAPI_state(es, &status), PAPI_OK);
    CHECK(!(status & PAPI_OVERFLOWING), "a refused call left the set overflowing (0x%x)", status);
}

int main(void)
{
    init_or_die();
    int es = PAPI_NULL, code;
    page_fault_set(&es);
    code = add_or_skip(es, "perf::TASK-CLOCK");

    void *pcs[4];
    CHECK_RET(PAPI_get_overflow_callchain(pcs, 4), PAPI_EINVAL); /* not in a handler */
    CHECK(strstr(PAPI_strerror_detail(), "overflow handler only") != NULL, "reason: %s",
          PAPI_strerror_detail());
    check_refusals(es, code);

    /* 250 Hz over 1.2 s of CPU: the handler runs 250 times per task-clock second. */
    const int hz = 250;
    long long v[2];
    CHECK_RET(PAPI_overflow_frequency(es, code, hz, 0, handler), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    ovf_outer(1.2);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    double expected = (double)v[1] * 1e-9 * hz;
    printf("frequency %d Hz: task clock %lld ns, %d calls, expected %.1f (%.1f%% off)\n", hz, v[1],
           calls, expected, 100.0 * (calls - expected) / expected);
    CHECK(calls >= expected * 0.9 && calls <= expected * 1.1 + 1,
          "%d calls, expected %.1f within 10%%", calls, expected);
    CHECK(chain_errors == 0, "%d chains failed or did not start at the handler's address",
          chain_errors);
    check_chains(calls);

    /* A second start, same frequency: the period is not restarted as a count. */
    calls = 0;
    CHECK_RET(PAPI_start(es), PAPI_OK);
    ovf_outer(0.4);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    expected = (double)v[1] * 1e-9 * hz;
    printf("second start: %lld ns, %d calls, expected %.1f\n", v[1], calls, expected);
    CHECK(calls >= expected * 0.85 && calls <= expected * 1.15 + 1,
          "%d calls, expected %.1f within 15%%", calls, expected);

    /* PAPI_overflow turns it off, and takes the event back with a plain period. */
    CHECK_RET(PAPI_overflow(es, code, 0, 0, NULL), PAPI_OK);
    CHECK_RET(PAPI_overflow(es, code, 10000000, 0, handler), PAPI_OK); /* every 10 ms */
    calls = 0;
    CHECK_RET(PAPI_start(es), PAPI_OK);
    ovf_outer(0.3);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    expected = (double)v[1] / 10000000.0;
    printf("PAPI_overflow after: %lld ns, %d calls, expected %.1f\n", v[1], calls, expected);
    CHECK(calls >= expected * 0.85 - 1 && calls <= expected * 1.15 + 1, "%d calls, expected %.1f",
          calls, expected);
    CHECK_RET(PAPI_overflow(es, code, 0, 0, NULL), PAPI_OK);
    return test_done("overflow_frequency");
}
