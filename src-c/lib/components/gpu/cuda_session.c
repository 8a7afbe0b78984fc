/* cuda_session.c: a device's user range through CUPTI's Range Profiler (cuda_session.h).
 * The order is CUPTI's: the Profiler Host API makes the configuration image for the chip
 * and the metrics; the range profiler is enabled on the context, its counter data image
 * sized and initialised, configured (user range, user replay, one range per pass), then
 * started with one range pushed. Collecting pops and stops it, decodes the counter data
 * and evaluates range 0; the image is initialised again for the next range. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "component.h"
#include "cuda_libs.h"
#include "cuda_session.h"

#define RANGE_NAME "PAPI_CUDA_RANGE"

/* The words a result earns beyond CUPTI's name: the fix where there is one. */
static int fail(CUptiResult r, int device, const char *call)
{
    if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
        return papi_error(
            PAPI_EPERM,
            "cuda: %s on device %d: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: the NVIDIA driver lets "
            "only administrators read GPU performance counters (RmProfilingAdminOnly: 1 in "
            "/proc/driver/nvidia/params); run as root or with CAP_SYS_ADMIN, or set 'options "
            "nvidia NVreg_RestrictProfilingToAdminUsers=0' in a file of /etc/modprobe.d, "
            "rebuild the initramfs and reboot",
            call, device);
    if (r == CUPTI_ERROR_HARDWARE_BUSY || r == CUPTI_ERROR_DISABLED)
        return papi_error(PAPI_ECNFLCT,
                          "cuda: %s on device %d: %s: another profiler holds the device's "
                          "counters (Nsight Compute or Systems, DCGM's profiling, another "
                          "event set counting it)",
                          call, device, cuda_cupti_words(r));
    return papi_error(PAPI_ECMP, "cuda: %s on device %d failed: %s", call, device,
                      cuda_cupti_words(r));
}

int cuda_context_find(const char *name, int device, CUcontext *ctx, int *retained)
{
    *ctx = NULL;
    *retained = 0;
    CUcontext cur = NULL;
    CUdevice dev = -1;
    if (cuda_lib.cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur &&
        cuda_lib.cuCtxGetDevice(&dev) == CUDA_SUCCESS && dev == device) {
        *ctx = cur;
        return PAPI_OK;
    }
    unsigned int flags = 0;
    int active = 0;
    CUresult r = cuda_lib.cuDevicePrimaryCtxGetState(device, &flags, &active);
    if (r == CUDA_SUCCESS && active) {
        r = cuda_lib.cuDevicePrimaryCtxRetain(ctx, device);
        if (r == CUDA_SUCCESS) {
            *retained = 1;
            return PAPI_OK;
        }
    }
    return papi_error(PAPI_ECMP,
                      "%s: the program has no CUDA context on device %d (%s): the cuda "
                      "component counts the program's own work and creates none; make one "
                      "first (cudaSetDevice(%d) and any CUDA call)",
                      name, device,
                      r != CUDA_SUCCESS ? cuda_driver_words(r)
                      : cur             ? "the current context is another device's"
                                        : "none is current and the primary one is inactive",
                      device);
}

void cuda_context_release(int device)
{
    if (cuda_lib.cuDevicePrimaryCtxRelease_v2) /* the library is still loaded */
        cuda_lib.cuDevicePrimaryCtxRelease_v2(device);
}

