/* preset_tot_ins_cyc (arm64 lane): PAPI_TOT_INS and PAPI_TOT_CYC from the built-in
 * arm_ac57 / arm_n1 table count the known loop exactly: the same instructions as the
 * native INST_RETIRED around the same code, and cycles = 2^shift x instructions. */
#include "pmu_hw.h"

static long long count_loop(int es, long n, long long *v)
{
    CHECK_RET(PAPI_start(es), PAPI_OK);
    pmu_loop(n);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    return v[0];
}

int main(void)
{
    init_or_die();
    pmu_require_hw();
    const int shift = pmu_icount_shift();
    CHECK_RET(PAPI_query_event(PAPI_TOT_INS), PAPI_OK);
    CHECK_RET(PAPI_query_event(PAPI_TOT_CYC), PAPI_OK);
    PAPI_event_info_t info;
    CHECK_RET(PAPI_get_event_info(PAPI_TOT_INS, &info), PAPI_OK);
    CHECK(info.count == 1 && strstr(info.name[0], "INST_RETIRED"), "PAPI_TOT_INS is %s",
          info.count ? info.name[0] : "undefined");

    const char *natives[] = {"INST_RETIRED", "CPU_CYCLES"};
    int nat = pmu_set_of(natives, 2);
    int pre = PAPI_NULL;
    CHECK_RET(PAPI_create_eventset(&pre), PAPI_OK);
    CHECK_RET(PAPI_add_event(pre, PAPI_TOT_INS), PAPI_OK);
    CHECK_RET(PAPI_add_event(pre, PAPI_TOT_CYC), PAPI_OK);
    long long vn[2], vp[2];
    count_loop(nat, 10, vn); /* warm-up of both paths */
    count_loop(pre, 10, vp);
    const long sizes[] = {1000, 1000000};
    for (int i = 0; i < 2; i++) {
        long n = sizes[i];
        count_loop(nat, n, vn);
        count_loop(pre, n, vp);
        CHECK(vp[0] == vn[0], "n=%ld: PAPI_TOT_INS %lld, INST_RETIRED %lld", n, vp[0], vn[0]);
        CHECK(vp[0] >= (long long)PMU_LOOP_INSNS * n && vp[0] < (long long)PMU_LOOP_INSNS * n + 400,
              "n=%ld: PAPI_TOT_INS %lld is the loop's %lld plus a small constant", n, vp[0],
              (long long)PMU_LOOP_INSNS * n);
        CHECK(vp[1] == vp[0] << shift, "n=%ld: PAPI_TOT_CYC %lld != 2^%d x %lld", n, vp[1], shift, vp[0]);
        printf("preset_tot_ins_cyc: n=%ld PAPI_TOT_INS=%lld (INST_RETIRED %lld) PAPI_TOT_CYC=%lld\n", n,
               vp[0], vn[0], vp[1]);
    }
    pmu_free_set(&nat);
    pmu_free_set(&pre);
    return test_done("preset_tot_ins_cyc");
}
