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

static volatile int calls, bad_vector;

static void counting_handler(int EventSet, void *address, long long overflow_vector,
                             void *context)
{
    (void)EventSet;
    (void)address;
    (void)context;
    calls++;
    if (overflow_vector != 0x1)
        bad_vector = 1;
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
    /* Events cannot be removed while overflowing: positions would move (cleanup turns
     * overflow off, as PAPI 7). Adding is allowed; see the interleaved block below. */
    CHECK_RET(PAPI_remove_event(es, minor), PAPI_EINVAL);

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
    free_set(&es);
    free_set(&other);
    /* Added and armed interleaved, as PAPI's ctest overflow_twoevents does (PAPI 7): an
     * event may be added while another is armed; the armed one keeps position 0 (bit
     * 0x1) and counts exactly; removing stays refused. */
    int two = PAPI_NULL;
    long long c[2];
    CHECK_RET(PAPI_create_eventset(&two), PAPI_OK);
    CHECK_RET(PAPI_add_event(two, pf), PAPI_OK);
    CHECK_RET(PAPI_overflow(two, pf, 100, 0, counting_handler), PAPI_OK);
    CHECK_RET(PAPI_add_event(two, minor), PAPI_OK);
    CHECK_RET(PAPI_remove_event(two, minor), PAPI_EINVAL);
    CHECK_RET(PAPI_remove_event(two, pf), PAPI_EINVAL);
    warm_up();
    calls = 0;
    CHECK_RET(PAPI_start(two), PAPI_OK);
    touch_fresh(400);
    CHECK_RET(PAPI_stop(two, c), PAPI_OK);
    CHECK_EQ_LL(c[0], 400);
    CHECK_EQ_LL(c[1], 400);
    CHECK(calls == 4, "%d overflow calls for 400 faults at threshold 100", calls);
    CHECK(!bad_vector, "an overflow vector other than 0x1 (the armed event moved)");
    free_set(&two);

    PAPI_shutdown();
    return test_done("overflow_errors");
}