/* The host object and the configuration image of the metrics. */
static int configure(struct cuda_session *s, const char *chip, const uint8_t *availability)
{
    CUpti_Profiler_Host_Initialize_Params init = {
        .structSize = PROFILER_SIZE(CUpti_Profiler_Host_Initialize_Params, pHostObject),
        .profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER,
        .pChipName = chip,
        .pCounterAvailabilityImage = availability};
    CUptiResult r = cuda_lib.cuptiProfilerHostInitialize(&init);
    if (r != CUPTI_SUCCESS)
        return fail(r, s->device, "cuptiProfilerHostInitialize");
    s->host = init.pHostObject;
    CUpti_Profiler_Host_ConfigAddMetrics_Params add = {
        .structSize = PROFILER_SIZE(CUpti_Profiler_Host_ConfigAddMetrics_Params, numMetrics),
        .pHostObject = s->host,
        .ppMetricNames = s->names,
        .numMetrics = (size_t)s->n};
    if ((r = cuda_lib.cuptiProfilerHostConfigAddMetrics(&add)) != CUPTI_SUCCESS)
        return fail(r, s->device, "cuptiProfilerHostConfigAddMetrics");
    CUpti_Profiler_Host_GetConfigImageSize_Params size = {
        .structSize = PROFILER_SIZE(CUpti_Profiler_Host_GetConfigImageSize_Params, configImageSize),
        .pHostObject = s->host};
    if ((r = cuda_lib.cuptiProfilerHostGetConfigImageSize(&size)) != CUPTI_SUCCESS)
        return fail(r, s->device, "cuptiProfilerHostGetConfigImageSize");
    if (!(s->config = calloc(1, size.configImageSize ? size.configImageSize : 1)))
        return papi_error(PAPI_ENOMEM, "cuda: no memory for a configuration image");
    s->config_size = size.configImageSize;
    CUpti_Profiler_Host_GetConfigImage_Params image = {
        .structSize = PROFILER_SIZE(CUpti_Profiler_Host_GetConfigImage_Params, pConfigImage),
        .pHostObject = s->host,
        .configImageSize = s->config_size,
        .pConfigImage = s->config};
    if ((r = cuda_lib.cuptiProfilerHostGetConfigImage(&image)) != CUPTI_SUCCESS)
        return fail(r, s->device, "cuptiProfilerHostGetConfigImage");
    return PAPI_OK;
}

/* The counter availability image of ctx (the permission and busy check), malloc'd. */
static int availability(int device, CUcontext ctx, uint8_t **image)
{
    *image = NULL;
    CUpti_Profiler_GetCounterAvailability_Params p = {
        .structSize =
            PROFILER_SIZE(CUpti_Profiler_GetCounterAvailability_Params, pCounterAvailabilityImage),
        .ctx = ctx};
    CUptiResult r = cuda_lib.cuptiProfilerGetCounterAvailability(&p);
    if (r != CUPTI_SUCCESS)
        return fail(r, device, "cuptiProfilerGetCounterAvailability");
    if (!(*image = calloc(1, p.counterAvailabilityImageSize ? p.counterAvailabilityImageSize : 1)))
        return papi_error(PAPI_ENOMEM, "cuda: no memory for a counter availability image");
    p.pCounterAvailabilityImage = *image;
    if ((r = cuda_lib.cuptiProfilerGetCounterAvailability(&p)) != CUPTI_SUCCESS) {
        free(*image);
        *image = NULL;
        return fail(r, device, "cuptiProfilerGetCounterAvailability");
    }
    return PAPI_OK;
}

static void release_host(struct cuda_session *s)
{
    if (s->host) {
        CUpti_Profiler_Host_Deinitialize_Params p = {
            .structSize = PROFILER_SIZE(CUpti_Profiler_Host_Deinitialize_Params, pHostObject),
            .pHostObject = s->host};
        cuda_lib.cuptiProfilerHostDeinitialize(&p);
    }
    s->host = NULL;
    free(s->config);
    s->config = NULL;
}

int cuda_session_check(const char *chip, int device, CUcontext ctx, const char *const *names, int n)
{
    uint8_t *image;
    int ret = availability(device, ctx, &image);
    if (ret != PAPI_OK)
        return ret;
    struct cuda_session s = {.device = device, .ctx = ctx, .names = (const char **)names, .n = n};
    ret = configure(&s, chip, image);
    if (ret == PAPI_OK) {
        CUpti_Profiler_Host_GetNumOfPasses_Params passes = {
            .structSize = PROFILER_SIZE(CUpti_Profiler_Host_GetNumOfPasses_Params, numOfPasses),
            .configImageSize = s.config_size,
            .pConfigImage = s.config};
        CUptiResult r = cuda_lib.cuptiProfilerHostGetNumOfPasses(&passes);
        if (r != CUPTI_SUCCESS)
            ret = fail(r, device, "cuptiProfilerHostGetNumOfPasses");
        else if (passes.numOfPasses > 1)
            ret = papi_error(PAPI_EMULPASS,
                             "cuda:::%s%s on device %d: the metrics need %zu passes; the cuda "
                             "component counts in one (the program's work is not replayed): "
                             "count them in separate event sets or runs",
                             names[n - 1], n > 1 ? " with the set's other metrics" : "", device,
                             passes.numOfPasses);
    }
    release_host(&s);
    free(image);
    return ret;
}

