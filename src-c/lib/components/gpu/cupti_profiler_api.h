/* cupti_profiler_api.h: the calls of CUPTI's Range Profiler and Profiler Host APIs (CUDA
 * 12.6 update 2 and later; CUDA 13's only way to count) that the cuda component makes,
 * declared from CUPTI's documented C API; no CUDA header is needed or copied, so the
 * project builds where no toolkit is. libcupti is never linked: cuda_cupti.c looks these
 * names up in the libcupti that the GPU activity layer's loader (cupti_loader.c) finds,
 * and the CUPTI double (tests/gpu_activity/cupti_double.c) defines them against the same
 * declarations.
 *
 * Every call takes one parameter structure that begins with its size and a reserved
 * pointer. CUPTI reads the size to know which members the caller has (newer releases
 * append members), so the size passed is the end of the last member declared here,
 * CUDA 12.6's and 13.0's layout (PROFILER_SIZE), never sizeof, whose padding would claim
 * a member that is not there. */
#ifndef PAPI_CUPTI_PROFILER_API_H
#define PAPI_CUPTI_PROFILER_API_H

#include <stddef.h>
#include <stdint.h>

#include "cuda_driver_api.h"
#include "cupti_api.h"

#define PROFILER_SIZE(type, last) (offsetof(type, last) + sizeof(((type *)0)->last))

/* The results the component tells apart (cupti_result.h). */
#define CUPTI_ERROR_INVALID_OPERATION   7
#define CUPTI_ERROR_OUT_OF_MEMORY       8
#define CUPTI_ERROR_INVALID_METRIC_NAME 17
#define CUPTI_ERROR_DISABLED            23 /* another profiler is enabled */
#define CUPTI_ERROR_HARDWARE_BUSY       26 /* another client holds the counters */
#define CUPTI_ERROR_NOT_SUPPORTED       27

typedef struct CUpti_Profiler_Host_Object CUpti_Profiler_Host_Object;
typedef struct CUpti_RangeProfiler_Object CUpti_RangeProfiler_Object;

typedef int CUpti_MetricType; /* enum CUpti_MetricType */
#define CUPTI_METRIC_TYPE_COUNTER    0
#define CUPTI_METRIC_TYPE_RATIO      1
#define CUPTI_METRIC_TYPE_THROUGHPUT 2
#define CUPTI_METRIC_TYPES           3

typedef int CUpti_ProfilerType; /* enum CUpti_ProfilerType */
#define CUPTI_PROFILER_TYPE_RANGE_PROFILER 0

typedef int CUpti_ProfilerRange; /* enum CUpti_ProfilerRange */
#define CUPTI_AutoRange 1        /* one range around each kernel launch, named by the kernel */
#define CUPTI_UserRange 2
typedef int CUpti_ProfilerReplayMode; /* enum CUpti_ProfilerReplayMode */
#define CUPTI_UserReplay 3

/* ---- set-up (cupti_profiler_target.h, cupti_target.h) ---------------------------------- */
typedef struct {
    size_t structSize;
    void *pPriv;
} CUpti_Profiler_Initialize_Params, CUpti_Profiler_DeInitialize_Params;

typedef struct {
    size_t structSize;
    void *pPriv;
    size_t deviceIndex;
    const char *pChipName; /* out */
} CUpti_Device_GetChipName_Params;

typedef struct {
    size_t structSize;
    void *pPriv;
    CUcontext ctx;
    size_t counterAvailabilityImageSize; /* in/out */
    uint8_t *pCounterAvailabilityImage;  /* NULL: the size only */
} CUpti_Profiler_GetCounterAvailability_Params;

CUptiResult cuptiProfilerInitialize(CUpti_Profiler_Initialize_Params *p);
CUptiResult cuptiProfilerDeInitialize(CUpti_Profiler_DeInitialize_Params *p);
CUptiResult cuptiDeviceGetChipName(CUpti_Device_GetChipName_Params *p);
CUptiResult cuptiProfilerGetCounterAvailability(CUpti_Profiler_GetCounterAvailability_Params *p);

/* ---- Profiler Host API (cupti_profiler_host.h) ---------------------------------------- */
typedef struct {
    size_t structSize;
    void *pPriv;
    CUpti_ProfilerType profilerType;
    const char *pChipName;
    const uint8_t *pCounterAvailabilityImage;
    CUpti_Profiler_Host_Object *pHostObject; /* out */
} CUpti_Profiler_Host_Initialize_Params;

typedef struct {
    size_t structSize;
    void *pPriv;
    CUpti_Profiler_Host_Object *pHostObject;
} CUpti_Profiler_Host_Deinitialize_Params;

typedef struct {
    size_t structSize;
    void *pPriv;
    CUpti_Profiler_Host_Object *pHostObject;
    CUpti_MetricType metricType;
    const char **ppMetricNames; /* out */
    size_t numMetrics;          /* out */
} CUpti_Profiler_Host_GetBaseMetrics_Params;

