/* nvml_double.c: a test double of libnvidia-ml.so.1, built by the tests as a shared object
 * with that soname and NVML's symbol names and signatures (nvml_api.h, the component's
 * own declarations: the compiler checks both against one another). It holds two devices
 * whose readings the test sets through nvml_double_set and loses through nvml_double_lose,
 * with NVML's documented units (mW, mJ, C, %, bytes, MHz). Variants by compile definition:
 *   NVML_DOUBLE_NO_HANDLE_V2   lacks nvmlDeviceGetHandleByIndex_v2 (an older NVML)
 *   NVML_DOUBLE_INIT_FAILS     nvmlInit_v2 answers NVML_ERROR_DRIVER_NOT_LOADED
 *   NVML_DOUBLE_NO_ENERGY      lacks nvmlDeviceGetTotalEnergyConsumption (optional)
 *   NVML_DOUBLE_NO_MEMORY_V2   lacks nvmlDeviceGetMemoryInfo_v2 (an NVML before it)
 *   NVML_DOUBLE_DEVICES=n      n devices (0: none)
 *   NVML_DOUBLE_GPM            device 0 is a Hopper with GPM (else neither device has it)
 *   NVML_DOUBLE_NO_GPM         lacks the GPM calls (an NVML before CUDA 12)
 * GPM as NVML computes it: each device integrates, over a clock the test advances
 * (nvml_double_gpm_advance), the rates the test sets (nvml_double_gpm_rate: a metric's
 * value while the clock runs); a sample holds the clock and the integrals, and a metric
 * over two samples is the integrals' difference over the time between them, so a value
 * is exact for the staged rates and intervals, over 100 ms or more of its clock: over less
 * it is NaN, as a real device's GPM (refreshed every 100 ms) gives for DRAM bandwidth. With nvml_double_set(dev, "gpm_realtime",
 * 1) the clock is CLOCK_MONOTONIC instead, as a real device's (a region's counter form
 * then measures what the test staged over real time).
 * Memory as NVML keeps it: total = reserved (the driver's and firmware's) + used (what
 * allocations hold) + free; _v2 answers all four, v1 answers used + reserved as "used". */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nvml_api.h"

#ifndef NVML_DOUBLE_DEVICES
#define NVML_DOUBLE_DEVICES 2
#endif
#define MAXDEV  2
#define GPM_IDS 64 /* the metric ids the double knows: below this */

struct nvmlDevice_st {
    const char *name;
    unsigned int power_mw, temp_c, util_gpu, util_mem, clock[3], max_clock[3];
    unsigned long long energy_mj, mem_total, mem_reserved, mem_used;
    int no_temp; /* this device does not report a temperature (NOT_SUPPORTED) */
    int lost;
    /* GPM: supported, in MIG mode, its monitors held by another consumer; the clock (ms),
     * each metric's rate now and its integral over the clock; unsupported metrics. */
    int gpm, mig, gpm_in_use;
    int gpm_realtime;                   /* the clock is CLOCK_MONOTONIC's */
    unsigned long long gpm_us, real_us; /* the clock; CLOCK_MONOTONIC at its last update */
    double rate[GPM_IDS], integral[GPM_IDS];
    int gpm_unsupported[GPM_IDS];
};

#ifdef NVML_DOUBLE_GPM
#define DEV0_NAME "NVIDIA H100 80GB HBM3"
#define DEV0_GPM  1
#else
#define DEV0_NAME "Tesla V100-SXM2-16GB"
#define DEV0_GPM  0
#endif

/* Two devices with the documented units; device 1 has no temperature sensor. */
static struct nvmlDevice_st devs[MAXDEV] = {
    {DEV0_NAME,
     56000,
     41,
     0,
     0,
     {135, 135, 877},
     {1530, 1530, 877},
     123456789ULL,
     17179869184ULL, /* 16 GiB: 384 MiB reserved, 300 MiB used */
     402653184ULL,
     314572800ULL,
     0,
     0,
     DEV0_GPM},
    {"NVIDIA A100-PCIE-40GB",
     33000,
     0,
     0,
     0,
     {210, 210, 1215},
     {1410, 1410, 1215},
     1000ULL,
     42949672960ULL, /* 40 GiB: 512 MiB reserved, none used */
     536870912ULL,
     0ULL,
     1,
     0},
};
static int initialised;

static void advance_us(struct nvmlDevice_st *d, unsigned long long us)
{
    for (int i = 0; i < GPM_IDS; i++)
        d->integral[i] += d->rate[i] * (double)us;
    d->gpm_us += us;
}

/* A real-time device's clock brought to now. */
static void catch_up(struct nvmlDevice_st *d)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    unsigned long long now =
        (unsigned long long)ts.tv_sec * 1000000ULL + (unsigned long long)ts.tv_nsec / 1000;
    if (d->gpm_realtime && d->real_us)
        advance_us(d, now - d->real_us);
    d->real_us = now;
}

