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
#define NVML_ERROR_NOT_SUPPORTED             3
#define NVML_ERROR_NO_PERMISSION             4
#define NVML_ERROR_DRIVER_NOT_LOADED         9
#define NVML_ERROR_FUNCTION_NOT_FOUND        13
#define NVML_ERROR_GPU_IS_LOST               15
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

#endif
