/* test_nvml_gpm.c: the nvml component's GPM events (nvml_gpm.c) on the test double of
 * libnvidia-ml.so.1 built with NVML_DOUBLE_GPM (device 0 an H100 with GPM, device 1 an
 * A100 without), which stages each metric's rate over a clock the test advances, so
 * that a value over two samples is exact. Modes:
 *   test_nvml_gpm            the events and units, each value exact over start..read,
 *                            start..stop, a restart, a reset and PAPI_accum; a metric
 *                            the device lacks and another consumer at start; the
 *                            samples freed; device 1's reason; an average over less
 *                            than 100 ms refused, said; the counter forms (_ns,
 *                            _bytes): 0 at once, then the average times each step of
 *                            100 ms or more, within the test's clock readings around
 *                            the library's
 * The double, as a real device's GPM, gives NaN over samples under 100 ms apart on its
 * clock; the library's averages need 100 ms of real time too (each read below waits).
 *   test_nvml_gpm mig        device 0 in MIG mode: no GPM events, the reason said
 *   test_nvml_gpm in_use     another consumer holds device 0's monitors at
 *                            PAPI_library_init: no GPM events, the reason said
 *   test_nvml_gpm region     a region of 150 ms, then one of 300 ms at other rates: their
 *                            SM-busy ns through PAPI_EVENTS, their GPU metrics through
 *                            PAPI_METRICS (the reports are checked by
 *                            check_gpu_region.py, check_gpu_metric_region.py) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "papi.h"
#include "expect_reason.h"
#include "papi_test.h"

#define DEV0 "nvml:::NVIDIA_H100_80GB_HBM3:device_0:"
#define DEV1 "nvml:::NVIDIA_A100-PCIE-40GB:device_1:"

int nvml_double_set(unsigned int dev, const char *what, unsigned long long v);
int nvml_double_gpm_rate(unsigned int dev, unsigned int id, double rate);
void nvml_double_gpm_advance(unsigned int dev, unsigned long long ms);
int nvml_double_gpm_samples(void);

/* The events, their NVML metric ids and units, and the rates staged (a percentage or
 * MiB/s) with the value each reads alone (hundredths of a percent, bytes per second). */
static const struct {
    const char *name;
    unsigned int id;
    const char *units;
    double rate;
    long long want;
} gpm[] = {
    {"gpm_sm_activity", 2, "0.01%", 45.25, 4525},
    {"gpm_sm_occupancy", 3, "0.01%", 30.5, 3050},
    {"gpm_tensor_activity", 5, "0.01%", 12.0, 1200},
    {"gpm_fp64_activity", 11, "0.01%", 7.75, 775},
    {"gpm_fp32_activity", 12, "0.01%", 20.0, 2000},
    {"gpm_fp16_activity", 13, "0.01%", 1.5, 150},
    {"gpm_dram_bandwidth", 10, "0.01%", 60.125, 6013},
    {"gpm_pcie_rx", 21, "B/s", 1000.5, 1049100288LL},
    {"gpm_pcie_tx", 20, "B/s", 250.0, 262144000LL},
    {"gpm_nvlink_rx", 60, "B/s", 0.25, 262144LL},
    {"gpm_nvlink_tx", 61, "B/s", 8192.0, 8589934592LL},
};
#define NGPM ((int)(sizeof gpm / sizeof gpm[0]))

static int nvml_cidx(void)
{
    int cidx = PAPI_get_component_index("nvml");
    if (cidx < 0 || PAPI_get_component_info(cidx)->disabled) {
        fprintf(stderr, "FAIL: nvml missing or disabled: %s\n",
                cidx < 0 ? "" : PAPI_get_component_reason(cidx));
        exit(1);
    }
    return cidx;
}

