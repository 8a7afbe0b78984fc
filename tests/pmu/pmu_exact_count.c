/* pmu_exact_count: PAPI_start/PAPI_stop around an assembly loop of known length give
 * exactly PMU_LOOP_INSNS x n user instructions plus a constant (the user-space part of
 * the stop and start paths plus the call), the same for every n and every run; and
 * CPU_CYCLES is exactly 2^shift x INST_RETIRED under QEMU's icount. */
#include "pmu_hw.h"

/* User instructions counted besides the loop: the return path of PAPI_start after its
 * enable ioctl (and its schedulability read), the call of pmu_loop, and PAPI_stop up
 * to its disable ioctl. It is measured here with a one-iteration loop (it moves whenever
 * those code paths change: 175 when first pinned, gcc 12 RelWithDebInfo) and must then be
 * the same to the instruction for every n; a sane bound catches a path gone wild. */
#define START_STOP_USER_INSNS_MAX 1000

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

    CHECK_RET(PAPI_start(es), PAPI_OK);
    pmu_loop(1);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    const long long start_stop = v[0] - PMU_LOOP_INSNS;
    CHECK(start_stop > 0 && start_stop < START_STOP_USER_INSNS_MAX,
          "start/stop costs %lld user instructions (expected 0 < x < %d)", start_stop,
          START_STOP_USER_INSNS_MAX);

    const long sizes[] = {1000, 100000, 10000000, 100000};
    long long konst[4];
    for (int i = 0; i < 4; i++) {
        long n = sizes[i];
        CHECK_RET(PAPI_start(es), PAPI_OK);
        pmu_loop(n);
        CHECK_RET(PAPI_stop(es, v), PAPI_OK);
        konst[i] = v[0] - (long long)PMU_LOOP_INSNS * n;
        CHECK(v[0] == (long long)PMU_LOOP_INSNS * n + start_stop,
              "n=%ld: %lld instructions = loop %lld + %lld; start/stop measured at n=1 costs %lld",
              n, v[0], (long long)PMU_LOOP_INSNS * n, konst[i], start_stop);
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
