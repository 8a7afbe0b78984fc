/* PAPI_get_overflow_rate (an extension of this library): perf::TASK-CLOCK asked at
 * 100000 Hz runs at 10000 Hz (the cap of 10,000 signals a second per thread), which the
 * call says before PAPI_start, while the set runs and after PAPI_stop, and the handler is
 * called at that rate (within -20%/+10% of 10000 per second of task clock); a period of
 * 10000 ns runs every 100000 ns; a page-fault threshold and a 10 ms period run as asked;
 * each run is neither slowed nor loses a signal. Its errors: a NULL pointer, an event
 * without overflow (PAPI_EINVAL, with the reason), an event not in the set (PAPI_ENOEVNT),
 * a bad set (PAPI_ENOEVST); a refused call writes nothing. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "papi_test.h"
#include "test_perf_open.h"

static volatile int calls;

static void handler(int EventSet, void *address, long long overflow_vector, void *context)
{
    (void)EventSet, (void)address, (void)overflow_vector, (void)context;
    calls++;
}

static double thread_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void spin(double seconds)
{
    volatile double x = 1.0;
    double end = thread_cpu_seconds() + seconds;
    while (thread_cpu_seconds() < end)
        for (int i = 0; i < 100000; i++) /* user time: a sample in the kernel is dropped */
            x = x * 1.0000001 + 1e-9;
}

/* The rate of code in es is want (hz: frequency mode), not slowed, no signal lost. */
static void expect_rate(int es, int code, long long want, int want_hz, const char *when)
{
    long long rate = -1, full = -1;
    int hz = -1, slowed = -1;
    CHECK_RET(PAPI_get_overflow_rate(es, code, &rate, &hz, &slowed, &full), PAPI_OK);
    printf("%s: rate %lld%s, slowed %d, queue overflows %lld\n", when, rate, hz ? " Hz" : "",
           slowed, full);
    CHECK(rate == want && hz == want_hz, "%s: rate %lld hz %d, want %lld hz %d", when, rate, hz,
          want, want_hz);
    CHECK(slowed == 0 && full == 0, "%s: slowed %d, queue overflows %lld; want 0, 0", when, slowed,
          full);
}

static void check_errors(int es, int code)
{
    long long rate = 7, full = 7;
    int hz = 7, slowed = 7;
    /* In the set, no overflow on it yet. */
    CHECK_RET(PAPI_get_overflow_rate(es, code, &rate, &hz, &slowed, &full), PAPI_EINVAL);
    CHECK(strstr(PAPI_strerror_detail(), "does not overflow") != NULL, "reason: %s",
          PAPI_strerror_detail());
    CHECK(rate == 7 && hz == 7 && slowed == 7 && full == 7, "a refused call wrote its outputs");
    CHECK_RET(PAPI_overflow(es, code, 10000000, 0, handler), PAPI_OK);
    CHECK_RET(PAPI_get_overflow_rate(es, code, NULL, &hz, &slowed, &full), PAPI_EINVAL);
    CHECK(strstr(PAPI_strerror_detail(), "NULL") != NULL, "reason: %s", PAPI_strerror_detail());
    CHECK_RET(PAPI_get_overflow_rate(es, code, &rate, NULL, &slowed, &full), PAPI_EINVAL);
    CHECK_RET(PAPI_get_overflow_rate(es, code, &rate, &hz, NULL, &full), PAPI_EINVAL);
    CHECK_RET(PAPI_get_overflow_rate(es, code, &rate, &hz, &slowed, NULL), PAPI_EINVAL);
    CHECK_RET(PAPI_get_overflow_rate(es, PAPI_TOT_INS, &rate, &hz, &slowed, &full), PAPI_ENOEVNT);
    CHECK_RET(PAPI_get_overflow_rate(es + 1000, code, &rate, &hz, &slowed, &full), PAPI_ENOEVST);
    CHECK(rate == 7 && hz == 7 && slowed == 7 && full == 7, "a refused call wrote its outputs");
    CHECK_RET(PAPI_overflow(es, code, 0, 0, NULL), PAPI_OK);
    /* Turned off: no overflow again. */
    CHECK_RET(PAPI_get_overflow_rate(es, code, &rate, &hz, &slowed, &full), PAPI_EINVAL);
}

int main(void)
{
    init_or_die();
    int es = PAPI_NULL, code, faults;
    page_fault_set(&es);
    if (PAPI_add_named_event(es, "perf::TASK-CLOCK") != PAPI_OK)
        test_skip("perf::TASK-CLOCK does not open here");
    CHECK_RET(PAPI_event_name_to_code("perf::TASK-CLOCK", &code), PAPI_OK);
    CHECK_RET(PAPI_event_name_to_code("perf::PAGE-FAULTS", &faults), PAPI_OK);
    check_errors(es, code);

    /* A page-fault threshold: no rate known before, so none lowered. */
    CHECK_RET(PAPI_overflow(es, faults, 10, 0, handler), PAPI_OK);
    expect_rate(es, faults, 10, 0, "page faults every 10");
    CHECK_RET(PAPI_overflow(es, faults, 0, 0, NULL), PAPI_OK);

    long max = test_max_sample_rate();
    if (max < 100000) {
        printf("SKIPPED: the kernel allows %ld samples a second (perf_event_max_sample_rate), "
               "below the 100000 Hz this test asks\n",
               max);
        return TEST_SKIP_CODE;
    }
    long long v[2];
    CHECK_RET(PAPI_overflow_frequency(es, code, 100000, 0, handler), PAPI_OK);
    expect_rate(es, code, 10000, 1, "100000 Hz asked, before PAPI_start");
    CHECK_RET(PAPI_start(es), PAPI_OK);
    spin(0.5);
    expect_rate(es, code, 10000, 1, "running");
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    expect_rate(es, code, 10000, 1, "after PAPI_stop");
    double expected = (double)v[1] * 1e-9 * 10000;
    printf("100000 Hz asked: task clock %lld ns, %d calls, expected %.1f at 10000 Hz\n", v[1],
           calls, expected);
    CHECK(calls >= expected * 0.8 && calls <= expected * 1.1 + 1,
          "%d calls, expected %.1f (10000 Hz) within -20%%/+10%%", calls, expected);

    /* A clock period under 100,000 ns, and one above it. */
    CHECK_RET(PAPI_overflow(es, code, 10000, 0, handler), PAPI_OK);
    expect_rate(es, code, 100000, 0, "every 10000 ns asked");
    CHECK_RET(PAPI_overflow(es, code, 10000000, 0, handler), PAPI_OK);
    expect_rate(es, code, 10000000, 0, "every 10 ms asked");
    CHECK_RET(PAPI_overflow(es, code, 0, 0, NULL), PAPI_OK);
    return test_done("overflow_rate");
}