static void expect_caveat(int cidx, const char *words)
{
    const char *note = PAPI_get_component_reason(cidx);
    printf("caveat: %s\n", note ? note : "(none)");
    CHECK(note && strstr(note, words) && !strpbrk(note, "\r\n"), "caveat '%s' lacks '%s'",
          note ? note : "", words);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void stage_all(void)
{
    for (int i = 0; i < NGPM; i++)
        nvml_double_gpm_rate(0, gpm[i].id, gpm[i].rate);
}

/* Every event listed on device 0 with its units and a description naming the interval;
 * none on device 1 (an A100: no GPM), the reason in the caveat. */
static void check_table(int cidx)
{
    for (int i = 0; i < NGPM; i++) {
        char name[PAPI_MAX_STR_LEN];
        PAPI_event_info_t info;
        snprintf(name, sizeof name, DEV0 "%s", gpm[i].name);
        event_info_of(name, &info);
        CHECK(strcmp(info.units, gpm[i].units) == 0, "%s: units '%s', want '%s'", name, info.units,
              gpm[i].units);
        CHECK(strstr(info.long_descr, "over the interval since PAPI_start or PAPI_reset"),
              "%s: description '%s'", name, info.long_descr);
        snprintf(name, sizeof name, DEV0 "%s%s", gpm[i].name,
                 gpm[i].units[0] == '0' ? "_ns" : "_bytes");
        event_info_of(name, &info);
        CHECK(strcmp(info.units, gpm[i].units[0] == '0' ? "ns" : "B") == 0, "%s: units '%s'", name,
              info.units);
        snprintf(name, sizeof name, DEV1 "%s", gpm[i].name);
        int code;
        CHECK_RET(PAPI_event_name_to_code(name, &code), PAPI_ENOEVNT);
    }
    expect_caveat(cidx, "no GPM events on device 1 (NVIDIA_A100-PCIE-40GB): no GPM on this "
                        "device (nvmlGpmQueryDeviceSupport");
}

/* Each event alone over start..read: its staged rate, exact in its units. */
static void check_each(void)
{
    stage_all();
    for (int i = 0; i < NGPM; i++) {
        char name[PAPI_MAX_STR_LEN];
        const char *names[] = {name};
        long long v = -1;
        snprintf(name, sizeof name, DEV0 "%s", gpm[i].name);
        int es = named_set(names, 1);
        CHECK_RET(PAPI_start(es), PAPI_OK);
        nvml_double_gpm_advance(0, 500);
        sleep_ms(100); /* the library's interval: 100 ms or more */
        CHECK_RET(PAPI_read(es, &v), PAPI_OK);
        expect_values(names, &v, &gpm[i].want, 1);
        CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
        free_set(&es);
    }
}

/* The interval is start..read: a rate that changes is averaged over it; stop freezes
 * the value; a restart, a reset begin a new interval; PAPI_accum's sum telescopes to
 * the latest average. */
static void check_interval(void)
{
    const char *names[] = {DEV0 "gpm_sm_activity", DEV0 "gpm_pcie_tx"};
    long long v[2];
    int es = named_set(names, 2);
    nvml_double_gpm_rate(0, 2, 45.25);
    nvml_double_gpm_rate(0, 20, 100.0);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    nvml_double_gpm_advance(0, 1000);
    sleep_ms(100);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 4525);
    CHECK_EQ_LL(v[1], 100 * 1048576LL);
    nvml_double_gpm_rate(0, 2, 85.25);
    nvml_double_gpm_rate(0, 20, 300.0);
    nvml_double_gpm_advance(0, 3000);
    CHECK_RET(PAPI_read(es, v), PAPI_OK); /* (45.25 + 3 x 85.25) / 4; (100 + 900) / 4 */
    CHECK_EQ_LL(v[0], 7525);
    CHECK_EQ_LL(v[1], 250 * 1048576LL);
    nvml_double_gpm_advance(0, 4000); /* 8 s: (301 + 341) / 8 = 80.25 */
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 8025);
    nvml_double_gpm_rate(0, 2, 10.0);
    nvml_double_gpm_advance(0, 1000);
    CHECK_RET(PAPI_read(es, v), PAPI_OK); /* stopped: the value at stop */
    CHECK_EQ_LL(v[0], 8025);
    CHECK_RET(PAPI_start(es), PAPI_OK); /* a new interval: 10 % alone */
    nvml_double_gpm_advance(0, 2000);
    sleep_ms(100);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 1000);
    nvml_double_gpm_rate(0, 2, 50.0);
    CHECK_RET(PAPI_reset(es), PAPI_OK); /* the interval begins again: 50 % alone */
    nvml_double_gpm_advance(0, 1000);
    sleep_ms(100);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ_LL(v[0], 5000);
    long long acc[2] = {0, 0};
    CHECK_RET(PAPI_accum(es, acc), PAPI_OK); /* 50 % since the reset */
    CHECK_EQ_LL(acc[0], 5000);
    nvml_double_gpm_rate(0, 2, 20.0);
    nvml_double_gpm_advance(0, 1000);
    CHECK_RET(PAPI_accum(es, acc), PAPI_OK); /* adds 35 - 50: the average over 2 s */
    CHECK_EQ_LL(acc[0], 3500);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    free_set(&es);
    CHECK(nvml_double_gpm_samples() == 0, "%d GPM samples not freed", nvml_double_gpm_samples());
}

/* Within [lo, hi] (the test's clock readings before and after the library's). */
static void within(const char *what, long long v, double lo, double hi)
{
    printf("%s: %lld in [%.0f, %.0f]\n", what, v, lo, hi);
    CHECK((double)v >= lo - 1 && (double)v <= hi + 1, "%s: %lld outside [%.0f, %.0f]", what, v, lo,
          hi);
}

