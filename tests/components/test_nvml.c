/* test_nvml.c: the nvml component through the API, on the test double of
 * libnvidia-ml.so.1 (nvml_double.c) that this program is linked with and that ctest puts
 * first on LD_LIBRARY_PATH, so the component's dlopen("libnvidia-ml.so.1") finds it as
 * it would find NVIDIA's. Modes:
 *   test_nvml                 the event table (PAPI 7's names, one per device, the
 *                             unsupported left out), units, exact readings in NVML's
 *                             units, memory as nvidia-smi shows it, energy counted
 *                             from PAPI_start, a GPU lost (built as test_nvml_v1
 *                             with NVML_TEST_V1: the double lacks
 *                             nvmlDeviceGetMemoryInfo_v2, memory read with v1)
 *   test_nvml region          energy and power of a region through PAPI_EVENTS (the
 *                             report is checked by check_nvml_region.py)
 *   test_nvml disabled WORDS  (not linked to a double: built as test_nvml_disabled) the
 *                             component is disabled with a reason that holds WORDS */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi.h"
#include "expect_reason.h"
#include "papi_test.h"

#define DEV0 "nvml:::Tesla_V100-SXM2-16GB:device_0:"
#define DEV1 "nvml:::NVIDIA_A100-PCIE-40GB:device_1:"

/* Whether the double has nvmlDeviceGetMemoryInfo_v2 (reserved_memory is then listed). */
#ifdef NVML_TEST_V1
#define MEM_V2 0
#else
#define MEM_V2 1
#endif
#define NKINDS (14 + MEM_V2)
#define GiB    1073741824LL
#define MiB    1048576LL

#ifndef NVML_TEST_DISABLED
int nvml_double_set(unsigned int dev, const char *what, unsigned long long v);
void nvml_double_lose(unsigned int dev);
int nvml_double_initialised(void);
#endif

static int nvml_cidx(void)
{
    int cidx = PAPI_get_component_index("nvml");
    if (cidx < 0) {
        fprintf(stderr, "FAIL: no component nvml\n");
        exit(1);
    }
    return cidx;
}

#ifndef NVML_TEST_DISABLED
/* Every event name of the component, in order. */
static int list_events(int cidx, char names[][PAPI_MAX_STR_LEN], int max)
{
    int code = PAPI_NATIVE_MASK, n = 0;
    if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) != PAPI_OK)
        return 0;
    do {
        if (n < max)
            PAPI_event_code_to_name(code, names[n]);
        n++;
    } while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
    return n;
}

static void check_table(int cidx)
{
    static const char *const kinds[] = {"power",
                                        "total_energy_consumption",
                                        "temperature",
                                        "gpu_utilization",
                                        "memory_utilization",
                                        "total_memory",
                                        "unallocated_memory",
                                        "allocated_memory",
                                        "reserved_memory",
                                        "graphics_clock",
                                        "sm_clock",
                                        "memory_clock",
                                        "graphics_max_clock",
                                        "sm_max_clock",
                                        "memory_max_clock"};
    char names[64][PAPI_MAX_STR_LEN];
    int n = list_events(cidx, names, 64), k = 0;
    CHECK_EQ_LL(n, 2 * NKINDS - 1); /* device 1 reports no temperature: not listed */
    for (int dev = 0; dev < 2; dev++)
        for (int i = 0; i < 15; i++) {
            char want[PAPI_MAX_STR_LEN];
            if ((dev == 1 && i == 2) || (!MEM_V2 && strcmp(kinds[i], "reserved_memory") == 0))
                continue;
            snprintf(want, sizeof want, "%s%s", dev ? DEV1 : DEV0, kinds[i]);
            CHECK(k < n && strcmp(names[k], want) == 0, "event %d is '%s', want '%s'", k,
                  k < n ? names[k] : "", want);
            k++;
        }
    const PAPI_component_info_t *info = PAPI_get_component_info(cidx);
    CHECK_EQ_LL(info->num_native_events, 2 * NKINDS - 1);
    static const struct {
        const char *event, *units;
    } units[] = {{DEV0 "power", "mW"},           {DEV0 "total_energy_consumption", "mJ"},
                 {DEV0 "temperature", "C"},      {DEV0 "gpu_utilization", "%"},
                 {DEV0 "allocated_memory", "B"}, {DEV1 "sm_clock", "MHz"},
                 {DEV1 "total_memory", "B"},     {DEV0 "unallocated_memory", "B"}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        PAPI_event_info_t ev;
        int code;
        CHECK_RET(PAPI_event_name_to_code(units[i].event, &code), PAPI_OK);
        CHECK_RET(PAPI_get_event_info(code, &ev), PAPI_OK);
        CHECK(strcmp(ev.units, units[i].units) == 0, "%s: units '%s', want '%s'", units[i].event,
              ev.units, units[i].units);
    }
    int code;
    CHECK_RET(PAPI_event_name_to_code(DEV1 "temperature", &code), PAPI_ENOEVNT);
}

