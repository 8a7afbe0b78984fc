/* Granularity: PAPI_GRN_THR counts the calling thread only; PAPI_GRN_PROC (perf
 * inheritance) also counts the threads it creates while counting; PAPI_GRN_SYS counts
 * everything on one CPU (root or CAP_PERFMON only; skipped when refused). */
#include <pthread.h>

#include "papi_test.h"

static void *worker(void *arg)
{
    touch_pages(500);
    return arg;
}

static long long run(int granularity, int *status)
{
    int es = PAPI_NULL;
    long long v = -1;
    PAPI_option_t o;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    memset(&o, 0, sizeof o);
    o.granularity.eventset = es;
    o.granularity.granularity = granularity;
    *status = PAPI_set_opt(PAPI_GRANUL, &o);
    if (*status == PAPI_OK)
        *status = PAPI_add_named_event(es, "perf::PAGE-FAULTS");
    if (*status == PAPI_OK) {
        warm_up();
        CHECK_RET(PAPI_start(es), PAPI_OK);
        touch_pages(100);
        pthread_t t;
        pthread_create(&t, NULL, worker, NULL);
        pthread_join(t, NULL);
        CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    }
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    return v;
}

int main(void)
{
    init_or_die();
    int st;
    pthread_t warm; /* the first pthread_create faults in its own code and data pages */
    pthread_create(&warm, NULL, worker, NULL);
    pthread_join(warm, NULL);
    long long thr = run(PAPI_GRN_THR, &st);
    CHECK_RET(st, PAPI_OK);
    CHECK_EQ_LL(thr, 100);
    long long proc = run(PAPI_GRN_PROC, &st);
    if (st == PAPI_OK) {
        /* 100 + 500 + the new thread's own stack and TLS pages */
        CHECK(proc >= 600 && proc < 700, "process granularity counted %lld, want 600..699", proc);
    } else {
        CHECK_RET(st, PAPI_ECMP);
    }
    long long sys = run(PAPI_GRN_SYS, &st);
    if (st == PAPI_OK)
        CHECK(sys >= 0, "system granularity counted %lld", sys);
    else
        CHECK(st == PAPI_EPERM, "system granularity refused with %d", st);
    printf("thread %lld, process %lld, system(cpu 0) %lld\n", thr, proc, sys);
    PAPI_shutdown();
    return test_done("test_granularity");
}
