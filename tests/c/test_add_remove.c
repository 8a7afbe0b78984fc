/* Adding and removing events while keeping exact counts: removing the group leader,
 * a shared native between two names, partial success of PAPI_add_events. */
#include "papi_test.h"

int main(void)
{
    init_or_die();
    int es = PAPI_NULL, pf, minf, faults, bad = PAPI_NATIVE_MASK | 0xFFFFF;
    long long v[3];
    CHECK_RET(PAPI_event_name_to_code("perf::PAGE-FAULTS", &pf), PAPI_OK);
    CHECK_RET(PAPI_event_name_to_code("perf::MINOR-FAULTS", &minf), PAPI_OK);
    CHECK_RET(PAPI_event_name_to_code("perf::FAULTS", &faults), PAPI_OK);
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);

    int list[4] = {pf, minf, bad, faults};
    CHECK_RET(PAPI_add_events(es, list, 4), 2); /* two added before the bad one */
    CHECK_EQ_LL(PAPI_num_events(es), 2);
    CHECK_RET(PAPI_add_event(es, pf), PAPI_ECNFLCT); /* already there */
    CHECK_EQ_LL(PAPI_num_events(es), 2);

    CHECK_RET(PAPI_remove_event(es, pf), PAPI_OK); /* the leader */
    CHECK_RET(PAPI_remove_event(es, pf), PAPI_EINVAL);
    CHECK_RET(PAPI_add_event(es, faults), PAPI_OK);
    int got[3], n = 3;
    CHECK_RET(PAPI_list_events(es, got, &n), PAPI_OK);
    CHECK_EQ_LL(n, 2);
    CHECK_EQ_LL(got[0], minf);
    CHECK_EQ_LL(got[1], faults);

    warm_up();
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_pages(64);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 64);
    CHECK_EQ_LL(v[1], 64);

    int rm[2] = {minf, faults};
    CHECK_RET(PAPI_remove_events(es, rm, 2), PAPI_OK);
    CHECK_EQ_LL(PAPI_num_events(es), 0);
    CHECK_RET(PAPI_add_named_event(es, "perf::PAGE-FAULTS"), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_pages(9);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 9);

    /* query and named variants */
    CHECK_RET(PAPI_query_named_event("perf::PAGE-FAULTS"), PAPI_OK);
    CHECK_RET(PAPI_query_named_event("perf::NO-SUCH-EVENT"), PAPI_ENOEVNT);
    CHECK_RET(PAPI_remove_named_event(es, "perf::PAGE-FAULTS"), PAPI_OK);
    CHECK_RET(PAPI_destroy_eventset(&es), PAPI_OK);
    PAPI_shutdown();
    return test_done("test_add_remove");
}
