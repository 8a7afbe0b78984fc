/* nvml_gpm.c: the nvml component's GPM events (nvml_gpm.h). Each slot holds two GPM
 * samples and the request of its metric: the sample where its interval began and the
 * one taken at each read. Values are integers in the units papi_native_avail shows:
 * percentages in hundredths of a percent (4525 is 45.25 %), traffic in bytes per second
 * (NVML's MiB/s times 1048576), rounded to the nearest. NVML asks for more than 100 ms
 * between two samples (its counters refresh at that rate): a shorter interval reads what
 * NVML computes from the samples it has, said in the descriptions.
 *
 * Each metric also has a counter form, the average times the interval's length on this
 * library's clock: <name>_ns for a percentage (the time at 100 %: SM-busy nanoseconds),
 * <name>_bytes for traffic. Counters add up over regions, reads and PAPI_accum, which
 * averages do not: the named metrics (GPU_SM_ACTIVE ...) divide them by the time. */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mono_clock.h"
#include "nvml_gpm.h"

/* The step that failed, above the NVML code in an error (nvml_gpm_explain). */
enum { GPM_SAMPLE = 1 << 16, GPM_METRICS = 2 << 16, GPM_METRIC = 3 << 16, GPM_VALUE = 4 << 16 };
#define GPM_STEP(err) ((err) & ~0xffff)
#define GPM_NVML(err) ((err)&0xffff)

static struct {
    __typeof__(nvmlGpmQueryDeviceSupport) *query;
    __typeof__(nvmlGpmSampleAlloc) *alloc;
    __typeof__(nvmlGpmSampleFree) *free;
    __typeof__(nvmlGpmSampleGet) *get;
    __typeof__(nvmlGpmMetricsGet) *metrics;
    __typeof__(nvmlDeviceGetMigMode) *mig_mode; /* optional: MIG is then not checked */
    __typeof__(nvmlErrorString) *error_string;
    nvmlDevice_t *dev;
} gpm;

/* The events: name, NVML metric, percent (else MiB/s), description. */
static const struct gpm_kind {
    const char *name;
    int metric, percent;
    const char *descr;
} kinds[] = {
    {"gpm_sm_activity", NVML_GPM_METRIC_SM_UTIL, 1, "SM activity: mean percent of SMs busy"},
    {"gpm_sm_occupancy", NVML_GPM_METRIC_SM_OCCUPANCY, 1,
     "SM occupancy: mean percent of resident warps against the SMs' maximum"},
    {"gpm_tensor_activity", NVML_GPM_METRIC_ANY_TENSOR_UTIL, 1,
     "Tensor pipe activity: mean percent of time the SMs ran tensor instructions (any type)"},
    {"gpm_fp64_activity", NVML_GPM_METRIC_FP64_UTIL, 1,
     "FP64 pipe activity: mean percent of time the SMs ran non-tensor FP64 math"},
    {"gpm_fp32_activity", NVML_GPM_METRIC_FP32_UTIL, 1,
     "FP32 pipe activity: mean percent of time the SMs ran non-tensor FP32 math"},
    {"gpm_fp16_activity", NVML_GPM_METRIC_FP16_UTIL, 1,
     "FP16 pipe activity: mean percent of time the SMs ran non-tensor FP16 math"},
    {"gpm_dram_bandwidth", NVML_GPM_METRIC_DRAM_BW_UTIL, 1,
     "DRAM bandwidth: mean percent of the device memory's peak bandwidth used"},
    {"gpm_pcie_rx", NVML_GPM_METRIC_PCIE_RX_PER_SEC, 0, "PCIe traffic received by the GPU"},
    {"gpm_pcie_tx", NVML_GPM_METRIC_PCIE_TX_PER_SEC, 0, "PCIe traffic sent by the GPU"},
    {"gpm_nvlink_rx", NVML_GPM_METRIC_NVLINK_TOTAL_RX_PER_SEC, 0,
     "NVLink traffic received, all links"},
    {"gpm_nvlink_tx", NVML_GPM_METRIC_NVLINK_TOTAL_TX_PER_SEC, 0, "NVLink traffic sent, all links"},
};
#define NKINDS ((int)(sizeof kinds / sizeof kinds[0]))
enum { GPM_AVERAGE, GPM_COUNTER }; /* an event's kind: the average or its counter form */

/* Whether metric is a percentage (else MiB/s). */
static int is_percent(int metric)
{
    for (int k = 0; k < NKINDS; k++)
        if (kinds[k].metric == metric)
            return kinds[k].percent;
    return 0;
}