typedef struct {
    size_t structSize;
    void *pPriv;
    CUpti_Profiler_Host_Object *pHostObject;
    CUpti_MetricType metricType;
    const char *pMetricName;
    size_t numOfSubmetrics;    /* out */
    const char **ppSubMetrics; /* out: ".sum", ".sum.per_second", ".pct" ... */
} CUpti_Profiler_Host_GetSubMetrics_Params;

typedef struct {
    size_t structSize;
    void *pPriv;
    CUpti_Profiler_Host_Object *pHostObject;
    const char *pMetricName;
    const char *pDescription;    /* out */
    const char *pHwUnit;         /* out */
    const char *pDimUnit;        /* out */
    CUpti_MetricType metricType; /* out */
} CUpti_Profiler_Host_GetMetricProperties_Params;

typedef struct {
    size_t structSize;
    void *pPriv;
    CUpti_Profiler_Host_Object *pHostObject;
    const char **ppMetricNames;
    size_t numMetrics;
} CUpti_Profiler_Host_ConfigAddMetrics_Params;

typedef struct {
    size_t structSize;
    void *pPriv;
    CUpti_Profiler_Host_Object *pHostObject;
    size_t configImageSize; /* out */
} CUpti_Profiler_Host_GetConfigImageSize_Params;

typedef struct {
    size_t structSize;
    void *pPriv;
    CUpti_Profiler_Host_Object *pHostObject;
    size_t configImageSize; /* the buffer's */
    uint8_t *pConfigImage;
} CUpti_Profiler_Host_GetConfigImage_Params;

typedef struct {
    size_t structSize;
    void *pPriv;
    size_t configImageSize;
    uint8_t *pConfigImage;
    size_t numOfPasses; /* out */
} CUpti_Profiler_Host_GetNumOfPasses_Params;

typedef struct {
    size_t structSize;
    void *pPriv;
    CUpti_Profiler_Host_Object *pHostObject;
    const uint8_t *pCounterDataImage;
    size_t counterDataImageSize;
    size_t rangeIndex;
    const char **ppMetricNames;
    size_t numMetrics;
    double *pMetricValues; /* out: numMetrics */
} CUpti_Profiler_Host_EvaluateToGpuValues_Params;

typedef struct {
    size_t structSize;
    void *pPriv;
    const uint8_t *pCounterDataImage;
    size_t counterDataImageSize;
    size_t rangeIndex;
    const char *delimiter;
    const char *pRangeName; /* out: CUPTI's malloc'd copy, the caller frees it */
} CUpti_Profiler_Host_GetRangeName_Params;

CUptiResult cuptiProfilerHostInitialize(CUpti_Profiler_Host_Initialize_Params *p);
CUptiResult cuptiProfilerHostDeinitialize(CUpti_Profiler_Host_Deinitialize_Params *p);
CUptiResult cuptiProfilerHostGetBaseMetrics(CUpti_Profiler_Host_GetBaseMetrics_Params *p);
CUptiResult cuptiProfilerHostGetSubMetrics(CUpti_Profiler_Host_GetSubMetrics_Params *p);
CUptiResult cuptiProfilerHostGetMetricProperties(CUpti_Profiler_Host_GetMetricProperties_Params *p);
CUptiResult cuptiProfilerHostConfigAddMetrics(CUpti_Profiler_Host_ConfigAddMetrics_Params *p);
CUptiResult cuptiProfilerHostGetConfigImageSize(CUpti_Profiler_Host_GetConfigImageSize_Params *p);
CUptiResult cuptiProfilerHostGetConfigImage(CUpti_Profiler_Host_GetConfigImage_Params *p);
CUptiResult cuptiProfilerHostGetNumOfPasses(CUpti_Profiler_Host_GetNumOfPasses_Params *p);
CUptiResult cuptiProfilerHostEvaluateToGpuValues(CUpti_Profiler_Host_EvaluateToGpuValues_Params *p);
CUptiResult cuptiProfilerHostGetRangeName(CUpti_Profiler_Host_GetRangeName_Params *p);

/* ---- Range Profiler API (cupti_range_profiler.h) -------------------------------------- */
typedef struct {
    size_t structSize;
    void *pPriv;
    CUcontext ctx;
    CUpti_RangeProfiler_Object *pRangeProfilerObject; /* out */
} CUpti_RangeProfiler_Enable_Params;

/* Disable, Start and PopRange take the object alone. */
typedef struct {
    size_t structSize;
    void *pPriv;
    CUpti_RangeProfiler_Object *pRangeProfilerObject;
} CUpti_RangeProfiler_Disable_Params, CUpti_RangeProfiler_Start_Params,
    CUpti_RangeProfiler_PopRange_Params;

typedef struct {
    size_t structSize;
    void *pPriv;
    CUpti_RangeProfiler_Object *pRangeProfilerObject;
    const char **pMetricNames;
    size_t numMetrics;
    size_t maxNumOfRanges;
    uint32_t maxNumRangeTreeNodes;
    size_t counterDataSize; /* out */
} CUpti_RangeProfiler_GetCounterDataSize_Params;

