/* Hardware-style (perf sampling) overflow on perf::PAGE-FAULTS: threshold 100 while
 * touching 1000 fresh pages calls the handler exactly 10 times, with the bit of the
 * event's position, a PC, and exact 64-bit totals read from the overflowing set. */
#include <signal.h>

#include "papi_test.h"
#include "touch_sections.h"

TOUCH_FN(touch_fresh, "ovf_touch_f")

static volatile int calls;
static volatile long long last_vector, bad_vector;
static volatile int null_pc, wrong_set;
static int expected_set;

static void handler(int EventSet, void *address, long long overflow_vector, void *context)
{
    (void)context;
    calls++;
    last_vector = overflow_vector;
    if (overflow_vector != 0x2)
        bad_vector = overflow_vector;
    if (!address)
        null_pc = 1;
    if (EventSet != expected_set)
        wrong_set = 1;
}

int main(void)
{
    init_or_die();
    int es = PAPI_NULL;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    expected_set = es;
    /* Position 0 counts context switches, position 1 page faults: the vector bit must
     * be the position of the overflowing event (0x2), not bit 0. */
    int r = PAPI_add_named_event(es, "perf::CONTEXT-SWITCHES");
    if (r != PAPI_OK)
        test_skip("perf::CONTEXT-SWITCHES does not open here (no perf_event access)");
    CHECK_RET(PAPI_add_named_event(es, "perf::PAGE-FAULTS"), PAPI_OK);
    int code;
    CHECK_RET(PAPI_event_name_to_code("perf::PAGE-FAULTS", &code), PAPI_OK);
    CHECK_RET(PAPI_overflow(es, code, 100, 0, handler), PAPI_OK);

    int st = 0;
    CHECK_RET(PAPI_state(es, &st), PAPI_OK);
    CHECK(st & PAPI_OVERFLOWING, "state 0x%x lacks PAPI_OVERFLOWING", st);

    /* The signal the library uses is the one it announces. */
    const PAPI_component_info_t *ci = PAPI_get_component_info(0);
    CHECK(ci && ci->hardware_intr_sig > 0, "no hardware_intr_sig");

    warm_up();
    for (int round = 0; round < 3; round++) {
        long long v[2] = {0, 0};
        calls = 0;
        CHECK_RET(PAPI_start(es), PAPI_OK);
        touch_fresh(1000);
        CHECK_RET(PAPI_stop(es, v), PAPI_OK);
        CHECK_EQ_LL(v[1], 1000);
        CHECK_EQ_LL(calls, 10);
        printf("round %d: %d overflows, %lld page faults, last vector 0x%llx\n", round, calls,
               v[1], last_vector);
    }
    if (ci) {
        struct sigaction sa;
        sigaction(ci->hardware_intr_sig, NULL, &sa);
        CHECK(sa.sa_flags & SA_SIGINFO, "no SA_SIGINFO handler on signal %d",
              ci->hardware_intr_sig);
    }
    CHECK(bad_vector == 0, "handler saw vector 0x%llx", bad_vector);
    CHECK(!null_pc, "handler got a NULL address");
    CHECK(!wrong_set, "handler got another EventSet");

    /* PAPI_read while overflowing returns the running 64-bit total. */
    long long v[2];
    calls = 0;
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_fresh(250);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ_LL(v[1], 250);
    touch_fresh(250);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[1], 500);
    CHECK_EQ_LL(calls, 5);

    /* The vector decodes to position 1. */
    int idx[4], n = 4;
    CHECK_RET(PAPI_get_overflow_event_index(es, 0x2, idx, &n), PAPI_OK);
    CHECK(n == 1 && idx[0] == 1, "index decode gave n=%d idx0=%d", n, idx[0]);

    /* Threshold 0 turns it off: no more calls, state flag cleared. */
    CHECK_RET(PAPI_overflow(es, code, 0, 0, handler), PAPI_OK);
    CHECK_RET(PAPI_state(es, &st), PAPI_OK);
    CHECK(!(st & PAPI_OVERFLOWING), "state 0x%x still overflowing", st);
    calls = 0;
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_fresh(300);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[1], 300);
    CHECK_EQ_LL(calls, 0);

    free_set(&es);
    PAPI_shutdown();
    return test_done("overflow_page_faults");
}
