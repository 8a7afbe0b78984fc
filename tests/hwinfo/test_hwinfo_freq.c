/* cpu_max_mhz / cpu_min_mhz from the best source (hwinfo_freq.c), on replayed arm64
 * machines (tests/machines/<machine>, PAPI_FSROOT) and on this one: cpufreq before ACPI
 * CPPC before "cpu MHz" before BogoMIPS, never 0, and the source is reported. Links the
 * static library: hwinfo_nominal_mhz and hwinfo_mhz_source are internal. */
#include <stdlib.h>

#include "hwinfo.h"
#include "hwinfo_freq.h"
#include "papi_test.h"

static void expect(const char *dir, int want_max, int want_min, const char *want_source)
{
    char root[4096];
    snprintf(root, sizeof root, "%s/%s", MACHINES_DIR, dir);
    int max = -1, min = -1;
    const char *source = hwinfo_nominal_mhz(root, &max, &min);
    printf("%-13s max %d min %d MHz from %s\n", dir, max, min, source);
    CHECK(max == want_max && min == want_min, "%s: %d/%d MHz, want %d/%d", dir, max, min,
          want_max, want_min);
    CHECK(!strcmp(source, want_source), "%s: source %s, want %s", dir, source, want_source);
}

int main(void)
{
    expect("cpufreq_node", 3000, 1000, "cpufreq");
    expect("cppc_node", 2800, 1000, "acpi_cppc");
    expect("qemu_guest", 125, 125, "bogomips"); /* no measurement on a replayed machine */

    /* Through the API: the replayed CPPC node. */
    char root[4096];
    snprintf(root, sizeof root, "%s/cppc_node", MACHINES_DIR);
    setenv("PAPI_FSROOT", root, 1);
    CHECK(!strcmp(PAPI_get_hardware_info_mhz_source(), "none"), "before init: %s",
          PAPI_get_hardware_info_mhz_source());
    init_or_die();
    const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
    CHECK(hw && hw->cpu_max_mhz == 2800 && hw->cpu_min_mhz == 1000, "replayed: %d/%d MHz",
          hw ? hw->cpu_max_mhz : -1, hw ? hw->cpu_min_mhz : -1);
    CHECK(!strcmp(hwinfo_mhz_source(), "acpi_cppc"), "replayed source %s", hwinfo_mhz_source());
    /* The public call says the same (papi_avail prints it as "CPU MHz source"). */
    CHECK(!strcmp(PAPI_get_hardware_info_mhz_source(), "acpi_cppc"), "public source %s",
          PAPI_get_hardware_info_mhz_source());
    PAPI_shutdown();

    /* This machine: never 0, whatever the source. */
    unsetenv("PAPI_FSROOT");
    init_or_die();
    hw = PAPI_get_hardware_info();
    CHECK(hw && hw->cpu_max_mhz > 0 && hw->cpu_min_mhz > 0, "this machine: %d/%d MHz",
          hw ? hw->cpu_max_mhz : -1, hw ? hw->cpu_min_mhz : -1);
    printf("this machine: max %d min %d MHz from %s\n", hw ? hw->cpu_max_mhz : -1,
           hw ? hw->cpu_min_mhz : -1, hwinfo_mhz_source());
    PAPI_shutdown();
    return test_done("test_hwinfo_freq");
}
