/* cupti_profiler_double.c: the Range Profiler and Profiler Host part of the CUPTI double
 * (one library with cupti_double.c: libcupti.so.13), compiled against the project's
 * declarations (src-c/lib/components/gpu/cupti_profiler_api.h). Every call checks that its
 * structure's size is the one CUPTI 12.6/13.0 documents (the end of its last member) and
 * that the calls come in CUPTI's order (enabled before start, pushed before popped,
 * decoded before evaluated), else fails as CUPTI would.
 *
 * The file named by PAPI_TEST_CUPTI_PROFILER stages, one item a line:
 *   device N CHIP                    device N's chip name
 *   metric CHIP TYPE BASE UNIT SUBS DESCRIPTION...
 *                                    a base metric of CHIP (TYPE 0 counter, 1 ratio,
 *                                    2 throughput) and its submetrics, comma-separated
 *                                    (".sum,.avg,.sum.per_second"; "-": none, the
 *                                    base is counted alone, as launch__grid_size)
 *   passes NAME N                    the full metric NAME needs N passes
 *   value DEVICE NAME V1 V2 ...      NAME's value in the device's 1st, 2nd ... range
 *                                    (of each profiler object: a context's own count)
 *   kvalue DEVICE KERNEL NAME V1 V2 ...
 *                                    NAME's value in the 1st, 2nd ... auto range (CUPTI_AutoRange:
 *                                    one range per launch) of the kernel KERNEL on DEVICE
 * A kernel "runs" when the CUDA driver double's cuda_double_launch_named calls
 * cupti_double_kernel_ran: each started auto-range profiler object of its device gets a
 * range named by the kernel (dropped beyond its maxRangesPerPass, as CUPTI drops them).
 * PAPI_TEST_CUPTI_MODE: privileges (cuptiProfilerGetCounterAvailability refuses for want
 * of permission), busy (another profiler holds the counters), decodefail (the second
 * cuptiRangeProfilerDecodeData of a profiler object fails: the device's counters lost).
 * Contexts are the CUDA driver double's (tests/components/cuda_driver_double.c): the
 * device's number plus 0x1000. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cupti_profiler_api.h"

#define EXPORT                 __attribute__((visibility("default")))
#define MAX_METRICS            64
#define MAX_VALUES             64
#define SIZE_OK(p, type, last) ((p) && (p)->structSize == PROFILER_SIZE(type, last) && !(p)->pPriv)

struct staged_metric {
    char chip[160], base[160], unit[160], descr[1024];
    int type;
    const char *subs[16];
    char *subs_text; /* the strings subs[] point into, kept for the process */
    int nsubs;
};

static struct {
    char chip[16][160];
    struct staged_metric m[MAX_METRICS];
    int nm;
    struct {
        char name[160];
        int passes;
    } passes[16];
    int npasses;
    struct {
        int device;
        char name[160];
        double v[MAX_VALUES];
        int n;
    } values[MAX_METRICS];
    int nvalues;
    struct {
        int device;
        char kernel[160], name[160];
        double v[MAX_VALUES];
        int n;
    } kvalues[MAX_METRICS];
    int nkvalues;
} st;
static pthread_once_t staged_once = PTHREAD_ONCE_INIT;
static int base_calls; /* GetBaseMetrics calls: what the component's cache spares */

EXPORT int cupti_double_base_metric_calls(void)
{
    return base_calls;
}

static const char *profiler_mode(void)
{
    const char *m = getenv("PAPI_TEST_CUPTI_MODE");
    return m ? m : "";
}

