/* multiplex_ten (arm64 PMU lane): 10 events on the 6 counters (+ the cycle counter)
 * multiplexed by the kernel. Only INST_RETIRED and CPU_CYCLES count in the guest, so
 * the set holds five spellings of each (distinct event codes, same counter). Every
 * scaled estimate is within 2% of the exact count measured without multiplexing, and
 * every running fraction is below 1 (each event was descheduled part of the time). */
#include "pmu_hw.h"

#define N 10

int main(void)
{
    init_or_die();
    pmu_require_hw();
    const char *names[N] = {"INST_RETIRED",   "INST_RETIRED:u",     "INST_RETIRED:u=1",
                            "INST_RETIRED:u:k=0", "INST_RETIRED:u=1:k=0", "CPU_CYCLES",
                            "CPU_CYCLES:u",   "CPU_CYCLES:u=1",     "CPU_CYCLES:u:k=0",
                            "CPU_CYCLES:u=1:k=0"};
    const long n = 40000000;

    /* Exact reference, no multiplexing. */
    const char *ref_names[] = {"INST_RETIRED", "CPU_CYCLES"};
    int ref = pmu_set_of(ref_names, 2);
    long long exact[2];
    CHECK_RET(PAPI_start(ref), PAPI_OK);
    pmu_loop(n);
    CHECK_RET(PAPI_stop(ref, exact), PAPI_OK);
    pmu_free_set(&ref);

    CHECK_RET(PAPI_multiplex_init(), PAPI_OK);
    int es = PAPI_NULL;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_set_multiplex(es), PAPI_OK);
    for (int i = 0; i < N; i++)
        CHECK_RET(PAPI_add_named_event(es, names[i]), PAPI_OK);
    long long v[N];
    double frac[N];
    int nf = N;
    CHECK_RET(PAPI_start(es), PAPI_OK);
    pmu_loop(n);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_RET(PAPI_get_event_running_fraction(es, frac, &nf), PAPI_OK);
    for (int i = 0; i < N; i++) {
        long long want = exact[i < 5 ? 0 : 1];
        double err = want ? (double)(v[i] - want) / (double)want : 1.0;
        printf("multiplex_ten: %-22s %12lld (exact %lld, %+.2f%%) running %.3f\n", names[i], v[i],
               want, 100 * err, frac[i]);
        CHECK(err < 0.02 && err > -0.02, "%s: %lld is %.2f%% off %lld", names[i], v[i],
              100 * err, want);
        CHECK(frac[i] > 0.0 && frac[i] < 1.0, "%s: running fraction %.3f", names[i], frac[i]);
    }
    pmu_free_set(&es);
    return test_done("multiplex_ten");
}