/* ---- the test's controls ---------------------------------------------------------- */
int nvml_double_set(unsigned int dev, const char *what, unsigned long long v)
{
    struct nvmlDevice_st *d = &devs[dev];
    if (dev >= MAXDEV)
        return -1;
    if (!strcmp(what, "power"))
        d->power_mw = (unsigned int)v;
    else if (!strcmp(what, "energy"))
        d->energy_mj = v;
    else if (!strcmp(what, "temp"))
        d->temp_c = (unsigned int)v;
    else if (!strcmp(what, "util_gpu"))
        d->util_gpu = (unsigned int)v;
    else if (!strcmp(what, "util_mem"))
        d->util_mem = (unsigned int)v;
    else if (!strcmp(what, "mem_used")) /* as _v2 answers it: the reserve apart */
        d->mem_used = v;
    else if (!strcmp(what, "mem_reserved"))
        d->mem_reserved = v;
    else if (!strcmp(what, "sm_clock"))
        d->clock[NVML_CLOCK_SM] = (unsigned int)v;
    else if (!strcmp(what, "gpm")) /* set before PAPI_library_init to count at discovery */
        d->gpm = (int)v;
    else if (!strcmp(what, "mig"))
        d->mig = (int)v;
    else if (!strcmp(what, "gpm_realtime")) {
        catch_up(d);
        d->gpm_realtime = (int)v;
    } else if (!strcmp(what, "gpm_in_use"))
        d->gpm_in_use = (int)v;
    else if (!strcmp(what, "gpm_unsupported") && v < GPM_IDS) /* v: a metric id */
        d->gpm_unsupported[v] = 1;
    else
        return -1;
    return 0;
}

/* GPM's staging: metric id's rate from now on (a percentage, MiB/s), and the clock. */
int nvml_double_gpm_rate(unsigned int dev, unsigned int id, double rate)
{
    if (dev >= MAXDEV || id >= GPM_IDS)
        return -1;
    catch_up(&devs[dev]);
    devs[dev].rate[id] = rate;
    return 0;
}

void nvml_double_gpm_advance(unsigned int dev, unsigned long long ms)
{
    advance_us(&devs[dev], ms * 1000);
}

static int live_samples;

/* GPM samples allocated and not freed. */
int nvml_double_gpm_samples(void)
{
    return live_samples;
}

void nvml_double_lose(unsigned int dev)
{
    devs[dev].lost = 1;
}

int nvml_double_initialised(void)
{
    return initialised;
}

/* ---- NVML ---------------------------------------------------------------------------- */
nvmlReturn_t nvmlInit_v2(void)
{
#ifdef NVML_DOUBLE_INIT_FAILS
    return NVML_ERROR_DRIVER_NOT_LOADED;
#endif
    initialised++;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlShutdown(void)
{
    initialised--;
    return NVML_SUCCESS;
}

const char *nvmlErrorString(nvmlReturn_t result)
{
    switch (result) {
    case NVML_SUCCESS:
        return "Success";
    case NVML_ERROR_NOT_SUPPORTED:
        return "Not Supported";
    case NVML_ERROR_DRIVER_NOT_LOADED:
        return "Driver Not Loaded";
    case NVML_ERROR_GPU_IS_LOST:
        return "GPU is lost";
    case NVML_ERROR_IN_USE:
        return "In use by another client";
    case NVML_ERROR_ARGUMENT_VERSION_MISMATCH:
        return "Argument version mismatch";
    default:
        return "Unknown Error";
    }
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *deviceCount)
{
    *deviceCount = NVML_DOUBLE_DEVICES;
    return NVML_SUCCESS;
}

#ifndef NVML_DOUBLE_NO_HANDLE_V2
nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device)
{
    if (index >= NVML_DOUBLE_DEVICES)
        return NVML_ERROR_INVALID_ARGUMENT;
    *device = &devs[index];
    return NVML_SUCCESS;
}
#endif

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length)
{
    strncpy(name, device->name, length - 1);
    name[length - 1] = '\0';
    return NVML_SUCCESS;
}

#define LOST_CHECK(d)                      \
    do {                                   \
        if ((d)->lost)                     \
            return NVML_ERROR_GPU_IS_LOST; \
    } while (0)

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int *power)
{
    LOST_CHECK(device);
    *power = device->power_mw;
    return NVML_SUCCESS;
}

