/* Every documented error of PAPI_overflow and PAPI_get_overflow_event_index, and that
 * a rejected call changes nothing. */
#include "papi_test.h"
#include "touch_sections.h"

TOUCH_FN(touch_fresh, "ovf_touch_f")

static void handler(int EventSet, void *address, long long overflow_vector, void *context)
{
    (void)EventSet;
    (void)address;
    (void)overflow_vector;
    (void)context;
}

int main(void)
{
    int pf = 0;
    /* Before PAPI_library_init. */
    CHECK(PAPI_overflow(0, pf, 100, 0, handler) != PAPI_OK, "overflow before init succeeded");
    init_or_die();
    int es = PAPI_NULL, other = PAPI_NULL, sw, minor, ctx;
    page_fault_set(&es);
    CHECK_RET(PAPI_add_named_event(es, "perf::MINOR-FAULTS"), PAPI_OK);
    CHECK_RET(PAPI_event_name_to_code("perf::PAGE-FAULTS", &pf), PAPI_OK);
    CHECK_RET(PAPI_event_name_to_code("perf::MINOR-FAULTS", &minor), PAPI_OK);
    CHECK_RET(PAPI_event_name_to_code("perf::CONTEXT-SWITCHES", &ctx), PAPI_OK);
    CHECK_RET(PAPI_event_name_to_code("perf::TASK-CLOCK", &sw), PAPI_OK);

    /* PAPI_ENOEVST */
    CHECK_RET(PAPI_overflow(12345, pf, 100, 0, handler), PAPI_ENOEVST);
    /* PAPI_ENOEVNT: not a member of the set. */
    CHECK_RET(PAPI_overflow(es, ctx, 100, 0, handler), PAPI_ENOEVNT);
    /* PAPI_EINVAL: bad threshold, bad flags, NULL handler, turning off what is not on. */
    CHECK_RET(PAPI_overflow(es, pf, -5, 0, handler), PAPI_EINVAL);
    CHECK_RET(PAPI_overflow(es, pf, 100, 0x1234, handler), PAPI_EINVAL);
    CHECK_RET(PAPI_overflow(es, pf, 100, 0, NULL), PAPI_EINVAL);
    CHECK_RET(PAPI_overflow(es, pf, 0, 0, handler), PAPI_EINVAL);
    int st;
    CHECK_RET(PAPI_state(es, &st), PAPI_OK);
    CHECK(!(st & PAPI_OVERFLOWING), "a rejected call left the set overflowing (0x%x)", st);

    /* PAPI_ECNFLCT: hardware and forced software in one set. */
    CHECK_RET(PAPI_overflow(es, pf, 100, 0, handler), PAPI_OK);
    CHECK_RET(PAPI_overflow(es, minor, 100, PAPI_OVERFLOW_FORCE_SW, handler), PAPI_ECNFLCT);
    /* and the other way round on another set */
    CHECK_RET(PAPI_create_eventset(&other), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(other, "perf::PAGE-FAULTS"), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(other, "perf::TASK-CLOCK"), PAPI_OK);
    CHECK_RET(PAPI_overflow(other, sw, 1000000, PAPI_OVERFLOW_FORCE_SW, handler), PAPI_OK);
    CHECK_RET(PAPI_overflow(other, pf, 100, 0, handler), PAPI_ECNFLCT);
    CHECK_RET(PAPI_overflow(other, sw, 0, 0, handler), PAPI_OK);
    /* The set still counts exactly after the rejected call. */
    long long v[2];
    warm_up();
    CHECK_RET(PAPI_start(es), PAPI_OK);
    /* PAPI_EISRUN */
    CHECK_RET(PAPI_overflow(es, minor, 100, 0, handler), PAPI_EISRUN);
    CHECK_RET(PAPI_overflow(es, pf, 0, 0, handler), PAPI_EISRUN);
    touch_fresh(200);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 200);
    CHECK_EQ_LL(v[1], 200);
    /* Events cannot be added or removed while overflowing (cleanup turns it off, as PAPI 7). */
    CHECK(PAPI_add_named_event(es, "perf::CONTEXT-SWITCHES") != PAPI_OK, "add while overflowing");

    /* PAPI_get_overflow_event_index */
    int idx[2], n = 2;
    CHECK_RET(PAPI_get_overflow_event_index(12345, 1, idx, &n), PAPI_ENOEVST);
    CHECK_RET(PAPI_get_overflow_event_index(es, 0, idx, &n), PAPI_EINVAL);
    CHECK_RET(PAPI_get_overflow_event_index(es, 1, NULL, &n), PAPI_EINVAL);
    CHECK_RET(PAPI_get_overflow_event_index(es, 1, idx, NULL), PAPI_EINVAL);
    n = 0;
    CHECK_RET(PAPI_get_overflow_event_index(es, 1, idx, &n), PAPI_EINVAL);
    n = 2;
    CHECK_RET(PAPI_get_overflow_event_index(es, 0x3, idx, &n), PAPI_OK);
    CHECK(n == 2 && idx[0] == 0 && idx[1] == 1, "0x3 gave n=%d [%d,%d]", n, idx[0], idx[1]);
    n = 1; /* array too short: truncated to its size */
    CHECK_RET(PAPI_get_overflow_event_index(es, 0x3, idx, &n), PAPI_OK);
    CHECK(n == 1 && idx[0] == 0, "short array gave n=%d", n);
    n = 2;
    CHECK_RET(PAPI_get_overflow_event_index(es, 0x4, idx, &n), PAPI_EINVAL);
    int empty = PAPI_NULL;
    CHECK_RET(PAPI_create_eventset(&empty), PAPI_OK);
    n = 2;
    CHECK_RET(PAPI_get_overflow_event_index(empty, 1, idx, &n), PAPI_EINVAL);
    CHECK_RET(PAPI_destroy_eventset(&empty), PAPI_OK);

    CHECK_RET(PAPI_overflow(es, pf, 0, 0, handler), PAPI_OK);
    CHECK_RET(PAPI_cleanup_eventset(es), PAPI_OK);
    CHECK_RET(PAPI_destroy_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_cleanup_eventset(other), PAPI_OK);
    CHECK_RET(PAPI_destroy_eventset(&other), PAPI_OK);
    PAPI_shutdown();
    return test_done("overflow_errors");
}