/* The counter forms: 0 at once after the start (a read there is no loss), then the
 * average times each step of 100 ms or more (ns at 100 %, bytes), unchanged by a read
 * sooner; they add up over stop/start and PAPI_accum, as counters do. */
static void check_counters(void)
{
    const char *names[] = {DEV0 "gpm_sm_activity_ns", DEV0 "gpm_pcie_rx_bytes"};
    PAPI_event_info_t info;
    event_info_of(names[0], &info);
    CHECK(strcmp(info.units, "ns") == 0, "%s: units '%s'", names[0], info.units);
    CHECK(strstr(info.long_descr, "in steps of 100 ms or more at GPM's refresh"),
          "%s: description '%s'", names[0], info.long_descr);
    event_info_of(names[1], &info);
    CHECK(strcmp(info.units, "B") == 0, "%s: units '%s'", names[1], info.units);
    long long v[2], w[2], t0, t1, t2, t3, t4;
    int es = named_set(names, 2);
    nvml_double_gpm_rate(0, 2, 40.0);
    nvml_double_gpm_rate(0, 21, 100.0);
    t0 = PAPI_get_real_nsec();
    CHECK_RET(PAPI_start(es), PAPI_OK);
    t1 = PAPI_get_real_nsec();
    CHECK_RET(PAPI_read(es, v), PAPI_OK); /* at once: no step yet */
    CHECK_EQ_LL(v[0], 0);
    CHECK_EQ_LL(v[1], 0);
    nvml_double_gpm_advance(0, 1000);
    sleep_ms(120);
    t2 = PAPI_get_real_nsec();
    CHECK_RET(PAPI_read(es, v), PAPI_OK); /* one step: start..this read */
    t3 = PAPI_get_real_nsec();
    within("sm_activity_ns", v[0], 0.40 * (double)(t2 - t1), 0.40 * (double)(t3 - t0));
    within("pcie_rx_bytes", v[1], 100 * 1048576.0 * (double)(t2 - t1) * 1e-9,
           100 * 1048576.0 * (double)(t3 - t0) * 1e-9);
    CHECK_RET(PAPI_read(es, w), PAPI_OK); /* sooner than a step: unchanged */
    t4 = PAPI_get_real_nsec();
    if (t4 - t2 < 100000000LL) {
        CHECK_EQ_LL(w[0], v[0]);
        CHECK_EQ_LL(w[1], v[1]);
    } else { /* a stalled machine took a step between the reads: it only adds */
        printf("reads %lld ns apart: a step between them\n", t4 - t2);
        CHECK(w[0] >= v[0], "%lld fell to %lld", v[0], w[0]);
    }
    nvml_double_gpm_rate(0, 2, 60.0);
    nvml_double_gpm_advance(0, 1000);
    sleep_ms(150);
    t1 = PAPI_get_real_nsec();
    CHECK_RET(PAPI_read(es, w), PAPI_OK); /* the next step: from the read at t2..t3 */
    within("second step", w[0] - v[0], 0.60 * (double)(t1 - t3),
           0.60 * (double)(PAPI_get_real_nsec() - t2));
    CHECK_RET(PAPI_stop(es, v), PAPI_OK); /* sooner than a step: the value at the read */
    CHECK(v[0] >= w[0], "stop %lld below the read's %lld", v[0], w[0]);
    nvml_double_gpm_rate(0, 2, 80.0);
    t0 = PAPI_get_real_nsec();
    CHECK_RET(PAPI_start(es), PAPI_OK); /* the set's values from 0; the interval anew */
    t1 = PAPI_get_real_nsec();
    nvml_double_gpm_advance(0, 1000);
    sleep_ms(120);
    long long acc[2] = {0, 0};
    t2 = PAPI_get_real_nsec();
    CHECK_RET(PAPI_accum(es, acc), PAPI_OK); /* the second period so far, then from 0 */
    t3 = PAPI_get_real_nsec();
    within("second period", acc[0], 0.80 * (double)(t2 - t1), 0.80 * (double)(t3 - t0));
    nvml_double_gpm_advance(0, 1000);
    sleep_ms(120);
    t1 = PAPI_get_real_nsec();
    CHECK_RET(PAPI_stop(es, v), PAPI_OK); /* what grew since the accum */
    within("after the accum", v[0], 0.80 * (double)(t1 - t3),
           0.80 * (double)(PAPI_get_real_nsec() - t2));
    free_set(&es);
}

/* An average read sooner than 100 ms after the start: refused, the interval and GPM's
 * refresh said (NVML's NaN or 0 there is no value). */
