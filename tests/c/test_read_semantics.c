/* PAPI_read / accum / reset / write semantics, exactly as the reference's text says:
 * read copies and the counters go on; accum adds into values and zeroes the counters;
 * reset zeroes; write sets. Also start zeroes and a stopped set reads its frozen values. */
#include "papi_test.h"

int main(void)
{
    init_or_die();
    int es = PAPI_NULL;
    long long v[2] = {0}, w[2];
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, "perf::PAGE-FAULTS"), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, "perf::MINOR-FAULTS"), PAPI_OK);
    warm_up();
    CHECK_RET(PAPI_start(es), PAPI_OK);

    touch_pages(100);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 100);
    CHECK_EQ_LL(v[1], 100);

    touch_pages(100); /* counters now at 200: accum adds 200 to the 100 in v */
    CHECK_RET(PAPI_accum(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 300);
    CHECK_EQ_LL(v[1], 300);

    v[0] = -100; /* counters were zeroed by accum */
    v[1] = 0;
    touch_pages(100);
    CHECK_RET(PAPI_accum(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 0);
    CHECK_EQ_LL(v[1], 100);

    touch_pages(50);
    CHECK_RET(PAPI_reset(es), PAPI_OK);
    touch_pages(25);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 25);
    CHECK_EQ_LL(v[1], 25);

    w[0] = 1000;
    w[1] = -5;
    CHECK_RET(PAPI_write(es, w), PAPI_OK);
    touch_pages(10);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 1010);
    CHECK_EQ_LL(v[1], 5);

    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 1010);
    touch_pages(40); /* not counted: stopped */
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 1010);
    CHECK_EQ_LL(v[1], 5);
    CHECK_RET(PAPI_reset(es), PAPI_OK); /* stopped: frozen values become zero */
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 0);

    CHECK_RET(PAPI_start(es), PAPI_OK); /* start counts from zero again */
    touch_pages(7);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 7);
    CHECK_EQ_LL(v[1], 7);

    /* read_ts gives a timestamp too */
    long long cyc = 0;
    CHECK_RET(PAPI_start(es), PAPI_OK);
    CHECK_RET(PAPI_read_ts(es, v, &cyc), PAPI_OK);
    CHECK(cyc > 0, "read_ts cycles %lld", cyc);
    CHECK_RET(PAPI_stop(es, NULL), PAPI_OK);

    free_set(&es);
    PAPI_shutdown();
    return test_done("test_read_semantics");
}
