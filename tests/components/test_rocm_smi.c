/* test_rocm_smi.c: the rocm_smi component through the API, on the test double of
 * librocm_smi64.so.1 (rsmi_double.c) this program is linked with and that ctest puts
 * first on LD_LIBRARY_PATH; PAPI_FSROOT names tests/machines/amdgpu_node, whose
 * /sys/class/drm lists AMD GPUs (the component calls rsmi_init only then). Checks PAPI
 * 7's event table per device (the unsupported left out), units, exact readings in ROCm
 * SMI's units, the energy counter times its resolution counted from PAPI_start, a lost
 * device, and rsmi_init/rsmi_shut_down balanced. */
#include <stdio.h>
#include <string.h>

#include "papi.h"
#include "expect_reason.h"
#include "papi_test.h"

#define R "rocm_smi:::"

int rsmi_double_set(unsigned int dv, const char *what, long long v);
void rsmi_double_lose(unsigned int dv);
int rsmi_double_initialised(void);

static void check_table(int cidx)
{
    /* name, qualifier after :device=N */
    static const char *const kinds[][2] = {{"power_average", ":sensor=0"},
                                           {"energy_count", ""},
                                           {"temp_current", ":sensor=0"},
                                           {"temp_current", ":sensor=1"},
                                           {"temp_current", ":sensor=2"},
                                           {"busy_percent", ""},
                                           {"memory_busy_percent", ""},
                                           {"mem_usage_VRAM", ""},
                                           {"mem_total_VRAM", ""},
                                           {"gpu_clk_freq_System", ":current"},
                                           {"gpu_clk_freq_Memory", ":current"}};
    char got[64][PAPI_MAX_STR_LEN];
    int code = PAPI_NATIVE_MASK, n = 0, k = 0;
    if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) == PAPI_OK)
        do {
            if (n < 64)
                PAPI_event_code_to_name(code, got[n]);
            n++;
        } while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
    CHECK_EQ_LL(n, 11 + 10); /* device 1 has no memory temperature */
    for (int dv = 0; dv < 2; dv++)
        for (int i = 0; i < 11; i++) {
            char want[PAPI_MAX_STR_LEN];
            if (dv == 1 && i == 4)
                continue;
            snprintf(want, sizeof want, R "%s:device=%d%s", kinds[i][0], dv, kinds[i][1]);
            CHECK(k < n && strcmp(got[k], want) == 0, "event %d is '%s', want '%s'", k,
                  k < n ? got[k] : "", want);
            k++;
        }
    static const struct {
        const char *event, *units;
    } units[] = {{R "power_average:device=0:sensor=0", "uW"},
                 {R "energy_count:device=0", "uJ"},
                 {R "temp_current:device=1:sensor=1", "mC"},
                 {R "busy_percent:device=0", "%"},
                 {R "mem_usage_VRAM:device=0", "B"},
                 {R "gpu_clk_freq_System:device=0:current", "Hz"}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        PAPI_event_info_t ev;
        CHECK_RET(PAPI_event_name_to_code(units[i].event, &code), PAPI_OK);
        CHECK_RET(PAPI_get_event_info(code, &ev), PAPI_OK);
        CHECK(strcmp(ev.units, units[i].units) == 0, "%s: units '%s', want '%s'", units[i].event,
              ev.units, units[i].units);
    }
    CHECK_RET(PAPI_event_name_to_code(R "temp_current:device=1:sensor=2", &code), PAPI_ENOEVNT);
}