/* ---- loading and discovery ------------------------------------------------------ */
int nvml_gpm_load(void *handle, nvmlDevice_t *devs, char *why, size_t len)
{
    static const char *const names[] = {"nvmlGpmQueryDeviceSupport", "nvmlGpmSampleAlloc",
                                        "nvmlGpmSampleFree", "nvmlGpmSampleGet",
                                        "nvmlGpmMetricsGet"};
    void **at[] = {(void **)&gpm.query, (void **)&gpm.alloc, (void **)&gpm.free, (void **)&gpm.get,
                   (void **)&gpm.metrics};
    char missing[256] = "";
    memset(&gpm, 0, sizeof gpm);
    for (int i = 0; i < 5; i++) {
        size_t used = strlen(missing);
        if (!(*at[i] = dlsym(handle, names[i])))
            snprintf(missing + used, sizeof missing - used, "%s%s", used ? ", " : "", names[i]);
    }
    *(void **)&gpm.mig_mode = dlsym(handle, "nvmlDeviceGetMigMode");
    *(void **)&gpm.error_string = dlsym(handle, "nvmlErrorString");
    gpm.dev = devs;
    if (missing[0]) {
        snprintf(why, len,
                 "lacks %s: no GPM events (SM activity, pipes, DRAM, PCIe, NVLink; GPM came with "
                 "the NVML of CUDA 12, driver 520)",
                 missing);
        gpm.get = NULL;
        return 0;
    }
    return 1;
}

void nvml_gpm_unload(void)
{
    memset(&gpm, 0, sizeof gpm);
}

static const char *words_of(int code)
{
    const char *w = gpm.error_string ? gpm.error_string(code) : NULL;
    return w ? w : "unknown error";
}

/* Whether NVML's code says another consumer holds the GPU's performance monitors. */
static int held_elsewhere(int code)
{
    return code == NVML_ERROR_IN_USE || code == NVML_ERROR_INSUFFICIENT_RESOURCES;
}

/* The words said after such a code (else ""): at discovery and at a read alike. */
static const char *held_note(int code)
{
    return held_elsewhere(code) ? ": another consumer (DCGM's profiling, Nsight) holds the "
                                  "GPU's performance monitors"
                                : "";
}

/* Why device d has no GPM events, into why[len]; "" when it has them. */
static void device_support(nvmlDevice_t d, char *why, size_t len)
{
    unsigned int cur = 0, pending = 0;
    why[0] = '\0';
    if (gpm.mig_mode && gpm.mig_mode(d, &cur, &pending) == NVML_SUCCESS &&
        cur == NVML_DEVICE_MIG_ENABLE) {
        snprintf(why, len,
                 "in MIG mode (GPM of a MIG device is sampled per GPU instance, which this "
                 "component does not read)");
        return;
    }
    nvmlGpmSupport_t sup = {.version = NVML_GPM_SUPPORT_VERSION};
    nvmlReturn_t r = gpm.query(d, &sup);
    if (r != NVML_SUCCESS) {
        snprintf(why, len, "nvmlGpmQueryDeviceSupport failed: %s (NVML error %d)", words_of(r), r);
        return;
    }
    if (!sup.isSupportedDevice) {
        snprintf(why, len,
                 "no GPM on this device (nvmlGpmQueryDeviceSupport: GPM needs a Hopper "
                 "or newer GPU)");
        return;
    }
    nvmlGpmSample_t s = NULL;
    if ((r = gpm.alloc(&s)) == NVML_SUCCESS)
        r = gpm.get(d, s);
    if (s)
        gpm.free(s);
    if (r != NVML_SUCCESS)
        snprintf(why, len, "nvmlGpmSampleGet failed: %s (NVML error %d)%s", words_of(r), r,
                 held_note(r));
}

/* Device i's event of kind k: the average (GPM_AVERAGE) or its counter form. */
static int add_event(struct event_table *t, int i, const char *dname, const struct gpm_kind *k,
                     int counter)
{
    char name[256], descr[640];
    static const char *const units[2][2] = {{"B/s", "0.01%"}, {"B", "ns"}};
    snprintf(name, sizeof name, "%s:device_%d:%s%s", dname, i, k->name,
             !counter     ? ""
             : k->percent ? "_ns"
                          : "_bytes");
    if (!counter)
        snprintf(descr, sizeof descr,
                 "%s, %s, over the interval since PAPI_start or PAPI_reset (NVML GPM metric %d "
                 "from two samples; NVML asks for 100 ms or more between them) (device %d, %s)",
                 k->descr,
                 k->percent ? "in hundredths of a percent (4525 is 45.25 %)"
                            : "in bytes per second",
                 k->metric, i, dname);
    else
        snprintf(descr, sizeof descr,
                 "%s, counted: the average over the interval since PAPI_start or PAPI_reset times "
                 "its length, %s (NVML GPM metric %d) (device %d, %s)",
                 k->descr,
                 k->percent ? "in nanoseconds at 100 % (divided by the time: the average)"
                            : "in bytes",
                 k->metric, i, dname);
    struct gpu_event ev = {.name = name,
                           .descr = descr,
                           .units = units[counter][k->percent],
                           .device = i,
                           .kind = counter ? GPM_COUNTER : GPM_AVERAGE,
                           .arg = k->metric,
                           .instant = !counter,
                           .interval = 1};
    return gpu_table_add(t, &ev);
}

