/* A derived preset cannot be armed on one counter, so PAPI_overflow falls back to the
 * software timer for it. Test presets (tests/highlevel/test_events.csv): PAPI_TOT_CYC =
 * PAGE-FAULTS + MINOR-FAULTS, i.e. 2 per fresh page. Also: asking for hardware overflow
 * on it, or mixing it with a hardware-overflowing event, is PAPI_ECNFLCT. */
#include "overflow_count.h"
#include "papi_test.h"
#include "touch_sections.h"

TOUCH_FN(touch_fresh, "ovf_touch_f")

int main(void)
{
    init_or_die();
    int es = PAPI_NULL, pf;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    if (PAPI_query_event(PAPI_TOT_CYC) != PAPI_OK)
        test_skip("PAPI_TOT_CYC is not defined (PAPI_CSV_EVENT_FILE not set to the test presets)");
    if (PAPI_add_named_event(es, "perf::PAGE-FAULTS") != PAPI_OK)
        test_skip("perf::PAGE-FAULTS does not open here (no perf_event access)");
    CHECK_RET(PAPI_add_event(es, PAPI_TOT_CYC), PAPI_OK);
    CHECK_RET(PAPI_event_name_to_code("perf::PAGE-FAULTS", &pf), PAPI_OK);

    CHECK_RET(PAPI_overflow(es, PAPI_TOT_CYC, 20000, PAPI_OVERFLOW_HARDWARE, handler),
              PAPI_ECNFLCT);
    CHECK_RET(PAPI_overflow(es, pf, 1000, 0, handler), PAPI_OK);
    CHECK_RET(PAPI_overflow(es, PAPI_TOT_CYC, 20000, 0, handler), PAPI_ECNFLCT);
    CHECK_RET(PAPI_overflow(es, pf, 0, 0, handler), PAPI_OK);

    /* Software overflow on the derived event, checked every millisecond of CPU time. */
    PAPI_option_t opt;
    memset(&opt, 0, sizeof opt);
    opt.itimer.ns = 1000000;
    CHECK_RET(PAPI_set_opt(PAPI_DEF_ITIMER_NS, &opt), PAPI_OK);
    CHECK_RET(PAPI_overflow(es, PAPI_TOT_CYC, 20000, 0, handler), PAPI_OK);
    warm_up();
    long long v[2];
    CHECK_RET(PAPI_start(es), PAPI_OK);
    for (int i = 0; i < 10; i++)
        touch_fresh(10000);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    long long expect = v[1] / 20000;
    printf("PAPI_TOT_CYC = %lld (page faults %lld): %d overflows, at most %lld\n", v[1], v[0],
           calls, expect);
    CHECK_EQ_LL(v[0], 100000);
    CHECK_EQ_LL(v[1], 200000);
    /* One call per crossing; the crossings after the last tick before PAPI_stop are
     * not reported, so a few may be missing, never extra. */
    CHECK(calls >= expect - 2 && calls <= expect, "%d calls, expected up to %lld", calls, expect);
    CHECK(vectors == 0x2, "vector bits 0x%llx, want 0x2", vectors);
    CHECK_RET(PAPI_overflow(es, PAPI_TOT_CYC, 0, 0, handler), PAPI_OK);

    free_set(&es);
    PAPI_shutdown();
    return test_done("overflow_derived");
}
