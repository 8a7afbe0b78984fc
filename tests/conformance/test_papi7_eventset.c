/* Event-set semantics PAPI 7's own tests rely on: reading an empty set is PAPI_ENOCMP
 * (no component to read), and PAPI_cleanup_eventset on a stopped set with overflow or
 * profiling armed turns them off and returns PAPI_OK (overflow_index,
 * overflow_twoevents); the set then counts exactly again and can be destroyed. */
#include "papi_test.h"

static volatile int overflows;

static void handler(int EventSet, void *address, long long vector, void *ctx)
{
    (void)EventSet, (void)address, (void)vector, (void)ctx;
    overflows++;
}

static void empty_set(void)
{
    int es = PAPI_NULL;
    long long v[2] = {0, 0};
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_read(es, v), PAPI_ENOCMP);
    CHECK_RET(PAPI_accum(es, v), PAPI_ENOCMP);
    CHECK_EQ_LL(v[0], 0);
    CHECK_RET(PAPI_destroy_eventset(&es), PAPI_OK);
}

/* Arms overflow (profile == 0) or profiling on perf::PAGE-FAULTS, counts, stops, then
 * cleans up without disarming: the set must come back plain and count exactly. */
static void cleanup_armed(int profile)
{
    int es = PAPI_NULL, code = 0, st = 0;
    unsigned short buckets[64];
    long long v = 0;
    code = page_fault_set(&es);
    if (profile)
        CHECK_RET(PAPI_profil(buckets, sizeof buckets, (vptr_t)0, 0x10000, es, code, 50,
                              PAPI_PROFIL_POSIX), PAPI_OK);
    else
        CHECK_RET(PAPI_overflow(es, code, 50, 0, handler), PAPI_OK);
    overflows = 0;
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_pages(200);
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    CHECK_EQ_LL(v, 200);
    if (!profile)
        CHECK(overflows == 4, "%d overflows for 200 faults at threshold 50, want 4", overflows);

    CHECK_RET(PAPI_cleanup_eventset(es), PAPI_OK);
    CHECK_RET(PAPI_state(es, &st), PAPI_OK);
    CHECK(!(st & (PAPI_OVERFLOWING | PAPI_PROFILING)), "state 0x%x after cleanup", st);
    int n = PAPI_num_events(es);
    CHECK(n == 0, "%d events after cleanup", n);

    /* Plain counting again, no handler called. */
    CHECK_RET(PAPI_add_named_event(es, "perf::PAGE-FAULTS"), PAPI_OK);
    overflows = 0;
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_pages(300);
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    CHECK_EQ_LL(v, 300);
    CHECK(overflows == 0, "%d overflows after cleanup", overflows);
    free_set(&es);
}

int main(void)
{
    init_or_die();
    warm_up();
    empty_set();
    cleanup_armed(0);
    cleanup_armed(1);
    PAPI_shutdown();
    return test_done("test_papi7_eventset");
}