int nvml_gpm_add_device(struct event_table *t, int i, const char *dname, char *note, size_t len)
{
    char why[256];
    if (!gpm.get)
        return PAPI_OK;
    device_support(gpm.dev[i], why, sizeof why);
    if (why[0]) {
        size_t used = strlen(note);
        snprintf(note + used, len - used, "%sno GPM events on device %d (%s): %s", used ? "; " : "",
                 i, dname, why);
        return PAPI_OK;
    }
    for (int k = 0; k < NKINDS; k++) {
        int ret = add_event(t, i, dname, &kinds[k], 0);
        if (ret == PAPI_OK)
            ret = add_event(t, i, dname, &kinds[k], 1);
        if (ret != PAPI_OK)
            return ret;
    }
    return PAPI_OK;
}

/* ---- reading ---------------------------------------------------------------------- */
/* A slot's state: its interval's first sample, the latest, and the request. */
struct gpm_state {
    nvmlGpmSample_t begin, now;
    uint64_t begin_ns; /* when begin was taken (mono_clock_ns) */
    nvmlGpmMetricsGet_t get;
};

static void state_close(void *state)
{
    struct gpm_state *s = state;
    if (s->begin)
        gpm.free(s->begin);
    if (s->now)
        gpm.free(s->now);
    free(s);
}

static int state_open(const struct gpu_event *e, void **state)
{
    struct gpm_state *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    if (gpm.alloc(&s->begin) != NVML_SUCCESS || gpm.alloc(&s->now) != NVML_SUCCESS) {
        state_close(s);
        return -1;
    }
    s->get.version = NVML_GPM_METRICS_GET_VERSION;
    s->get.numMetrics = 1;
    s->get.metrics[0].metricId = (unsigned int)e->arg;
    *state = s;
    return 0;
}

static int mark(const struct gpu_event *e, void *state)
{
    struct gpm_state *s = state;
    s->begin_ns = mono_clock_ns();
    nvmlReturn_t r = gpm.get(gpm.dev[e->device], s->begin);
    return r == NVML_SUCCESS ? 0 : GPM_SAMPLE | r;
}

/* The metric over begin .. now in the event's units. */
static int value(const struct gpu_event *e, void *state, uint64_t *v)
{
    struct gpm_state *s = state;
    uint64_t ns = mono_clock_ns() - s->begin_ns;
    nvmlReturn_t r = gpm.get(gpm.dev[e->device], s->now);
    if (r != NVML_SUCCESS)
        return GPM_SAMPLE | r;
    s->get.sample1 = s->begin;
    s->get.sample2 = s->now;
    s->get.metrics[0].nvmlReturn = NVML_SUCCESS;
    if ((r = gpm.metrics(&s->get)) != NVML_SUCCESS)
        return GPM_METRICS | r;
    if ((r = s->get.metrics[0].nvmlReturn) != NVML_SUCCESS)
        return GPM_METRIC | r;
    double x = s->get.metrics[0].value, secs = (double)ns * 1e-9;
    if (is_percent(e->arg)) /* hundredths of a percent, or ns at 100 % */
        x *= e->kind == GPM_AVERAGE ? 100.0 : (double)ns / 100.0;
    else /* MiB/s in B/s, or times the interval's seconds in bytes */
        x *= e->kind == GPM_AVERAGE ? 1048576.0 : 1048576.0 * secs;
    if (!isfinite(x) || x < 0 || x >= 0x1p63)
        return GPM_VALUE;
    *v = (uint64_t)(x + 0.5); /* to the nearest, without libm (static links need none) */
    return 0;
}

const struct gpu_interval nvml_gpm_interval = {state_open, state_close, mark, value};

void nvml_gpm_explain(const struct gpu_event *e, int err, char *buf, size_t len)
{
    int code = GPM_NVML(err);
    const char *step = GPM_STEP(err) == GPM_SAMPLE    ? "nvmlGpmSampleGet"
                       : GPM_STEP(err) == GPM_METRICS ? "nvmlGpmMetricsGet"
                                                      : "nvmlGpmMetricsGet's metric";
    if (GPM_STEP(err) == GPM_VALUE) {
        snprintf(buf, len,
                 "NVML GPM metric %d of device %d is not a finite number in range (no "
                 "value is made up)",
                 e->arg, e->device);
        return;
    }
    snprintf(buf, len, "%s (metric %d) on device %d failed: %s (NVML error %d)%s", step, e->arg,
             e->device, words_of(code), code,
             held_elsewhere(code) ? held_note(code)
             : code == NVML_ERROR_GPU_IS_LOST
                 ? ": the GPU fell off the bus or was reset; the other devices still count"
                 : "");
}

int nvml_gpm_papi_code(int err)
{
    return held_elsewhere(GPM_NVML(err)) ? PAPI_ECNFLCT : PAPI_ESYS;
}
