/* nvml_api.h: the few types and functions of the NVIDIA Management Library the nvml
 * component uses, declared from NVML's documented C API (no NVIDIA header is needed or
 * copied). The library is never linked: nvml_component.c finds these names in
 * libnvidia-ml.so.1 with dlsym and calls them through pointers of these types, and the
 * test double (tests/components/nvml_double.c) defines them, so the compiler checks the
 * double against the same signatures. */
#ifndef PAPI_NVML_API_H
#define PAPI_NVML_API_H

typedef int nvmlReturn_t; /* an enum in NVML: int-sized */
#define NVML_SUCCESS                         0
#define NVML_ERROR_INVALID_ARGUMENT          2
#define NVML_ERROR_NOT_SUPPORTED             3
#define NVML_ERROR_NO_PERMISSION             4
#define NVML_ERROR_DRIVER_NOT_LOADED         9
#define NVML_ERROR_FUNCTION_NOT_FOUND        13
#define NVML_ERROR_GPU_IS_LOST               15
#define NVML_ERROR_IN_USE                    19
#define NVML_ERROR_INSUFFICIENT_RESOURCES    23
#define NVML_ERROR_ARGUMENT_VERSION_MISMATCH 25

typedef struct nvmlDevice_st *nvmlDevice_t;

typedef struct {
    unsigned int gpu;    /* % of the last sample period a kernel ran */
    unsigned int memory; /* % of it device memory was read or written */
} nvmlUtilization_t;

typedef struct {
    unsigned long long total; /* bytes */
    unsigned long long free;
    unsigned long long used;
} nvmlMemory_t;

/* nvmlDeviceGetMemoryInfo_v2's: the caller sets version to nvmlMemory_v2 (the size with
 * the structure's version, 2, in the top byte). used leaves out what the driver and its
 * firmware reserve (reserved), as nvidia-smi's memory.used does; v1's used includes it. */
typedef struct {
    unsigned int version;
    unsigned long long total; /* bytes */
    unsigned long long reserved;
    unsigned long long free;
    unsigned long long used;
} nvmlMemory_v2_t;
#define nvmlMemory_v2 ((unsigned int)(sizeof(nvmlMemory_v2_t) | 2u << 24))

typedef int nvmlTemperatureSensors_t;
#define NVML_TEMPERATURE_GPU 0

typedef int nvmlClockType_t;
#define NVML_CLOCK_GRAPHICS 0
#define NVML_CLOCK_SM       1
#define NVML_CLOCK_MEM      2

#define NVML_DEVICE_NAME_V2_BUFFER_SIZE 96

/* nvmlDeviceGetMigMode's modes. */
#define NVML_DEVICE_MIG_DISABLE 0
#define NVML_DEVICE_MIG_ENABLE  1

/* GPU Performance Monitoring (GPM; Hopper and newer, NVML of CUDA 12 / driver 520 on).
 * A sample is an opaque buffer of the device's counters at one moment; a metric is
 * computed from two samples. Metric ids are NVML's fixed numbers; values are doubles:
 * percentages (0.0 - 100.0) or MiB per second. */
typedef struct nvmlGpmSample_st *nvmlGpmSample_t;

#define NVML_GPM_METRIC_SM_UTIL                 2  /* % of SMs busy */
#define NVML_GPM_METRIC_SM_OCCUPANCY            3  /* % of warps resident vs the maximum */
#define NVML_GPM_METRIC_ANY_TENSOR_UTIL         5  /* % of time SMs ran any tensor op */
#define NVML_GPM_METRIC_DRAM_BW_UTIL            10 /* % of the peak DRAM bandwidth used */
#define NVML_GPM_METRIC_FP64_UTIL               11 /* % of time SMs ran non-tensor FP64 */
#define NVML_GPM_METRIC_FP32_UTIL               12 /* likewise FP32 */
#define NVML_GPM_METRIC_FP16_UTIL               13 /* likewise FP16 */
#define NVML_GPM_METRIC_PCIE_TX_PER_SEC         20 /* MiB/s sent by the GPU over PCIe */
#define NVML_GPM_METRIC_PCIE_RX_PER_SEC         21 /* MiB/s received */
#define NVML_GPM_METRIC_NVLINK_TOTAL_RX_PER_SEC 60 /* MiB/s received, all NVLinks */
#define NVML_GPM_METRIC_NVLINK_TOTAL_TX_PER_SEC 61 /* MiB/s sent, all NVLinks */

/* The array of metrics in nvmlGpmMetricsGet_t: NVML's own bound grew with its versions
 * (98 entries in CUDA 12.0's, 333 in NVML 13's) while the structure's version stayed 1;
 * the library reads and writes numMetrics entries. This is the largest known, so that
 * the buffer is never smaller than the library's own idea of it. */
#define NVML_GPM_METRIC_MAX 333

typedef struct {
    unsigned int metricId;   /* in: NVML_GPM_METRIC_... */
    nvmlReturn_t nvmlReturn; /* out: this metric's status; value is valid only on success */
    double value;            /* out */
    struct {
        char *shortName, *longName, *unit; /* out: may be NULL */
    } metricInfo;
} nvmlGpmMetric_t;

typedef struct {
    unsigned int version;    /* NVML_GPM_METRICS_GET_VERSION */
    unsigned int numMetrics; /* entries of metrics[] to compute */
    nvmlGpmSample_t sample1; /* the earlier sample */
    nvmlGpmSample_t sample2; /* the later one */
    nvmlGpmMetric_t metrics[NVML_GPM_METRIC_MAX];
} nvmlGpmMetricsGet_t;
#define NVML_GPM_METRICS_GET_VERSION 1

typedef struct {
    unsigned int version;           /* NVML_GPM_SUPPORT_VERSION */
    unsigned int isSupportedDevice; /* out: nonzero where the device has GPM */
} nvmlGpmSupport_t;
#define NVML_GPM_SUPPORT_VERSION 1

nvmlReturn_t nvmlInit_v2(void);
nvmlReturn_t nvmlShutdown(void);
const char *nvmlErrorString(nvmlReturn_t result);
nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *deviceCount);
nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device);
nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length);
nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int *power); /* mW */
nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t device,
                                                 unsigned long long *energy); /* mJ */
nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, nvmlTemperatureSensors_t sensorType,
                                      unsigned int *temp); /* degrees C */
nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t *utilization);
nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t *memory);
nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t device, nvmlMemory_v2_t *memory);
nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, nvmlClockType_t type,
                                    unsigned int *clock); /* MHz */
nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t device, nvmlClockType_t type,
                                       unsigned int *clock); /* MHz */
nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t device, unsigned int *currentMode,
                                  unsigned int *pendingMode);
nvmlReturn_t nvmlGpmQueryDeviceSupport(nvmlDevice_t device, nvmlGpmSupport_t *gpmSupport);
nvmlReturn_t nvmlGpmSampleAlloc(nvmlGpmSample_t *gpmSample);
nvmlReturn_t nvmlGpmSampleFree(nvmlGpmSample_t gpmSample);
nvmlReturn_t nvmlGpmSampleGet(nvmlDevice_t device, nvmlGpmSample_t gpmSample);
nvmlReturn_t nvmlGpmMetricsGet(nvmlGpmMetricsGet_t *metricsGet);

#endif
