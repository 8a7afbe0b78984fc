/* pmu_exact_count: PAPI_start/PAPI_stop around an assembly loop of known length give
 * exactly PMU_LOOP_INSNS x n user instructions plus a constant (the user-space part of
 * the stop and start paths plus the call), the same for every n and every run; and
 * CPU_CYCLES is exactly 2^shift x INST_RETIRED under QEMU's icount. */
#include "pmu_hw.h"

/* User instructions counted besides the loop: the return path of PAPI_start after its
 * enable ioctl (and its schedulability read), the call of pmu_loop, and PAPI_stop up
 * to its disable ioctl. Measured in the guest (RelWithDebInfo build, gcc 12); it moves
 * when those paths change: then update it after checking the new value is sane. */
#define START_STOP_USER_INSNS 175

int main(void)
{
    init_or_die();
    pmu_require_hw();
    const int shift = pmu_icount_shift();
    const char *names[] = {"INST_RETIRED", "CPU_CYCLES"};
    int es = pmu_set_of(names, 2);
    long long v[2];

    /* Warm-up: resolve lazy PLT bindings of read/ioctl outside the measured runs. */
    CHECK_RET(PAPI_start(es), PAPI_OK);
    pmu_loop(10);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);

    const long sizes[] = {1000, 100000, 10000000, 100000};
    long long konst[4];
    for (int i = 0; i < 4; i++) {
        long n = sizes[i];
        CHECK_RET(PAPI_start(es), PAPI_OK);
        pmu_loop(n);
        CHECK_RET(PAPI_stop(es, v), PAPI_OK);
        konst[i] = v[0] - (long long)PMU_LOOP_INSNS * n;
        CHECK(v[0] == (long long)PMU_LOOP_INSNS * n + START_STOP_USER_INSNS,
              "n=%ld: %lld instructions = loop %lld + %lld; the pinned start/stop cost is %d "
              "(if PAPI_start/PAPI_stop changed on purpose, re-pin START_STOP_USER_INSNS)",
              n, v[0], (long long)PMU_LOOP_INSNS * n, konst[i], START_STOP_USER_INSNS);
        CHECK((v[1] == v[0] << shift), "n=%ld: cycles %lld != 2^%d x instructions %lld", n, v[1],
              shift, v[0]);
        printf("pmu_exact_count: n=%ld inst=%lld (loop %lld + %lld) cyc=%lld = %lld x inst\n", n,
               v[0], (long long)PMU_LOOP_INSNS * n, konst[i], v[1], v[0] ? v[1] / v[0] : 0);
    }
    for (int i = 1; i < 4; i++)
        CHECK(konst[i] == konst[0], "constant differs between runs: %lld vs %lld", konst[i], konst[0]);
    pmu_free_set(&es);
    return test_done("pmu_exact_count");
}
