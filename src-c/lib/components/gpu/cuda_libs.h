/* cuda_libs.h: the two libraries the cuda component calls, found at run time and never
 * linked (cuda_libs.c): libcupti through the GPU activity layer's loader (cupti_loader.c:
 * its sonames, beside the CUDA runtime, a toolkit's or a wheel's folder), whose Range
 * Profiler and Profiler Host calls are then looked up, and the driver's libcuda.so.1 as
 * the nvml component finds libnvidia-ml.so.1 (gpu_library.c). */
#ifndef PAPI_CUDA_LIBS_H
#define PAPI_CUDA_LIBS_H

#include <stddef.h>

#include "component.h"

#include "cupti_loader.h"
#include "cupti_profiler_api.h"

#define CUDA_DRIVER_SYMBOLS(X)       \
    X(cuInit, 1)                     \
    X(cuDriverGetVersion, 1)         \
    X(cuDeviceGetCount, 1)           \
    X(cuDeviceGet, 1)                \
    X(cuDeviceGetName, 1)            \
    X(cuCtxGetCurrent, 1)            \
    X(cuCtxGetDevice, 1)             \
    X(cuGetErrorName, 1)             \
    X(cuDevicePrimaryCtxGetState, 1) \
    X(cuDevicePrimaryCtxRetain, 1)   \
    X(cuDevicePrimaryCtxRelease_v2, 1)

struct cuda_libs {
    struct cupti_lib cupti; /* handle, path, version */
    void *cuda;             /* libcuda.so.1 */
    int driver_version;     /* cuDriverGetVersion's, e.g. 13000 */
#define CUDA_FIELD(sym, ...) __typeof__(sym) *sym;
    CUDA_PROFILER_SYMBOLS(CUDA_FIELD)
    CUDA_DRIVER_SYMBOLS(CUDA_FIELD)
#undef CUDA_FIELD
};

PAPI_INTERNAL extern struct cuda_libs cuda_lib;

/* Load libcuda.so.1 and cuInit, then libcupti (its version read): PAPI_OK, or PAPI_ECMP
 * with one line in reason[len] ("no NVIDIA driver: libcuda.so.1 not found ...", "no NVIDIA
 * device: cuInit ...", "libcupti not found ...", "<path> lacks cuptiRangeProfilerEnable:
 * ..."). *ndevices receives the device count. */
PAPI_INTERNAL int cuda_libs_load(int *ndevices, char *reason, size_t len);
/* The driver's library and its calls only (no cuInit, no CUPTI): PAPI_OK, or PAPI_ECMP with
 * "no NVIDIA driver: ..." in reason. cuda_libs_load does it first. */
PAPI_INTERNAL int cuda_libs_driver(char *reason, size_t len);
PAPI_INTERNAL void cuda_libs_unload(void);
/* CUPTI's and the driver's words for a result. */
PAPI_INTERNAL const char *cuda_cupti_words(CUptiResult r);
PAPI_INTERNAL const char *cuda_driver_words(CUresult r);

#endif
