/* pmu_counter_limit: the emulated PMUv3 has 6 event counters plus the cycle counter.
 * Seven events that need event counters in one (non-multiplexed) set must fail with
 * PAPI_ECNFLCT at PAPI_add_event or PAPI_start, never count silently wrong; six fit and
 * count exactly, and CPU_CYCLES still fits beside them on the cycle counter. */

#include "pmu_hw.h"

#define N 1000000L

int main(void)
{
    init_or_die();
    pmu_require_hw();
    const int shift = pmu_icount_shift();
    char names[8][PAPI_MAX_STR_LEN];
    long long v[9];
    int status = 0, fds0 = count_fds();
    if (pmu_counter_events(names, 8) < 8)
        test_skip("fewer than 8 core PMU events known to libpfm4");

    /* Seven event-counter events: ECNFLCT at the 7th add or at start. */
    int es = PAPI_NULL, add_ret = PAPI_OK, start_ret = PAPI_OK, added = 0;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    for (int i = 0; i < 7 && add_ret == PAPI_OK; i++)
        if ((add_ret = PAPI_add_named_event(es, names[i])) == PAPI_OK)
            added++;
    if (add_ret == PAPI_OK)
        start_ret = PAPI_start(es);
    CHECK(add_ret == PAPI_ECNFLCT || start_ret == PAPI_ECNFLCT,
          "7 events on 6 counters: add returned %d, start returned %d (want PAPI_ECNFLCT)", add_ret,
          start_ret);
    CHECK(add_ret == PAPI_OK || added == 6, "the failed add changed the set (%d events)", added);
    CHECK_RET(PAPI_state(es, &status), PAPI_OK);
    CHECK(!(status & PAPI_RUNNING), "set is running after PAPI_ECNFLCT (state 0x%x)", status);
    printf("pmu_counter_limit: 7 counter events -> add %s, start %s\n",
           add_ret == PAPI_OK ? "ok" : PAPI_strerror(add_ret),
           start_ret == PAPI_OK ? "ok" : PAPI_strerror(start_ret));

    /* Down to six: they fit, and INST_RETIRED counts exactly. */
    if (added == 7)
        CHECK_RET(PAPI_remove_named_event(es, names[6]), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    pmu_loop(N);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    long long six = v[0];
    CHECK(six >= PMU_LOOP_INSNS * N && six < PMU_LOOP_INSNS * N + 1000,
          "6 events: INST_RETIRED %lld for a loop of %ld", six, PMU_LOOP_INSNS * N);

    /* Plus CPU_CYCLES = 7 events on 6 counters + the cycle counter: fits, exact. */
    CHECK_RET(PAPI_add_named_event(es, "CPU_CYCLES"), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    pmu_loop(N);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK(v[0] >= PMU_LOOP_INSNS * N && v[0] < PMU_LOOP_INSNS * N + 1000,
          "6 events + cycles: INST_RETIRED %lld for a loop of %ld", v[0], PMU_LOOP_INSNS * N);
    CHECK(v[6] == v[0] << shift, "cycles %lld != 2^%d x instructions %lld", v[6], shift, v[0]);
    printf("pmu_counter_limit: 6 counter events inst=%lld; +CPU_CYCLES inst=%lld cyc=%lld\n", six,
           v[0], v[6]);

    /* An 8th event (a 7th on the event counters) is refused again; the set still counts. */
    int r8 = PAPI_add_named_event(es, names[7]);
    int s8 = r8 == PAPI_OK ? PAPI_start(es) : PAPI_OK;
    CHECK(r8 == PAPI_ECNFLCT || s8 == PAPI_ECNFLCT, "8th event: add %d, start %d", r8, s8);
    if (r8 == PAPI_OK)
        CHECK_RET(PAPI_remove_named_event(es, names[7]), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    pmu_loop(N);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK(v[6] == v[0] << shift && v[0] >= PMU_LOOP_INSNS * N && v[0] < PMU_LOOP_INSNS * N + 1000,
          "after the refused 8th event: inst %lld cyc %lld", v[0], v[6]);
    printf("pmu_counter_limit: 8th -> add %s, start %s; after: inst=%lld cyc=%lld\n",
           r8 == PAPI_OK ? "ok" : PAPI_strerror(r8), s8 == PAPI_OK ? "ok" : PAPI_strerror(s8), v[0],
           v[6]);

    pmu_free_set(&es);
    CHECK_EQ_LL(count_fds(), fds0);
    return test_done("pmu_counter_limit");
}
