/* pmu_env: inside the guest the library sees the hardware PMU: counters, an enabled
 * component, and the libpfm4 PMU of the emulated CPU for the native events. */
#include "pmu_hw.h"

int main(void)
{
    init_or_die();
    int nctr = PAPI_num_hwctrs();
    CHECK(nctr > 0, "PAPI_num_hwctrs() = %d", nctr);
    const PAPI_component_info_t *ci = PAPI_get_component_info(0);
    CHECK(ci != NULL, "PAPI_get_component_info(0) is NULL");
    if (ci) {
        CHECK(ci->disabled == 0, "component 0 disabled (%d): %s", ci->disabled, ci->disabled_reason);
        CHECK(ci->disabled_reason[0] == '\0', "disabled_reason not empty: %s", ci->disabled_reason);
    }
    const char *expect = getenv("PMU_EXPECT_COUNTERS");
    if (expect)
        CHECK_EQ_LL(nctr, atoi(expect));

    /* The short names resolve on the PMU libpfm4 detected for this CPU model. */
    const char *pmu = getenv("PMU_EXPECT_PMU");
    const char *names[] = {"INST_RETIRED", "CPU_CYCLES"};
    char full[2][PAPI_MAX_STR_LEN] = {"?", "?"};
    for (int i = 0; i < 2; i++) {
        int code = 0;
        CHECK_RET(PAPI_query_named_event(names[i]), PAPI_OK);
        CHECK_RET(PAPI_event_name_to_code(names[i], &code), PAPI_OK);
        CHECK_RET(PAPI_event_code_to_name(code, full[i]), PAPI_OK);
        if (pmu)
            CHECK(strncmp(full[i], pmu, strlen(pmu)) == 0 && strstr(full[i], names[i]),
                  "%s resolves to %s, expected %s::%s", names[i], full[i], pmu, names[i]);
        if (pmu) { /* and the fully qualified name is the same event */
            char q[PAPI_MAX_STR_LEN];
            int qcode = 0;
            snprintf(q, sizeof q, "%s::%s", pmu, names[i]);
            CHECK_RET(PAPI_event_name_to_code(q, &qcode), PAPI_OK);
            CHECK_EQ_LL(qcode, code);
        }
    }
    printf("pmu_env: hwctrs=%d component=%s events=%s,%s\n", nctr, ci ? ci->name : "?", full[0],
           full[1]);
    return test_done("pmu_env");
}
