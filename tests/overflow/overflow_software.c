/* Software overflow (PAPI_OVERFLOW_FORCE_SW) on perf::TASK-CLOCK: a timer on the thread's
 * CPU clock compares the count with the threshold, so over T ns of CPU time with
 * threshold H the handler runs T/H times, within 20%. Also the timer interval option. */
#include <time.h>

#include "overflow_count.h"
#include "papi_test.h"

static double thread_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static volatile double sink;

static void spin(double seconds)
{
    double end = thread_cpu_seconds() + seconds;
    double x = 1.0;
    while (thread_cpu_seconds() < end)
        for (int i = 0; i < 10000; i++)
            x = x * 1.0000001 + 1e-9;
    sink = x;
}

static int check_rate(int es, int code, long long threshold, double seconds, const char *what)
{
    long long v[2];
    calls = 0;
    vectors = 0;
    CHECK_RET(PAPI_overflow(es, code, (int)threshold, PAPI_OVERFLOW_FORCE_SW, handler), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    spin(seconds);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    double expected = (double)v[1] / (double)threshold;
    printf("%s: task clock %lld ns, threshold %lld: %d calls, expected %.1f\n", what, v[1],
           threshold, calls, expected);
    CHECK(calls >= expected * 0.8 && calls <= expected * 1.2 + 1,
          "%d calls, expected %.1f within 20%%", calls, expected);
    CHECK(vectors == 0x2, "vector bits 0x%llx, want 0x2", vectors);
    CHECK_RET(PAPI_overflow(es, code, 0, 0, handler), PAPI_OK);
    return 0;
}

int main(void)
{
    init_or_die();
    int es = PAPI_NULL, code;
    page_fault_set(&es);
    code = add_or_skip(es, "perf::TASK-CLOCK");

    /* Default 10 ms timer: threshold 20 ms of CPU over 0.6 s -> about 30 calls. */
    check_rate(es, code, 20000000, 0.6, "10 ms timer");

    /* A 5 ms timer interval (PAPI_DEF_ITIMER_NS), 15 ms threshold. CPU-clock timers
     * expire on the scheduler tick and late ticks coalesce; the library then calls the
     * handler once per threshold crossed, so the rate holds under load. */
    PAPI_option_t opt;
    memset(&opt, 0, sizeof opt);
    opt.itimer.ns = 5000000;
    CHECK_RET(PAPI_set_opt(PAPI_DEF_ITIMER_NS, &opt), PAPI_OK);
    check_rate(es, code, 15000000, 0.45, "5 ms timer");

    /* No overflow left: the set counts on, no calls. */
    long long v[2];
    calls = 0;
    CHECK_RET(PAPI_start(es), PAPI_OK);
    spin(0.05);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(calls, 0);
    CHECK(v[1] > 40000000, "task clock %lld ns after 50 ms of spinning", v[1]);

    free_set(&es);
    PAPI_shutdown();
    return test_done("overflow_software");
}