/* The counter data image sized for one range, initialised. */
static int counter_data(struct cuda_session *s)
{
    CUpti_RangeProfiler_GetCounterDataSize_Params size = {
        .structSize = PROFILER_SIZE(CUpti_RangeProfiler_GetCounterDataSize_Params, counterDataSize),
        .pRangeProfilerObject = s->profiler,
        .pMetricNames = s->names,
        .numMetrics = (size_t)s->n,
        .maxNumOfRanges = s->per_kernel ? CUDA_KERNEL_RANGES : 1,
        .maxNumRangeTreeNodes = s->per_kernel ? CUDA_KERNEL_RANGES : 1};
    CUptiResult r = cuda_lib.cuptiRangeProfilerGetCounterDataSize(&size);
    if (r != CUPTI_SUCCESS)
        return fail(r, s->device, "cuptiRangeProfilerGetCounterDataSize");
    if (!(s->data = calloc(1, size.counterDataSize ? size.counterDataSize : 1)))
        return papi_error(PAPI_ENOMEM, "cuda: no memory for a counter data image");
    s->data_size = size.counterDataSize;
    return PAPI_OK;
}

static int init_data(struct cuda_session *s)
{
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params p = {
        .structSize =
            PROFILER_SIZE(CUpti_RangeProfiler_CounterDataImage_Initialize_Params, pCounterData),
        .pRangeProfilerObject = s->profiler,
        .counterDataSize = s->data_size,
        .pCounterData = s->data};
    CUptiResult r = cuda_lib.cuptiRangeProfilerCounterDataImageInitialize(&p);
    return r == CUPTI_SUCCESS ? PAPI_OK
                              : fail(r, s->device, "cuptiRangeProfilerCounterDataImageInitialize");
}

/* Start and push the range. */
static int begin_range(struct cuda_session *s)
{
    CUpti_RangeProfiler_Start_Params start = {
        .structSize = PROFILER_SIZE(CUpti_RangeProfiler_Start_Params, pRangeProfilerObject),
        .pRangeProfilerObject = s->profiler};
    CUptiResult r = cuda_lib.cuptiRangeProfilerStart(&start);
    if (r != CUPTI_SUCCESS)
        return fail(r, s->device, "cuptiRangeProfilerStart");
    if (s->per_kernel) { /* CUPTI makes the ranges, one around each launch */
        s->running = 1;
        return PAPI_OK;
    }
    CUpti_RangeProfiler_PushRange_Params push = {
        .structSize = PROFILER_SIZE(CUpti_RangeProfiler_PushRange_Params, pRangeName),
        .pRangeProfilerObject = s->profiler,
        .pRangeName = RANGE_NAME};
    if ((r = cuda_lib.cuptiRangeProfilerPushRange(&push)) != CUPTI_SUCCESS)
        return fail(r, s->device, "cuptiRangeProfilerPushRange");
    s->running = 1;
    return PAPI_OK;
}