static void stage(void)
{
    const char *path = getenv("PAPI_TEST_CUPTI_PROFILER");
    FILE *f = path ? fopen(path, "r") : NULL;
    char line[1024];
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        int dev, type, used = 0;
        char a[160], b[160], c[160], d[160];
        if (sscanf(line, "device %d %159s", &dev, a) == 2 && dev >= 0 && dev < 16) {
            snprintf(st.chip[dev], sizeof st.chip[dev], "%s", a);
        } else if (sscanf(line, "metric %159s %d %159s %159s %159s %n", a, &type, b, c, d, &used) ==
                       5 &&
                   st.nm < MAX_METRICS) {
            struct staged_metric *m = &st.m[st.nm++];
            snprintf(m->chip, sizeof m->chip, "%s", a);
            snprintf(m->base, sizeof m->base, "%s", b);
            snprintf(m->unit, sizeof m->unit, "%s", c);
            snprintf(m->descr, sizeof m->descr, "%s", line + used);
            m->type = type;
            m->subs_text = strdup(d);
            for (char *save, *s = strtok_r(m->subs_text, ",", &save); s && m->nsubs < 16;
                 s = strtok_r(NULL, ",", &save))
                if (strcmp(s, "-") != 0) /* "-": a metric without submetrics */
                    m->subs[m->nsubs++] = s;
        } else if (sscanf(line, "passes %159s %d", a, &dev) == 2 && st.npasses < 16) {
            snprintf(st.passes[st.npasses].name, sizeof st.passes[0].name, "%s", a);
            st.passes[st.npasses++].passes = dev;
        } else if (sscanf(line, "value %d %159s %n", &dev, a, &used) == 2 &&
                   st.nvalues < MAX_METRICS) {
            st.values[st.nvalues].device = dev;
            snprintf(st.values[st.nvalues].name, sizeof st.values[0].name, "%s", a);
            char *p = line + used, *end;
            for (double v = strtod(p, &end); end != p && st.values[st.nvalues].n < MAX_VALUES;
                 p = end, v = strtod(p, &end))
                st.values[st.nvalues].v[st.values[st.nvalues].n++] = v;
            st.nvalues++;
        } else if (sscanf(line, "kvalue %d %159s %159s %n", &dev, a, b, &used) == 3 &&
                   st.nkvalues < MAX_METRICS) {
            __typeof__(st.kvalues[0]) *k = &st.kvalues[st.nkvalues++];
            k->device = dev;
            snprintf(k->kernel, sizeof k->kernel, "%s", a);
            snprintf(k->name, sizeof k->name, "%s", b);
            char *p = line + used, *end;
            for (double v = strtod(p, &end); end != p && k->n < MAX_VALUES;
                 p = end, v = strtod(p, &end))
                k->v[k->n++] = v;
        }
    }
    if (f)
        fclose(f);
}

static void staged(void)
{
    pthread_once(&staged_once, stage);
}

/* Every profiler call counted, for bench/bench_cuda_cost.c: the component's calls per
 * PAPI operation and per kernel launch (none: a user range needs no call per kernel). */
static unsigned long calls;

static void entered(void)
{
    __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
}

EXPORT unsigned long cupti_double_profiler_calls(void)
{
    return __atomic_load_n(&calls, __ATOMIC_RELAXED);
}

static int device_of(CUcontext ctx)
{
    return (int)((uintptr_t)ctx - 0x1000);
}

/* ---- set-up ------------------------------------------------------------------------- */
static int profiler_initialised;

