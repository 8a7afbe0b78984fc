/* cuda_driver_api.h: the few calls of NVIDIA's CUDA driver API (libcuda.so.1) that the
 * cuda component makes, declared from the driver API's documentation; no CUDA header is
 * needed, so the project builds where no toolkit is. libcuda is never linked:
 * cuda_driver.c finds these names with dlsym, and the test double
 * (tests/components/cuda_driver_double.c) defines them against the same declarations.
 * The component never creates a context: it profiles the one the program made current
 * (cuCtxGetCurrent), so a program that never initialised CUDA gets none behind its back. */
#ifndef PAPI_CUDA_DRIVER_API_H
#define PAPI_CUDA_DRIVER_API_H

typedef int CUresult; /* an enum in cuda.h: int-sized */
typedef int CUdevice; /* an ordinal */
typedef struct CUctx_st *CUcontext;

#define CUDA_SUCCESS               0
#define CUDA_ERROR_NOT_INITIALIZED 3
#define CUDA_ERROR_NO_DEVICE       100
#define CUDA_ERROR_INVALID_CONTEXT 201

CUresult cuInit(unsigned int flags);
CUresult cuDriverGetVersion(int *version);
CUresult cuDeviceGetCount(int *count);
CUresult cuDeviceGet(CUdevice *device, int ordinal);
CUresult cuDeviceGetName(char *name, int len, CUdevice device);
CUresult cuCtxGetCurrent(CUcontext *ctx);
CUresult cuCtxGetDevice(CUdevice *device); /* the current context's */
CUresult cuGetErrorName(CUresult error, const char **name);
/* Whether a device's primary context is active, without creating it; retained only when
 * active (a retain of an inactive one would create it), released after. */
CUresult cuDevicePrimaryCtxGetState(CUdevice device, unsigned int *flags, int *active);
CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice device);
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice device);

#endif
