/* pmu_fork_cost: fork() with hardware counters running (issue 28, 6), in the PMU guest:
 * a set of INST_RETIRED and CPU_CYCLES counting (with perf_user_access=1 its counters
 * are read from user space, their pages mapped), plus handles used and handed back. The
 * child's minor faults at entry may exceed those of a child forked before
 * PAPI_library_init by at most 10 (the bound; the atfork handler once wrote 128
 * pages). The parent's counts stay exact across the forks. */
#include "../fork_faults.h"
#include "pmu_hw.h"

#define EXTRA_SETS 40

int main(void)
{
    long without = min_faults();
    CHECK_RET(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
    pmu_require_hw();
    static const char *const two[] = {"INST_RETIRED", "CPU_CYCLES"};
    int es = pmu_set_of(two, 2), more[EXTRA_SETS];
    for (int i = 0; i < EXTRA_SETS; i++) {
        more[i] = PAPI_NULL;
        CHECK_RET(PAPI_create_eventset(&more[i]), PAPI_OK);
    }
    for (int i = 1; i < EXTRA_SETS; i += 2)
        CHECK_RET(PAPI_destroy_eventset(&more[i]), PAPI_OK);
    long long v[2], w[2];
    CHECK_RET(PAPI_start(es), PAPI_OK);
    long with = min_faults();
    /* Still exact in the parent: two loops between reads leave the same constant. */
    long long c[2];
    for (int k = 0; k < 2; k++) {
        long n = k ? 100000 : 1000;
        CHECK_RET(PAPI_read(es, v), PAPI_OK);
        pmu_loop(n);
        CHECK_RET(PAPI_read(es, w), PAPI_OK);
        c[k] = w[0] - v[0] - PMU_LOOP_INSNS * n;
    }
    long long loop = c[1];
    CHECK_RET(PAPI_stop(es, NULL), PAPI_OK);
    printf("child minor faults at entry: %ld without the library, %ld with it (2 hardware "
           "events counting); parent's loop read as the loop + %lld\n", without, with, loop);
    CHECK(without >= 0 && with >= 0, "could not measure the children");
    CHECK(with <= without + 10, "a forked child pays %ld page faults more with the library",
          with - without);
    CHECK(c[0] == c[1] && c[0] >= 0, "the parent's loops read as loop + %lld and + %lld", c[0],
          c[1]);
    for (int i = 0; i < EXTRA_SETS; i += 2)
        CHECK_RET(PAPI_destroy_eventset(&more[i]), PAPI_OK);
    pmu_free_set(&es);
    PAPI_shutdown();
    return test_done("pmu_fork_cost");
}