static void check_readings(void)
{
    int es = PAPI_NULL;
    long long v[7];
    const char *const evs[] = {R "power_average:device=0:sensor=0",
                               R "energy_count:device=0",
                               R "temp_current:device=0:sensor=0",
                               R "busy_percent:device=0",
                               R "mem_usage_VRAM:device=0",
                               R "gpu_clk_freq_System:device=0:current",
                               R "gpu_clk_freq_Memory:device=1:current"};
    es = named_set(evs, 7);
    rsmi_double_set(0, "energy_count", 1000000); /* x 15.3 uJ = 15.3 J */
    CHECK_RET(PAPI_start(es), PAPI_OK);
    rsmi_double_set(0, "power", 287000000); /* 287 W */
    rsmi_double_set(0, "energy_count", 1002000);
    rsmi_double_set(0, "edge", -5000); /* below zero: a signed reading */
    rsmi_double_set(0, "busy", 88);
    rsmi_double_set(0, "vram_used", 34359738368LL);
    rsmi_double_set(0, "sclk_index", 2);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    /* 2000 counts x 15.3 uJ (15.30000019 as the float it is) = 30600 uJ */
    const long long want[7] = {287000000, 30600, -5000, 88, 34359738368LL, 2100000000, 1600000000};
    expect_values(evs, v, want, 7);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    free_set(&es);
}

static void check_lost(void)
{
    int es0 = PAPI_NULL, es1 = PAPI_NULL;
    long long v[1];
    CHECK_RET(PAPI_create_eventset(&es0), PAPI_OK);
    CHECK_RET(PAPI_create_eventset(&es1), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es0, R "power_average:device=0:sensor=0"), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es1, R "busy_percent:device=1"), PAPI_OK);
    CHECK_RET(PAPI_start(es1), PAPI_OK);
    rsmi_double_lose(1);
    CHECK_RET(PAPI_read(es1, v), PAPI_ESYS);
    CHECK_RET(PAPI_stop(es1, v), PAPI_ESYS);
    const char *why = expect_reason("lost",
                                    R "busy_percent:device=1: rsmi_dev_busy_percent_get on "
                                      "device 1 failed: RSMI_STATUS_FILE_ERROR",
                                    NULL);
    CHECK(!strpbrk(why, "\r\n"), "the lost device's reason spans lines");
    CHECK_RET(PAPI_stop(es1, v), PAPI_OK);
    CHECK_RET(PAPI_start(es0), PAPI_OK);
    rsmi_double_set(0, "power", 123000000);
    CHECK_RET(PAPI_stop(es0, v), PAPI_OK);
    CHECK(v[0] == 123000000, "device 0 power %lld after device 1 was lost", v[0]);
}

/* A region's energy and power through PAPI_EVENTS (set by check_gpu_region.py): 3000
 * counts x 15.3 uJ. */
static int region(void)
{
    rsmi_double_set(0, "energy_count", 2000000);
    CHECK_RET(PAPI_hl_region_begin("gpu_work"), PAPI_OK);
    rsmi_double_set(0, "energy_count", 2003000);
    rsmi_double_set(0, "power", 250000000);
    CHECK_RET(PAPI_hl_region_end("gpu_work"), PAPI_OK);
    return test_done("test_rocm_smi region");
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "region") == 0)
        return region();
    init_or_die();
    int cidx = PAPI_get_component_index("rocm_smi");
    const PAPI_component_info_t *info = cidx >= 0 ? PAPI_get_component_info(cidx) : NULL;
    if (!info || info->disabled) {
        fprintf(stderr, "FAIL: rocm_smi disabled: %s\n",
                cidx >= 0 ? PAPI_get_component_reason(cidx) : "no such component");
        return 1;
    }
    CHECK(rsmi_double_initialised() == 1, "rsmi_init calls: %d", rsmi_double_initialised());
    check_table(cidx);
    check_readings();
    check_lost();
    PAPI_shutdown();
    CHECK(rsmi_double_initialised() == 0, "rsmi_shut_down not called at PAPI_shutdown");
    /* a second PAPI_library_init finds the library and devices again */
    init_or_die();
    int code;
    CHECK(rsmi_double_initialised() == 1, "init calls after a second PAPI_library_init: %d",
          rsmi_double_initialised());
    CHECK_RET(PAPI_event_name_to_code(R "busy_percent:device=0", &code), PAPI_OK);
    PAPI_shutdown();
    CHECK(rsmi_double_initialised() == 0, "not shut down after the second PAPI_shutdown");
    return test_done("test_rocm_smi");
}