static void check_short(void)
{
    const char *names[] = {DEV0 "gpm_dram_bandwidth"};
    long long v = 0;
    int es = named_set(names, 1);
    nvml_double_gpm_rate(0, 10, 60.125);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    CHECK_RET(PAPI_read(es, &v), PAPI_ESYS);
    expect_reason("short interval", "NVML GPM metric 10 of device 0: the interval was ",
                  " ms, under the 100 ms at which GPM's counters refresh");
    CHECK_RET(PAPI_stop(es, &v), PAPI_ESYS); /* at once too: refused, said */
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    free_set(&es);
    CHECK(nvml_double_gpm_samples() == 0, "%d GPM samples not freed", nvml_double_gpm_samples());
}

/* A metric the device does not compute fails the read, said; another consumer that
 * holds the monitors makes PAPI_start fail with PAPI_ECNFLCT, said. */
static void check_failures(void)
{
    const char *names[] = {DEV0 "gpm_nvlink_rx"};
    long long v = 0;
    int es = named_set(names, 1);
    nvml_double_set(0, "gpm_unsupported", 60);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    nvml_double_gpm_advance(0, 200);
    CHECK_RET(PAPI_read(es, &v), PAPI_ESYS);
    expect_reason("unsupported metric", DEV0 "gpm_nvlink_rx",
                  "nvmlGpmMetricsGet's metric (metric 60) on device 0 failed: Not "
                  "Supported (NVML error 3)");
    CHECK_RET(PAPI_stop(es, &v), PAPI_ESYS); /* stopped all the same, said */
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    free_set(&es);
    const char *sm[] = {DEV0 "gpm_sm_activity"};
    es = named_set(sm, 1);
    nvml_double_set(0, "gpm_in_use", 1);
    CHECK_RET(PAPI_start(es), PAPI_ECNFLCT);
    expect_reason("in use",
                  "nvmlGpmSampleGet (metric 2) on device 0 failed: In use by another client "
                  "(NVML error 19): another consumer",
                  NULL);
    nvml_double_set(0, "gpm_in_use", 0);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    nvml_double_gpm_advance(0, 200);
    sleep_ms(100); /* an average's shortest interval */
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    free_set(&es);
    CHECK(nvml_double_gpm_samples() == 0, "%d GPM samples not freed", nvml_double_gpm_samples());
}

/* Device 0 without GPM events for the reason mode sets before PAPI_library_init; its
 * other events still count. */
static int absent(const char *what, const char *words)
{
    nvml_double_set(0, what, 1);
    init_or_die();
    int cidx = nvml_cidx(), code;
    CHECK_RET(PAPI_event_name_to_code(DEV0 "gpm_sm_activity", &code), PAPI_ENOEVNT);
    CHECK_RET(PAPI_event_name_to_code(DEV0 "power", &code), PAPI_OK);
    expect_caveat(cidx, words);
    PAPI_shutdown();
    return test_done(what);
}

/* A region of 150 ms at 62.5 % SM activity and 100 MiB/s PCIe rx, then one of 300 ms at
 * 25 % and 50 MiB/s, on a device whose clock is real time (so the library's interval and
 * the device's agree): their SM-busy ns through PAPI_EVENTS (check_gpu_region.py) or
 * their GPU metrics through PAPI_METRICS (check_gpu_metric_region.py). Each region's
 * reads are right after a start or a step: the counter forms must count them all. */
static int region(void)
{
    nvml_double_set(0, "gpm_realtime", 1); /* the device's clock is real time */
    nvml_double_gpm_rate(0, 2, 62.5);
    nvml_double_gpm_rate(0, 21, 100.0);
    CHECK_RET(PAPI_hl_region_begin("gpu_first"), PAPI_OK);
    sleep_ms(150);
    CHECK_RET(PAPI_hl_region_end("gpu_first"), PAPI_OK);
    nvml_double_gpm_rate(0, 2, 25.0);
    nvml_double_gpm_rate(0, 21, 50.0);
    CHECK_RET(PAPI_hl_region_begin("gpu_work"), PAPI_OK);
    sleep_ms(300);
    CHECK_RET(PAPI_hl_region_end("gpu_work"), PAPI_OK);
    return test_done("test_nvml_gpm region");
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "region") == 0)
        return region();
    if (argc > 1 && strcmp(argv[1], "mig") == 0)
        return absent("mig", "no GPM events on device 0 (NVIDIA_H100_80GB_HBM3): in MIG mode");
    if (argc > 1 && strcmp(argv[1], "in_use") == 0)
        return absent("gpm_in_use", "no GPM events on device 0 (NVIDIA_H100_80GB_HBM3): "
                                    "nvmlGpmSampleGet failed: In use by another client (NVML "
                                    "error 19): another consumer");
    init_or_die();
    int cidx = nvml_cidx();
    check_table(cidx);
    check_each();
    check_interval();
    check_failures();
    check_counters();
    check_short();
    PAPI_shutdown();
    CHECK(nvml_double_gpm_samples() == 0, "%d GPM samples left at shutdown",
          nvml_double_gpm_samples());
    return test_done("test_nvml_gpm");
}