static void check_readings(void)
{
    int es = PAPI_NULL;
    long long v[8];
    const char *const evs[] = {
        DEV0 "power",           DEV0 "total_energy_consumption", DEV0 "temperature",
        DEV0 "gpu_utilization", DEV0 "allocated_memory",         DEV0 "unallocated_memory",
        DEV0 "sm_clock",        DEV1 "memory_max_clock"};
    es = named_set(evs, 8);
    nvml_double_set(0, "energy", 5000000); /* 5 kJ since the driver loaded */
    CHECK_RET(PAPI_start(es), PAPI_OK);
    nvml_double_set(0, "power", 287654);   /* 287.654 W */
    nvml_double_set(0, "energy", 5012345); /* + 12.345 J */
    nvml_double_set(0, "temp", 67);
    nvml_double_set(0, "util_gpu", 93);
    nvml_double_set(0, "mem_used", 8589934592ULL); /* 8 GiB of 16 */
    nvml_double_set(0, "sm_clock", 1380);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    /* 16 GiB: 384 MiB the driver's, 8 GiB allocated (v1 counts the reserve as used) */
    const long long want[8] = {
        287654, 12345, 67, 93, 8 * GiB + (MEM_V2 ? 0 : 384 * MiB), 8 * GiB - 384 * MiB, 1380, 1215};
    expect_values(evs, v, want, 8);
    nvml_double_set(0, "energy", 5020000);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK(v[1] == 20000, "energy at stop %lld, want 20000 mJ", v[1]);
    /* stopped: energy stays, a restart counts from 0 again */
    nvml_double_set(0, "energy", 5030000);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    nvml_double_set(0, "energy", 5030500);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK(v[1] == 500, "energy of the second run %lld, want 500 mJ", v[1]);
    free_set(&es);
}

/* Memory as nvidia-smi shows it: with _v2, allocated_memory is v2's used (the driver's
 * reserve left out) and reserved_memory that reserve; without, v1's used (the reserve
 * included) and no reserved_memory. Which one, in the caveat and the descriptions. */
static void check_memory(int cidx)
{
    const char *const evs[] = {DEV0 "total_memory", DEV0 "allocated_memory",
                               DEV0 "unallocated_memory", DEV0 "reserved_memory"};
    int es = PAPI_NULL, n = 3 + MEM_V2, code;
    long long v[4];
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    for (int i = 0; i < n; i++)
        CHECK_RET(PAPI_add_named_event(es, evs[i]), PAPI_OK);
    if (!MEM_V2)
        CHECK_RET(PAPI_event_name_to_code(evs[3], &code), PAPI_ENOEVNT);
    nvml_double_set(0, "mem_reserved", 616 * MiB); /* an idle H200's, as nvidia-smi shows */
    nvml_double_set(0, "mem_used", 0);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 16 * GiB);
    CHECK_EQ_LL(v[1], MEM_V2 ? 0 : 616 * MiB);
    CHECK_EQ_LL(v[2], 16 * GiB - 616 * MiB);
    if (MEM_V2)
        CHECK_EQ_LL(v[3], 616 * MiB);
    nvml_double_set(0, "mem_used", GiB + 4096); /* a process allocates */
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[1], GiB + 4096 + (MEM_V2 ? 0 : 616 * MiB));
    CHECK_EQ_LL(v[2], 15 * GiB - 616 * MiB - 4096);
    if (MEM_V2)
        CHECK_EQ_LL(v[3], 616 * MiB);
    free_set(&es);
    nvml_double_set(0, "mem_reserved", 384 * MiB);
    nvml_double_set(0, "mem_used", 300 * MiB);
    const char *note = PAPI_get_component_reason(cidx);
    const char *want = MEM_V2 ? "memory from nvmlDeviceGetMemoryInfo_v2: allocated_memory is "
                                "nvidia-smi's memory.used"
                              : "lacks nvmlDeviceGetMemoryInfo_v2: memory from "
                                "nvmlDeviceGetMemoryInfo, whose allocated_memory includes";
    printf("caveat: %s\n", note ? note : "(none)");
    CHECK(note && strstr(note, want) && !strpbrk(note, "\r\n"), "caveat '%s' lacks '%s'",
          note ? note : "", want);
    PAPI_event_info_t ev;
    CHECK_RET(PAPI_event_name_to_code(evs[1], &code), PAPI_OK);
    CHECK_RET(PAPI_get_event_info(code, &ev), PAPI_OK);
    want = MEM_V2 ? "nvidia-smi's memory.used: the driver's reserve left out"
                  : "the driver's reserve included (nvmlDeviceGetMemoryInfo: this NVML has no _v2";
    CHECK(strstr(ev.long_descr, want), "allocated_memory: '%s' lacks '%s'", ev.long_descr, want);
}

/* Device 1 falls off the bus: its set's read fails with the reason; device 0's set and
 * the component go on. */