typedef struct {
    size_t structSize;
    void *pPriv;
    CUpti_RangeProfiler_Object *pRangeProfilerObject;
    size_t counterDataSize;
    uint8_t *pCounterData;
} CUpti_RangeProfiler_CounterDataImage_Initialize_Params;

typedef struct {
    size_t structSize;
    void *pPriv;
    CUpti_RangeProfiler_Object *pRangeProfilerObject;
    size_t configSize;
    const uint8_t *pConfig;
    size_t counterDataImageSize;
    uint8_t *pCounterDataImage;
    CUpti_ProfilerRange range;
    CUpti_ProfilerReplayMode replayMode;
    size_t maxRangesPerPass;
    uint16_t numNestingLevels;
    uint16_t minNestingLevel;
    size_t passIndex;
    uint16_t targetNestingLevel;
} CUpti_RangeProfiler_SetConfig_Params;

typedef struct {
    size_t structSize;
    void *pPriv;
    CUpti_RangeProfiler_Object *pRangeProfilerObject;
    size_t passIndex;           /* out */
    size_t targetNestingLevel;  /* out */
    uint8_t isAllPassSubmitted; /* out */
} CUpti_RangeProfiler_Stop_Params;

typedef struct {
    size_t structSize;
    void *pPriv;
    CUpti_RangeProfiler_Object *pRangeProfilerObject;
    const char *pRangeName;
} CUpti_RangeProfiler_PushRange_Params;

typedef struct {
    size_t structSize;
    void *pPriv;
    CUpti_RangeProfiler_Object *pRangeProfilerObject;
    size_t numOfRangeDropped; /* out */
} CUpti_RangeProfiler_DecodeData_Params;

typedef struct {
    size_t structSize;
    void *pPriv;
    const uint8_t *pCounterDataImage;
    size_t counterDataImageSize;
    size_t numTotalRanges; /* out */
} CUpti_RangeProfiler_GetCounterDataInfo_Params;

CUptiResult cuptiRangeProfilerEnable(CUpti_RangeProfiler_Enable_Params *p);
CUptiResult cuptiRangeProfilerDisable(CUpti_RangeProfiler_Disable_Params *p);
CUptiResult cuptiRangeProfilerGetCounterDataSize(CUpti_RangeProfiler_GetCounterDataSize_Params *p);
CUptiResult cuptiRangeProfilerCounterDataImageInitialize(
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params *p);
CUptiResult cuptiRangeProfilerSetConfig(CUpti_RangeProfiler_SetConfig_Params *p);
CUptiResult cuptiRangeProfilerStart(CUpti_RangeProfiler_Start_Params *p);
CUptiResult cuptiRangeProfilerStop(CUpti_RangeProfiler_Stop_Params *p);
CUptiResult cuptiRangeProfilerPushRange(CUpti_RangeProfiler_PushRange_Params *p);
CUptiResult cuptiRangeProfilerPopRange(CUpti_RangeProfiler_PopRange_Params *p);
CUptiResult cuptiRangeProfilerDecodeData(CUpti_RangeProfiler_DecodeData_Params *p);
CUptiResult cuptiRangeProfilerGetCounterDataInfo(CUpti_RangeProfiler_GetCounterDataInfo_Params *p);

/* The calls the cuda component makes, each looked up by name in libcupti (cuda_libs.c;
 * bench_cuda_cost's floor makes them directly). */
#define CUDA_PROFILER_SYMBOLS(X)                    \
    X(cuptiProfilerInitialize)                      \
    X(cuptiProfilerDeInitialize)                    \
    X(cuptiDeviceGetChipName)                       \
    X(cuptiProfilerGetCounterAvailability)          \
    X(cuptiProfilerHostInitialize)                  \
    X(cuptiProfilerHostDeinitialize)                \
    X(cuptiProfilerHostGetBaseMetrics)              \
    X(cuptiProfilerHostGetSubMetrics)               \
    X(cuptiProfilerHostGetMetricProperties)         \
    X(cuptiProfilerHostConfigAddMetrics)            \
    X(cuptiProfilerHostGetConfigImageSize)          \
    X(cuptiProfilerHostGetConfigImage)              \
    X(cuptiProfilerHostGetNumOfPasses)              \
    X(cuptiProfilerHostEvaluateToGpuValues)         \
    X(cuptiProfilerHostGetRangeName)                \
    X(cuptiRangeProfilerEnable)                     \
    X(cuptiRangeProfilerDisable)                    \
    X(cuptiRangeProfilerGetCounterDataSize)         \
    X(cuptiRangeProfilerCounterDataImageInitialize) \
    X(cuptiRangeProfilerSetConfig)                  \
    X(cuptiRangeProfilerStart)                      \
    X(cuptiRangeProfilerStop)                       \
    X(cuptiRangeProfilerPushRange)                  \
    X(cuptiRangeProfilerPopRange)                   \
    X(cuptiRangeProfilerDecodeData)                 \
    X(cuptiRangeProfilerGetCounterDataInfo)

#endif