#ifndef NVML_DOUBLE_NO_ENERGY
nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t device, unsigned long long *energy)
{
    LOST_CHECK(device);
    *energy = device->energy_mj;
    return NVML_SUCCESS;
}
#endif

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, nvmlTemperatureSensors_t sensorType,
                                      unsigned int *temp)
{
    LOST_CHECK(device);
    if (device->no_temp || sensorType != NVML_TEMPERATURE_GPU)
        return NVML_ERROR_NOT_SUPPORTED;
    *temp = device->temp_c;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t *utilization)
{
    LOST_CHECK(device);
    utilization->gpu = device->util_gpu;
    utilization->memory = device->util_mem;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t *memory)
{
    LOST_CHECK(device);
    memory->total = device->mem_total;
    memory->free = device->mem_total - device->mem_reserved - device->mem_used;
    memory->used = device->mem_reserved + device->mem_used; /* v1: the reserve included */
    return NVML_SUCCESS;
}

#ifndef NVML_DOUBLE_NO_MEMORY_V2
nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t device, nvmlMemory_v2_t *memory)
{
    LOST_CHECK(device);
    if (memory->version != nvmlMemory_v2)
        return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
    memory->total = device->mem_total;
    memory->reserved = device->mem_reserved;
    memory->free = device->mem_total - device->mem_reserved - device->mem_used;
    memory->used = device->mem_used;
    return NVML_SUCCESS;
}
#endif

nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, nvmlClockType_t type, unsigned int *clock)
{
    LOST_CHECK(device);
    if (type < 0 || type > NVML_CLOCK_MEM)
        return NVML_ERROR_NOT_SUPPORTED;
    *clock = device->clock[type];
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t device, nvmlClockType_t type,
                                       unsigned int *clock)
{
    LOST_CHECK(device);
    if (type < 0 || type > NVML_CLOCK_MEM)
        return NVML_ERROR_NOT_SUPPORTED;
    *clock = device->max_clock[type];
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t device, unsigned int *currentMode,
                                  unsigned int *pendingMode)
{
    LOST_CHECK(device);
    *currentMode = *pendingMode = device->mig ? NVML_DEVICE_MIG_ENABLE : NVML_DEVICE_MIG_DISABLE;
    return NVML_SUCCESS;
}

#ifndef NVML_DOUBLE_NO_GPM
struct nvmlGpmSample_st {
    nvmlDevice_t device; /* NULL until taken */
    unsigned long long us;
    double integral[GPM_IDS];
};

nvmlReturn_t nvmlGpmQueryDeviceSupport(nvmlDevice_t device, nvmlGpmSupport_t *gpmSupport)
{
    LOST_CHECK(device);
    if (gpmSupport->version != NVML_GPM_SUPPORT_VERSION)
        return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
    gpmSupport->isSupportedDevice = (unsigned int)device->gpm;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlGpmSampleAlloc(nvmlGpmSample_t *gpmSample)
{
    if (!gpmSample || !(*gpmSample = calloc(1, sizeof **gpmSample)))
        return NVML_ERROR_INVALID_ARGUMENT;
    live_samples++;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlGpmSampleFree(nvmlGpmSample_t gpmSample)
{
    if (!gpmSample)
        return NVML_ERROR_INVALID_ARGUMENT;
    live_samples--;
    free(gpmSample);
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlGpmSampleGet(nvmlDevice_t device, nvmlGpmSample_t gpmSample)
{
    LOST_CHECK(device);
    if (!device->gpm || device->mig)
        return NVML_ERROR_NOT_SUPPORTED;
    if (device->gpm_in_use)
        return NVML_ERROR_IN_USE;
    catch_up(device);
    gpmSample->device = device;
    gpmSample->us = device->gpm_us;
    memcpy(gpmSample->integral, device->integral, sizeof device->integral);
    return NVML_SUCCESS;
}

/* Each metric: the integrals' difference over the time between the samples, NaN when
 * they are under 100 ms apart (GPM's refresh; an H100's DRAM bandwidth does so); an id the double does not know, or that the device lacks, NOT_SUPPORTED. */
nvmlReturn_t nvmlGpmMetricsGet(nvmlGpmMetricsGet_t *metricsGet)
{
    if (metricsGet->version != NVML_GPM_METRICS_GET_VERSION)
        return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
    const struct nvmlGpmSample_st *a = metricsGet->sample1, *b = metricsGet->sample2;
    if (!a || !b || !a->device || a->device != b->device || b->us < a->us ||
        metricsGet->numMetrics > NVML_GPM_METRIC_MAX)
        return NVML_ERROR_INVALID_ARGUMENT;
    for (unsigned int i = 0; i < metricsGet->numMetrics; i++) {
        nvmlGpmMetric_t *m = &metricsGet->metrics[i];
        unsigned int id = m->metricId;
        m->nvmlReturn = id < GPM_IDS && !a->device->gpm_unsupported[id] ? NVML_SUCCESS
                                                                        : NVML_ERROR_NOT_SUPPORTED;
        m->value = m->nvmlReturn ? 0.0
                   : b->us - a->us < 100000
                       ? NAN
                       : (b->integral[id] - a->integral[id]) / (double)(b->us - a->us);
    }
    return NVML_SUCCESS;
}
#endif