EXPORT CUptiResult cuptiProfilerInitialize(CUpti_Profiler_Initialize_Params *p)
{
    entered();
    if (!SIZE_OK(p, CUpti_Profiler_Initialize_Params, pPriv))
        return CUPTI_ERROR_INVALID_PARAMETER;
    profiler_initialised++;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiProfilerDeInitialize(CUpti_Profiler_DeInitialize_Params *p)
{
    entered();
    if (!SIZE_OK(p, CUpti_Profiler_DeInitialize_Params, pPriv))
        return CUPTI_ERROR_INVALID_PARAMETER;
    profiler_initialised--;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiDeviceGetChipName(CUpti_Device_GetChipName_Params *p)
{
    entered();
    staged();
    if (!SIZE_OK(p, CUpti_Device_GetChipName_Params, pChipName) || p->deviceIndex >= 16 ||
        !st.chip[p->deviceIndex][0])
        return CUPTI_ERROR_INVALID_DEVICE;
    p->pChipName = st.chip[p->deviceIndex];
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult
cuptiProfilerGetCounterAvailability(CUpti_Profiler_GetCounterAvailability_Params *p)
{
    entered();
    if (!SIZE_OK(p, CUpti_Profiler_GetCounterAvailability_Params, pCounterAvailabilityImage) ||
        !p->ctx)
        return CUPTI_ERROR_INVALID_PARAMETER;
    if (strcmp(profiler_mode(), "privileges") == 0)
        return CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
    if (strcmp(profiler_mode(), "busy") == 0)
        return CUPTI_ERROR_HARDWARE_BUSY;
    if (!p->pCounterAvailabilityImage)
        p->counterAvailabilityImageSize = 16;
    else if (p->counterAvailabilityImageSize == 16)
        snprintf((char *)p->pCounterAvailabilityImage, 16, "avail:%d", device_of(p->ctx));
    else
        return CUPTI_ERROR_INVALID_PARAMETER;
    return CUPTI_SUCCESS;
}

/* ---- Profiler Host API ------------------------------------------------------------------ */
struct CUpti_Profiler_Host_Object {
    char chip[160];
    char config[2048]; /* the metrics added, one a line: the configuration image */
    const char *names[MAX_METRICS];
};

EXPORT CUptiResult cuptiProfilerHostInitialize(CUpti_Profiler_Host_Initialize_Params *p)
{
    entered();
    staged();
    if (!SIZE_OK(p, CUpti_Profiler_Host_Initialize_Params, pHostObject) || !p->pChipName ||
        p->profilerType != CUPTI_PROFILER_TYPE_RANGE_PROFILER)
        return CUPTI_ERROR_INVALID_PARAMETER;
    struct CUpti_Profiler_Host_Object *h = calloc(1, sizeof *h);
    if (!h)
        return CUPTI_ERROR_OUT_OF_MEMORY;
    snprintf(h->chip, sizeof h->chip, "%s", p->pChipName);
    p->pHostObject = h;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiProfilerHostDeinitialize(CUpti_Profiler_Host_Deinitialize_Params *p)
{
    entered();
    if (!SIZE_OK(p, CUpti_Profiler_Host_Deinitialize_Params, pHostObject) || !p->pHostObject)
        return CUPTI_ERROR_INVALID_PARAMETER;
    free(p->pHostObject);
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiProfilerHostGetBaseMetrics(CUpti_Profiler_Host_GetBaseMetrics_Params *p)
{
    entered();
    if (!SIZE_OK(p, CUpti_Profiler_Host_GetBaseMetrics_Params, numMetrics) || !p->pHostObject)
        return CUPTI_ERROR_INVALID_PARAMETER;
    base_calls++;
    const char **names = p->pHostObject->names;
    size_t n = 0;
    for (int i = 0; i < st.nm; i++)
        if (strcmp(st.m[i].chip, p->pHostObject->chip) == 0 && st.m[i].type == p->metricType)
            names[n++] = st.m[i].base;
    p->ppMetricNames = names;
    p->numMetrics = n;
    return CUPTI_SUCCESS;
}

static const struct staged_metric *base_metric(const char *chip, const char *base)
{
    for (int i = 0; i < st.nm; i++)
        if (strcmp(st.m[i].chip, chip) == 0 && strcmp(st.m[i].base, base) == 0)
            return &st.m[i];
    return NULL;
}

EXPORT CUptiResult cuptiProfilerHostGetSubMetrics(CUpti_Profiler_Host_GetSubMetrics_Params *p)
{
    entered();
    if (!SIZE_OK(p, CUpti_Profiler_Host_GetSubMetrics_Params, ppSubMetrics) || !p->pHostObject)
        return CUPTI_ERROR_INVALID_PARAMETER;
    const struct staged_metric *m = base_metric(p->pHostObject->chip, p->pMetricName);
    if (!m || m->type != p->metricType)
        return CUPTI_ERROR_INVALID_METRIC_NAME;
    p->numOfSubmetrics = (size_t)m->nsubs;
    p->ppSubMetrics = (const char **)m->subs;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult
cuptiProfilerHostGetMetricProperties(CUpti_Profiler_Host_GetMetricProperties_Params *p)
{
    entered();
    if (!SIZE_OK(p, CUpti_Profiler_Host_GetMetricProperties_Params, metricType) || !p->pHostObject)
        return CUPTI_ERROR_INVALID_PARAMETER;
    const struct staged_metric *m = base_metric(p->pHostObject->chip, p->pMetricName);
    if (!m)
        return CUPTI_ERROR_INVALID_METRIC_NAME;
    p->pDescription = m->descr;
    p->pHwUnit = m->unit;
    p->pDimUnit = m->unit;
    p->metricType = m->type;
    return CUPTI_SUCCESS;
}

/* A full name's metric of chip: its base's, with that submetric. */
static int known(const char *chip, const char *name)
{
    for (int i = 0; i < st.nm; i++) {
        size_t b = strlen(st.m[i].base);
        if (strcmp(st.m[i].chip, chip) != 0 || strncmp(name, st.m[i].base, b) != 0)
            continue;
        if (st.m[i].nsubs == 0 && name[b] == '\0')
            return 1;
        for (int s = 0; s < st.m[i].nsubs; s++)
            if (strcmp(name + b, st.m[i].subs[s]) == 0)
                return 1;
    }
    return 0;
}

EXPORT CUptiResult cuptiProfilerHostConfigAddMetrics(CUpti_Profiler_Host_ConfigAddMetrics_Params *p)
{
    entered();
    if (!SIZE_OK(p, CUpti_Profiler_Host_ConfigAddMetrics_Params, numMetrics) || !p->pHostObject)
        return CUPTI_ERROR_INVALID_PARAMETER;
    for (size_t i = 0; i < p->numMetrics; i++) {
        if (!known(p->pHostObject->chip, p->ppMetricNames[i]))
            return CUPTI_ERROR_INVALID_METRIC_NAME;
        size_t used = strlen(p->pHostObject->config);
        snprintf(p->pHostObject->config + used, sizeof p->pHostObject->config - used, "%s\n",
                 p->ppMetricNames[i]);
    }
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult
cuptiProfilerHostGetConfigImageSize(CUpti_Profiler_Host_GetConfigImageSize_Params *p)
{
    entered();
    if (!SIZE_OK(p, CUpti_Profiler_Host_GetConfigImageSize_Params, configImageSize) ||
        !p->pHostObject)
        return CUPTI_ERROR_INVALID_PARAMETER;
    p->configImageSize = strlen(p->pHostObject->config) + 1;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiProfilerHostGetConfigImage(CUpti_Profiler_Host_GetConfigImage_Params *p)
{
    entered();
    if (!SIZE_OK(p, CUpti_Profiler_Host_GetConfigImage_Params, pConfigImage) || !p->pHostObject ||
        p->configImageSize != strlen(p->pHostObject->config) + 1)
        return CUPTI_ERROR_INVALID_PARAMETER;
    memcpy(p->pConfigImage, p->pHostObject->config, p->configImageSize);
    return CUPTI_SUCCESS;
}

/* The passes a configuration image needs: the most any of its metrics needs. */
static int passes_of(const char *config)
{
    int n = 1;
    for (int i = 0; i < st.npasses; i++) {
        char line[170];
        snprintf(line, sizeof line, "%s\n", st.passes[i].name);
        const char *at = strstr(config, line);
        if (at && (at == config || at[-1] == '\n') && st.passes[i].passes > n)
            n = st.passes[i].passes;
    }
    return n;
}

EXPORT CUptiResult cuptiProfilerHostGetNumOfPasses(CUpti_Profiler_Host_GetNumOfPasses_Params *p)
{
    entered();
    if (!SIZE_OK(p, CUpti_Profiler_Host_GetNumOfPasses_Params, numOfPasses) || !p->pConfigImage)
        return CUPTI_ERROR_INVALID_PARAMETER;
    p->numOfPasses = (size_t)passes_of((const char *)p->pConfigImage);
    return CUPTI_SUCCESS;
}

/* The counter data image, as the double writes it at decode: its device and range. */
#define MAX_AUTO_RANGES 4096
struct counter_data {
    char magic[8];
    int device, range, decoded;
    int autorange;                       /* decoded from an auto-range object */
    int nranges;                         /* auto ranges decoded (0 for a user range) */
    const char *kernel[MAX_AUTO_RANGES]; /* each auto range's kernel (the object's names) */
};

/* The value of NAME in the nth range of kernel on device (a staged kvalue), else 0. */
static double kernel_value(int device, const char *kernel, const char *name, int nth)
{
    for (int i = 0; i < st.nkvalues; i++)
        if (st.kvalues[i].device == device && strcmp(st.kvalues[i].kernel, kernel) == 0 &&
            strcmp(st.kvalues[i].name, name) == 0)
            return nth < st.kvalues[i].n ? st.kvalues[i].v[nth] : 0;
    return 0;
}

static double value_of(int device, const char *name, int range)
{
    for (int i = 0; i < st.nvalues; i++)
        if (st.values[i].device == device && strcmp(st.values[i].name, name) == 0)
            return range < st.values[i].n ? st.values[i].v[range] : 0;
    return 0;
}

EXPORT CUptiResult
cuptiProfilerHostEvaluateToGpuValues(CUpti_Profiler_Host_EvaluateToGpuValues_Params *p)
{
    entered();
    if (!SIZE_OK(p, CUpti_Profiler_Host_EvaluateToGpuValues_Params, pMetricValues) ||
        !p->pHostObject || p->counterDataImageSize < sizeof(struct counter_data))
        return CUPTI_ERROR_INVALID_PARAMETER;
    const struct counter_data *d = (const void *)p->pCounterDataImage;
    if (strcmp(d->magic, "cdata") != 0 || !d->decoded)
        return CUPTI_ERROR_INVALID_OPERATION;
    if (p->rangeIndex >= (size_t)(d->autorange ? d->nranges : 1))
        return CUPTI_ERROR_INVALID_PARAMETER;
    if (d->autorange) { /* an auto range: its kernel's nth launch */
        const char *k = d->kernel[p->rangeIndex];
        int nth = 0;
        for (size_t r = 0; r < p->rangeIndex; r++)
            nth += strcmp(d->kernel[r], k) == 0;
        for (size_t i = 0; i < p->numMetrics; i++)
            p->pMetricValues[i] = kernel_value(d->device, k, p->ppMetricNames[i], nth);
        return CUPTI_SUCCESS;
    }
    for (size_t i = 0; i < p->numMetrics; i++)
        p->pMetricValues[i] = value_of(d->device, p->ppMetricNames[i], d->range - 1);
    return CUPTI_SUCCESS;
}

/* A range's name: the kernel's for an auto range (CUPTI's copy, freed by the caller). */
EXPORT CUptiResult cuptiProfilerHostGetRangeName(CUpti_Profiler_Host_GetRangeName_Params *p)
{
    entered();
    if (!SIZE_OK(p, CUpti_Profiler_Host_GetRangeName_Params, pRangeName) || !p->pCounterDataImage ||
        p->counterDataImageSize < sizeof(struct counter_data))
        return CUPTI_ERROR_INVALID_PARAMETER;
    const struct counter_data *d = (const void *)p->pCounterDataImage;
    if (strcmp(d->magic, "cdata") != 0 || !d->decoded)
        return CUPTI_ERROR_INVALID_OPERATION;
    if (p->rangeIndex >= (size_t)d->nranges)
        return CUPTI_ERROR_INVALID_PARAMETER;
    if (!(p->pRangeName = strdup(d->kernel[p->rangeIndex])))
        return CUPTI_ERROR_OUT_OF_MEMORY;
    return CUPTI_SUCCESS;
}

/* ---- Range Profiler API ------------------------------------------------------------------- */
struct CUpti_RangeProfiler_Object {
    int device, configured, started, pushed, ranges;
    int gone; /* its context was destroyed (cupti_double_context_gone): nothing to read */
    struct counter_data *data;
    int autorange;       /* CUPTI_AutoRange: a range per kernel launch */
    size_t max, dropped; /* maxRangesPerPass; launches beyond it */
    int nkernels;        /* the ranges so far */
    char *kernel[MAX_AUTO_RANGES];
    struct CUpti_RangeProfiler_Object *next; /* the enabled objects */
};
static struct CUpti_RangeProfiler_Object *enabled_objects;
static pthread_mutex_t objects_lock = PTHREAD_MUTEX_INITIALIZER;

/* A kernel launched on device (the CUDA driver double calls it): a range named by it in
 * each started auto-range object of the device. */
EXPORT void cupti_double_kernel_ran(int device, const char *kernel)
{
    pthread_mutex_lock(&objects_lock);
    for (struct CUpti_RangeProfiler_Object *o = enabled_objects; o; o = o->next) {
        if (o->device != device || !o->started || !o->autorange)
            continue;
        if ((size_t)o->nkernels >= o->max || o->nkernels >= MAX_AUTO_RANGES)
            o->dropped++;
        else
            o->kernel[o->nkernels++] = strdup(kernel);
    }
    pthread_mutex_unlock(&objects_lock);
}
static int objects; /* enabled and not disabled */

/* Device's context destroyed (cupti_double.c's cupti_double_context, after the subscriber
 * was told): its objects' data is lost, a later stop or decode refused as CUPTI does. */
void cupti_double_context_gone(int device);
void cupti_double_context_gone(int device)
{
    pthread_mutex_lock(&objects_lock);
    for (struct CUpti_RangeProfiler_Object *o = enabled_objects; o; o = o->next)
        if (o->device == device)
            o->gone = 1;
    pthread_mutex_unlock(&objects_lock);
}

EXPORT int cupti_double_profilers(void)
{
    return objects;
}

EXPORT CUptiResult cuptiRangeProfilerEnable(CUpti_RangeProfiler_Enable_Params *p)
{
    entered();
    if (!SIZE_OK(p, CUpti_RangeProfiler_Enable_Params, pRangeProfilerObject) || !p->ctx ||
        !profiler_initialised)
        return CUPTI_ERROR_INVALID_PARAMETER;
    struct CUpti_RangeProfiler_Object *o = calloc(1, sizeof *o);
    if (!o)
        return CUPTI_ERROR_OUT_OF_MEMORY;
    o->device = device_of(p->ctx);
    pthread_mutex_lock(&objects_lock);
    o->next = enabled_objects;
    enabled_objects = o;
    pthread_mutex_unlock(&objects_lock);
    p->pRangeProfilerObject = o;
    __atomic_add_fetch(&objects, 1, __ATOMIC_RELAXED);
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiRangeProfilerDisable(CUpti_RangeProfiler_Disable_Params *p)
{
    entered();
    if (!SIZE_OK(p, CUpti_RangeProfiler_Disable_Params, pRangeProfilerObject) ||
        !p->pRangeProfilerObject)
        return CUPTI_ERROR_INVALID_PARAMETER;
    struct CUpti_RangeProfiler_Object *o = p->pRangeProfilerObject;
    pthread_mutex_lock(&objects_lock);
    for (struct CUpti_RangeProfiler_Object **at = &enabled_objects; *at; at = &(*at)->next)
        if (*at == o) {
            *at = o->next;
            break;
        }
    pthread_mutex_unlock(&objects_lock);
    for (int i = 0; i < o->nkernels; i++)
        free(o->kernel[i]);
    free(o);
    __atomic_sub_fetch(&objects, 1, __ATOMIC_RELAXED);
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult
cuptiRangeProfilerGetCounterDataSize(CUpti_RangeProfiler_GetCounterDataSize_Params *p)
{
    entered();
    if (!SIZE_OK(p, CUpti_RangeProfiler_GetCounterDataSize_Params, counterDataSize) ||
        !p->pRangeProfilerObject || p->maxNumRangeTreeNodes < p->maxNumOfRanges)
        return CUPTI_ERROR_INVALID_PARAMETER;
    p->counterDataSize = sizeof(struct counter_data);
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiRangeProfilerCounterDataImageInitialize(
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params *p)
{
    entered();
    if (!SIZE_OK(p, CUpti_RangeProfiler_CounterDataImage_Initialize_Params, pCounterData) ||
        !p->pRangeProfilerObject || p->counterDataSize != sizeof(struct counter_data))
        return CUPTI_ERROR_INVALID_PARAMETER;
    struct counter_data *d = (void *)p->pCounterData;
    *d = (struct counter_data){.magic = "cdata", .device = p->pRangeProfilerObject->device};
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiRangeProfilerSetConfig(CUpti_RangeProfiler_SetConfig_Params *p)
{
    entered();
    if (!SIZE_OK(p, CUpti_RangeProfiler_SetConfig_Params, targetNestingLevel) ||
        !p->pRangeProfilerObject || !p->pConfig || !p->pCounterDataImage ||
        (p->range != CUPTI_UserRange && p->range != CUPTI_AutoRange) ||
        p->replayMode != CUPTI_UserReplay || !p->maxRangesPerPass)
        return CUPTI_ERROR_INVALID_PARAMETER;
    p->pRangeProfilerObject->autorange = p->range == CUPTI_AutoRange;
    p->pRangeProfilerObject->max = p->maxRangesPerPass;
    p->pRangeProfilerObject->data = (void *)p->pCounterDataImage;
    p->pRangeProfilerObject->configured = passes_of((const char *)p->pConfig);
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiRangeProfilerStart(CUpti_RangeProfiler_Start_Params *p)
{
    entered();
    if (!SIZE_OK(p, CUpti_RangeProfiler_Start_Params, pRangeProfilerObject) ||
        !p->pRangeProfilerObject)
        return CUPTI_ERROR_INVALID_PARAMETER;
    if (!p->pRangeProfilerObject->configured || p->pRangeProfilerObject->started)
        return CUPTI_ERROR_INVALID_OPERATION;
    p->pRangeProfilerObject->started = 1;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiRangeProfilerPushRange(CUpti_RangeProfiler_PushRange_Params *p)
{
    entered();
    if (!SIZE_OK(p, CUpti_RangeProfiler_PushRange_Params, pRangeName) || !p->pRangeProfilerObject ||
        !p->pRangeName)
        return CUPTI_ERROR_INVALID_PARAMETER;
    if (!p->pRangeProfilerObject->started || p->pRangeProfilerObject->pushed ||
        p->pRangeProfilerObject->autorange) /* CUPTI: push and pop are user-range calls */
        return CUPTI_ERROR_INVALID_OPERATION;
    p->pRangeProfilerObject->pushed = 1;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiRangeProfilerPopRange(CUpti_RangeProfiler_PopRange_Params *p)
{
    entered();
    if (!SIZE_OK(p, CUpti_RangeProfiler_PopRange_Params, pRangeProfilerObject) ||
        !p->pRangeProfilerObject)
        return CUPTI_ERROR_INVALID_PARAMETER;
    if (!p->pRangeProfilerObject->pushed)
        return CUPTI_ERROR_INVALID_OPERATION;
    p->pRangeProfilerObject->pushed = 0;
    p->pRangeProfilerObject->ranges++;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiRangeProfilerStop(CUpti_RangeProfiler_Stop_Params *p)
{
    entered();
    if (!SIZE_OK(p, CUpti_RangeProfiler_Stop_Params, isAllPassSubmitted) ||
        !p->pRangeProfilerObject)
        return CUPTI_ERROR_INVALID_PARAMETER;
    struct CUpti_RangeProfiler_Object *o = p->pRangeProfilerObject;
    if (!o->started || o->pushed || o->gone)
        return CUPTI_ERROR_INVALID_OPERATION;
    pthread_mutex_lock(&objects_lock);
    o->started = 0;
    pthread_mutex_unlock(&objects_lock);
    p->passIndex = 0;
    p->targetNestingLevel = 1;
    p->isAllPassSubmitted = o->configured <= 1;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult cuptiRangeProfilerDecodeData(CUpti_RangeProfiler_DecodeData_Params *p)
{
    entered();
    if (!SIZE_OK(p, CUpti_RangeProfiler_DecodeData_Params, numOfRangeDropped) ||
        !p->pRangeProfilerObject || !p->pRangeProfilerObject->data)
        return CUPTI_ERROR_INVALID_PARAMETER;
    struct CUpti_RangeProfiler_Object *o = p->pRangeProfilerObject;
    if (o->started || o->gone)
        return CUPTI_ERROR_INVALID_OPERATION;
    if (strcmp(profiler_mode(), "decodefail") == 0 && o->ranges == 2)
        return CUPTI_ERROR_UNKNOWN;
    o->data->range = o->ranges;
    o->data->decoded = 1;
    o->data->autorange = o->autorange;
    o->data->nranges = o->autorange ? o->nkernels : 0;
    for (int i = 0; i < o->data->nranges; i++)
        o->data->kernel[i] = o->kernel[i];
    p->numOfRangeDropped = o->autorange ? o->dropped : 0;
    return CUPTI_SUCCESS;
}

EXPORT CUptiResult
cuptiRangeProfilerGetCounterDataInfo(CUpti_RangeProfiler_GetCounterDataInfo_Params *p)
{
    entered();
    if (!SIZE_OK(p, CUpti_RangeProfiler_GetCounterDataInfo_Params, numTotalRanges) ||
        !p->pCounterDataImage || p->counterDataImageSize < sizeof(struct counter_data))
        return CUPTI_ERROR_INVALID_PARAMETER;
    const struct counter_data *d = (const void *)p->pCounterDataImage;
    if (strcmp(d->magic, "cdata") != 0 || !d->decoded)
        return CUPTI_ERROR_INVALID_OPERATION;
    p->numTotalRanges = d->autorange ? (size_t)d->nranges : (size_t)1;
    return CUPTI_SUCCESS;
}