static void check_lost(void)
{
    int es0 = PAPI_NULL, es1 = PAPI_NULL;
    long long v0[1], v1[2];
    CHECK_RET(PAPI_create_eventset(&es0), PAPI_OK);
    CHECK_RET(PAPI_create_eventset(&es1), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es0, DEV0 "power"), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es1, DEV1 "power"), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es1, DEV1 "total_energy_consumption"), PAPI_OK);
    CHECK_RET(PAPI_start(es1), PAPI_OK);
    nvml_double_lose(1);
    CHECK_RET(PAPI_read(es1, NULL), PAPI_EINVAL); /* another reason in the detail first */
    CHECK_RET(PAPI_read(es1, v1), PAPI_ESYS);
    /* The component's reason at once, not at its next call. */
    expect_reason("read", DEV1 "power", "GPU is lost (NVML error 15)");
    CHECK_RET(PAPI_stop(es1, v1), PAPI_ESYS);
    const char *why = expect_reason("lost", DEV1 "power", "GPU is lost (NVML error 15)");
    CHECK(strstr(why, "nvmlDeviceGetPowerUsage on device 1"), "reason '%s'", why);
    CHECK(!strpbrk(why, "\r\n"), "the lost device's reason spans lines");
    /* the component stopped it: the core's second stop agrees, with nothing counted */
    v1[0] = v1[1] = -1;
    CHECK_RET(PAPI_stop(es1, v1), PAPI_OK);
    CHECK(v1[0] == 0 && v1[1] == 0, "lost device's values %lld %lld, want 0 0", v1[0], v1[1]);
    CHECK_RET(PAPI_start(es0), PAPI_OK);
    nvml_double_set(0, "power", 111000);
    CHECK_RET(PAPI_read(es0, v0), PAPI_OK);
    CHECK(v0[0] == 111000, "device 0 power %lld after device 1 was lost", v0[0]);
    CHECK_RET(PAPI_stop(es0, v0), PAPI_OK);
    int es2 = PAPI_NULL;
    CHECK_RET(PAPI_create_eventset(&es2), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es2, DEV1 "power"), PAPI_ESYS); /* said at add */
    CHECK_RET(PAPI_add_named_event(es2, DEV0 "total_energy_consumption"), PAPI_OK);
    CHECK(PAPI_get_component_info(nvml_cidx())->disabled == 0, "nvml disabled by a lost GPU");
}

/* A region's energy and power through PAPI_EVENTS (set by check_nvml_region.py). */
static int region(void)
{
    nvml_double_set(0, "energy", 7000000);
    nvml_double_set(0, "power", 150000);
    CHECK_RET(PAPI_hl_region_begin("gpu_work"), PAPI_OK);
    nvml_double_set(0, "energy", 7004321); /* 4.321 J in the region */
    nvml_double_set(0, "power", 301000);
    CHECK_RET(PAPI_hl_region_end("gpu_work"), PAPI_OK);
    return test_done("test_nvml region");
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "region") == 0)
        return region();
    init_or_die();
    int cidx = nvml_cidx();
    const PAPI_component_info_t *info = PAPI_get_component_info(cidx);
    if (info->disabled) {
        fprintf(stderr, "FAIL: nvml disabled: %s\n", PAPI_get_component_reason(cidx));
        return 1;
    }
    CHECK(nvml_double_initialised() == 1, "nvmlInit_v2 calls not balanced: %d",
          nvml_double_initialised());
    check_table(cidx);
    check_memory(cidx);
    check_readings();
    check_lost();
    PAPI_shutdown();
    CHECK(nvml_double_initialised() == 0, "nvmlShutdown not called at PAPI_shutdown");
    /* a second PAPI_library_init finds the library and devices again */
    init_or_die();
    int code;
    CHECK(nvml_double_initialised() == 1, "init calls after a second PAPI_library_init: %d",
          nvml_double_initialised());
    CHECK_RET(PAPI_event_name_to_code(DEV0 "power", &code), PAPI_OK);
    PAPI_shutdown();
    CHECK(nvml_double_initialised() == 0, "not shut down after the second PAPI_shutdown");
    return test_done("test_nvml");
}
#else
static int disabled(const char *words)
{
    if (strstr(words, "not found") &&
        dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_NOLOAD | RTLD_LOCAL) == NULL &&
        dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL) != NULL)
        test_skip("libnvidia-ml.so.1 is installed here: its absence cannot be tested");
    init_or_die();
    int cidx = nvml_cidx();
    const PAPI_component_info_t *info = PAPI_get_component_info(cidx);
    const char *reason = PAPI_get_component_reason(cidx);
    printf("nvml: disabled %d: %s\n", info->disabled, reason ? reason : "(none)");
    CHECK(info->disabled != 0, "nvml is enabled");
    CHECK(reason && strstr(reason, words), "reason '%s' lacks '%s'", reason ? reason : "", words);
    int code;
    CHECK_RET(PAPI_event_name_to_code(DEV0 "power", &code), PAPI_ENOEVNT);
    PAPI_shutdown();
    return test_done("test_nvml_disabled");
}

int main(int argc, char **argv)
{
    if (argc < 3 || strcmp(argv[1], "disabled") != 0) {
        fprintf(stderr, "usage: test_nvml_disabled disabled WORDS\n");
        return 2;
    }
    return disabled(argv[2]);
}
#endif
