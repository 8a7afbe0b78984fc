/* hwinfo_arm64_pmu: on the emulated arm64 PMU, what papi_avail and papi_command_line
 * show a user: the hardware description of an ARM core (vendor 0x41, the core's name),
 * a non-zero counter count, PAPI_TOT_INS and PAPI_TOT_CYC available, and PAPI_TOT_INS
 * counting a loop of known length. */
#include "pmu_hw.h"

static int preset_available(int code)
{
    PAPI_event_info_t info;
    return PAPI_get_event_info(code, &info) == PAPI_OK && info.count > 0;
}

int main(void)
{
    CHECK_RET(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
    const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
    CHECK(hw != NULL, "no hardware info");
    if (!hw)
        return test_done("hwinfo_arm64_pmu");
    printf("vendor %s (0x%x), model %s (0x%x), %d CPUs, %d sockets x %d cores x %d threads\n",
           hw->vendor_string, (unsigned)hw->vendor, hw->model_string, (unsigned)hw->model,
           hw->totalcpus, hw->sockets, hw->cores, hw->threads);
    CHECK_EQ_LL(hw->vendor, PAPI_VENDOR_ARM_ARM);
    CHECK(!strcmp(hw->vendor_string, "ARM"), "vendor string '%s'", hw->vendor_string);
    CHECK(strstr(hw->model_string, "Cortex-A57") || strstr(hw->model_string, "Neoverse-N1"),
          "model string '%s'", hw->model_string);
    CHECK_EQ_LL(hw->totalcpus, sysconf(_SC_NPROCESSORS_CONF));
    CHECK_EQ_LL(hw->sockets * hw->cores * hw->threads, hw->totalcpus);

    pmu_require_hw();
    CHECK(PAPI_num_hwctrs() > 0, "PAPI_num_hwctrs %d", PAPI_num_hwctrs());
    CHECK(preset_available(PAPI_TOT_INS), "PAPI_TOT_INS not available");
    CHECK(preset_available(PAPI_TOT_CYC), "PAPI_TOT_CYC not available");

    int es = PAPI_NULL;
    long long v = 0;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, "PAPI_TOT_INS"), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    pmu_loop(100000);
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    printf("PAPI_TOT_INS over a %d-instruction loop: %lld\n", 100000 * PMU_LOOP_INSNS, v);
    CHECK(v >= 100000LL * PMU_LOOP_INSNS && v < 100000LL * PMU_LOOP_INSNS + 10000,
          "count %lld", v);
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    return test_done("hwinfo_arm64_pmu");
}