int cuda_session_begin(struct cuda_session *s, const char *chip)
{
    uint8_t *image;
    int ret = availability(s->device, s->ctx, &image);
    if (ret == PAPI_OK)
        ret = configure(s, chip, image);
    free(image);
    free(s->values);
    if (ret == PAPI_OK && !(s->values = calloc((size_t)s->n, sizeof *s->values)))
        ret = papi_error(PAPI_ENOMEM, "cuda: no memory for a session's values");
    if (ret == PAPI_OK) {
        CUpti_RangeProfiler_Enable_Params en = {
            .structSize = PROFILER_SIZE(CUpti_RangeProfiler_Enable_Params, pRangeProfilerObject),
            .ctx = s->ctx};
        CUptiResult r = cuda_lib.cuptiRangeProfilerEnable(&en);
        if (r != CUPTI_SUCCESS)
            ret = fail(r, s->device, "cuptiRangeProfilerEnable");
        s->profiler = en.pRangeProfilerObject;
    }
    if (ret == PAPI_OK)
        ret = counter_data(s);
    if (ret == PAPI_OK)
        ret = init_data(s);
    if (ret == PAPI_OK) {
        CUpti_RangeProfiler_SetConfig_Params cfg = {
            .structSize = PROFILER_SIZE(CUpti_RangeProfiler_SetConfig_Params, targetNestingLevel),
            .pRangeProfilerObject = s->profiler,
            .configSize = s->config_size,
            .pConfig = s->config,
            .counterDataImageSize = s->data_size,
            .pCounterDataImage = s->data,
            .range = s->per_kernel ? CUPTI_AutoRange : CUPTI_UserRange,
            .replayMode = CUPTI_UserReplay,
            .maxRangesPerPass = s->per_kernel ? CUDA_KERNEL_RANGES : 1,
            .numNestingLevels = 1,
            .minNestingLevel = 1,
            .passIndex = 0,
            .targetNestingLevel = 1};
        CUptiResult r = cuda_lib.cuptiRangeProfilerSetConfig(&cfg);
        if (r != CUPTI_SUCCESS)
            ret = fail(r, s->device, "cuptiRangeProfilerSetConfig");
    }
    if (ret == PAPI_OK)
        ret = begin_range(s);
    if (ret != PAPI_OK)
        cuda_session_end(s);
    return ret;
}

/* Per kernel: each decoded range's kernel name and values to s->per_range. */
static int each_range(struct cuda_session *s, size_t dropped)
{
    s->dropped += dropped;
    CUpti_RangeProfiler_GetCounterDataInfo_Params info = {
        .structSize = PROFILER_SIZE(CUpti_RangeProfiler_GetCounterDataInfo_Params, numTotalRanges),
        .pCounterDataImage = s->data,
        .counterDataImageSize = s->data_size};
    CUptiResult r = cuda_lib.cuptiRangeProfilerGetCounterDataInfo(&info);
    if (r != CUPTI_SUCCESS)
        return fail(r, s->device, "cuptiRangeProfilerGetCounterDataInfo");
    for (size_t i = 0; i < info.numTotalRanges; i++) {
        CUpti_Profiler_Host_GetRangeName_Params name = {
            .structSize = PROFILER_SIZE(CUpti_Profiler_Host_GetRangeName_Params, pRangeName),
            .pCounterDataImage = s->data,
            .counterDataImageSize = s->data_size,
            .rangeIndex = i,
            .delimiter = "/"};
        if ((r = cuda_lib.cuptiProfilerHostGetRangeName(&name)) != CUPTI_SUCCESS)
            return fail(r, s->device, "cuptiProfilerHostGetRangeName");
        CUpti_Profiler_Host_EvaluateToGpuValues_Params eval = {
            .structSize =
                PROFILER_SIZE(CUpti_Profiler_Host_EvaluateToGpuValues_Params, pMetricValues),
            .pHostObject = s->host,
            .pCounterDataImage = s->data,
            .counterDataImageSize = s->data_size,
            .rangeIndex = i,
            .ppMetricNames = s->names,
            .numMetrics = (size_t)s->n,
            .pMetricValues = s->values};
        r = cuda_lib.cuptiProfilerHostEvaluateToGpuValues(&eval);
        if (r == CUPTI_SUCCESS)
            s->per_range(s->per_range_arg, name.pRangeName ? name.pRangeName : "?", s->values);
        free((void *)name.pRangeName); /* CUPTI's copy: the caller's to free */
        if (r != CUPTI_SUCCESS)
            return fail(r, s->device, "cuptiProfilerHostEvaluateToGpuValues");
    }
    return PAPI_OK;
}

