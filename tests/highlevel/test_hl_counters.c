/* test_hl_counters: the 3.5 PAPI_start/read/accum/stop_counters on software events with
 * exact page-fault counts, their documented errors, per-thread state, no leaked fds. */
#include <dirent.h>
#include <pthread.h>

#include "papi_test.h"

static int ev[2];

/* The counters of ev[0] started, read at once, stopped after touching n pages: n counted. */
static void count_pages_once(long n)
{
    long long v[1] = {-1};
    CHECK_RET(PAPI_start_counters(ev, 1), PAPI_OK);
    CHECK_RET(PAPI_read_counters(v, 1), PAPI_OK);
    touch_pages(n);
    CHECK_RET(PAPI_stop_counters(v, 1), PAPI_OK);
    CHECK_EQ_LL(v[0], n);
}

static void *other_thread(void *arg)
{
    long long v[2] = {7, 7};
    (void)arg;
    /* The main thread's counters are not this thread's. */
    CHECK_RET(PAPI_read_counters(v, 2), PAPI_ENOTRUN);
    count_pages_once(30);
    return NULL;
}

int main(void)
{
    long long v[2] = {0, 0};
    warm_up();
    CHECK(PAPI_is_initialized() == PAPI_NOT_INITED, "initialised before any call");
    int n = PAPI_num_counters();
    CHECK(n >= 0, "PAPI_num_counters returned %d", n);
    CHECK(PAPI_is_initialized() == PAPI_HIGH_LEVEL_INITED,
          "PAPI_is_initialized is %d after PAPI_num_counters", PAPI_is_initialized());
    if (PAPI_event_name_to_code("perf::PAGE-FAULTS", &ev[0]) != PAPI_OK ||
        PAPI_event_name_to_code("perf::MINOR-FAULTS", &ev[1]) != PAPI_OK)
        test_skip("perf::PAGE-FAULTS or perf::MINOR-FAULTS is not known here");

    /* Nothing started yet. */
    CHECK_RET(PAPI_read_counters(v, 2), PAPI_ENOTRUN);
    CHECK_RET(PAPI_accum_counters(v, 2), PAPI_ENOTRUN);
    CHECK_RET(PAPI_stop_counters(v, 2), PAPI_ENOTRUN);
    /* Bad arguments. */
    CHECK_RET(PAPI_start_counters(NULL, 2), PAPI_EINVAL);
    CHECK_RET(PAPI_start_counters(ev, 0), PAPI_EINVAL);
    CHECK_RET(PAPI_start_counters(ev, -3), PAPI_EINVAL);
    int fds = count_fds();
    int bad[2] = {ev[0], PAPI_NATIVE_MASK | 0x3ffffff};
    int r = PAPI_start_counters(bad, 2);
    CHECK(r == PAPI_ENOEVNT, "start_counters with a bogus native returned %d", r);
    CHECK(count_fds() == fds, "fds before %d after a failed start %d", fds, count_fds());

    if (PAPI_start_counters(ev, 2) != PAPI_OK)
        test_skip("the software page-fault events do not open here");
    CHECK_RET(PAPI_start_counters(ev, 2), PAPI_EISRUN);
    CHECK_RET(PAPI_read_counters(v, 2), PAPI_OK); /* fault in the code of the calls */
    CHECK_RET(PAPI_accum_counters(v, 2), PAPI_OK);

    /* The reference's do_100events example: read resets, accum adds and resets. */
    touch_pages(100);
    CHECK_RET(PAPI_read_counters(v, 2), PAPI_OK);
    CHECK_EQ_LL(v[0], 100);
    CHECK_EQ_LL(v[1], 100);
    touch_pages(100);
    CHECK_RET(PAPI_accum_counters(v, 2), PAPI_OK);
    CHECK_EQ_LL(v[0], 200);
    CHECK_EQ_LL(v[1], 200);
    v[0] = -100;
    touch_pages(100);
    CHECK_RET(PAPI_accum_counters(v, 2), PAPI_OK);
    CHECK_EQ_LL(v[0], 0);
    CHECK_EQ_LL(v[1], 300);

    /* Bad input changes nothing. */
    long long keep[2] = {11, 22};
    CHECK_RET(PAPI_read_counters(keep, 1), PAPI_EINVAL);
    CHECK_RET(PAPI_read_counters(NULL, 2), PAPI_EINVAL);
    CHECK_RET(PAPI_accum_counters(keep, -1), PAPI_EINVAL);
    CHECK(keep[0] == 11 && keep[1] == 22, "values changed by a failed call");
    CHECK_RET(PAPI_stop_counters(keep, 1), PAPI_EINVAL);
    /* Rate calls refuse counters started by something else. */
    float rt, pt, rate;
    long long c;
    CHECK_RET(PAPI_flops(&rt, &pt, &c, &rate), PAPI_EINVAL);
    CHECK_RET(PAPI_ipc(&rt, &pt, &c, &rate), PAPI_EINVAL);
    CHECK_RET(PAPI_flops_rate(PAPI_FP_OPS, &rt, &pt, &c, &rate), PAPI_EINVAL);
    CHECK_RET(PAPI_rate_stop(), PAPI_EINVAL);

    /* Per-thread state. */
    pthread_t t;
    pthread_create(&t, NULL, other_thread, NULL);
    pthread_join(t, NULL);

    /* The counters kept running through all of that; the reset was at the last accum. */
    CHECK_RET(PAPI_read_counters(v, 2), PAPI_OK);
    touch_pages(50);
    long long big[4] = {-1, -1, -1, -1};
    CHECK_RET(PAPI_stop_counters(big, 4), PAPI_OK);
    CHECK_EQ_LL(big[0], 50);
    CHECK_EQ_LL(big[1], 50);
    CHECK(big[2] == -1 && big[3] == -1, "stop_counters wrote past the event count");
    CHECK_RET(PAPI_read_counters(v, 2), PAPI_ENOTRUN);
    CHECK_RET(PAPI_stop_counters(v, 2), PAPI_ENOTRUN);

    /* And start again after a stop. */
    count_pages_once(10);
    CHECK(count_fds() == fds, "fds before %d after stop %d", fds, count_fds());
    CHECK(PAPI_is_initialized() & PAPI_HIGH_LEVEL_INITED, "high-level bit lost");
    return test_done("test_hl_counters");
}