/* Pop, stop, decode and evaluate range 0 into s->values. */
static int end_range(struct cuda_session *s)
{
    s->running = 0;
    CUpti_RangeProfiler_PopRange_Params pop = {
        .structSize = PROFILER_SIZE(CUpti_RangeProfiler_PopRange_Params, pRangeProfilerObject),
        .pRangeProfilerObject = s->profiler};
    CUptiResult r = s->per_kernel ? CUPTI_SUCCESS : cuda_lib.cuptiRangeProfilerPopRange(&pop);
    if (r != CUPTI_SUCCESS)
        return fail(r, s->device, "cuptiRangeProfilerPopRange");
    CUpti_RangeProfiler_Stop_Params stop = {
        .structSize = PROFILER_SIZE(CUpti_RangeProfiler_Stop_Params, isAllPassSubmitted),
        .pRangeProfilerObject = s->profiler};
    if ((r = cuda_lib.cuptiRangeProfilerStop(&stop)) != CUPTI_SUCCESS)
        return fail(r, s->device, "cuptiRangeProfilerStop");
    if (!stop.isAllPassSubmitted) /* checked at add: a second pass would be a bug */
        return papi_error(PAPI_EMULPASS, "cuda: device %d's range needs another pass", s->device);
    CUpti_RangeProfiler_DecodeData_Params decode = {
        .structSize = PROFILER_SIZE(CUpti_RangeProfiler_DecodeData_Params, numOfRangeDropped),
        .pRangeProfilerObject = s->profiler};
    if ((r = cuda_lib.cuptiRangeProfilerDecodeData(&decode)) != CUPTI_SUCCESS)
        return fail(r, s->device, "cuptiRangeProfilerDecodeData");
    if (s->per_kernel)
        return each_range(s, decode.numOfRangeDropped);
    CUpti_Profiler_Host_EvaluateToGpuValues_Params eval = {
        .structSize = PROFILER_SIZE(CUpti_Profiler_Host_EvaluateToGpuValues_Params, pMetricValues),
        .pHostObject = s->host,
        .pCounterDataImage = s->data,
        .counterDataImageSize = s->data_size,
        .rangeIndex = 0,
        .ppMetricNames = s->names,
        .numMetrics = (size_t)s->n,
        .pMetricValues = s->values};
    if ((r = cuda_lib.cuptiProfilerHostEvaluateToGpuValues(&eval)) != CUPTI_SUCCESS)
        return fail(r, s->device, "cuptiProfilerHostEvaluateToGpuValues");
    return PAPI_OK;
}

int cuda_session_collect(struct cuda_session *s, int again)
{
    int ret = end_range(s);
    if (ret == PAPI_OK && again) {
        ret = init_data(s);
        if (ret == PAPI_OK)
            ret = begin_range(s);
    }
    if (ret != PAPI_OK || !again)
        cuda_session_end(s);
    return ret;
}

void cuda_session_end(struct cuda_session *s)
{
    if (s->profiler) {
        if (s->running) { /* an error between push and pop: the range is left */
            CUpti_RangeProfiler_PopRange_Params pop = {
                .structSize =
                    PROFILER_SIZE(CUpti_RangeProfiler_PopRange_Params, pRangeProfilerObject),
                .pRangeProfilerObject = s->profiler};
            if (!s->per_kernel)
                cuda_lib.cuptiRangeProfilerPopRange(&pop);
            CUpti_RangeProfiler_Stop_Params stop = {
                .structSize = PROFILER_SIZE(CUpti_RangeProfiler_Stop_Params, isAllPassSubmitted),
                .pRangeProfilerObject = s->profiler};
            cuda_lib.cuptiRangeProfilerStop(&stop);
        }
        CUpti_RangeProfiler_Disable_Params off = {
            .structSize = PROFILER_SIZE(CUpti_RangeProfiler_Disable_Params, pRangeProfilerObject),
            .pRangeProfilerObject = s->profiler};
        cuda_lib.cuptiRangeProfilerDisable(&off);
    }
    s->profiler = NULL;
    s->running = 0;
    release_host(s);
    free(s->data);
    s->data = NULL;
    /* values stay: the last range's, read after the stop */
}
