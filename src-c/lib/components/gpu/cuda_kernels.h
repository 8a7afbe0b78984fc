/* cuda_kernels.h: the cuda component's per-kernel counting (cuda_kernels.c), for
 * papi_run --gpu-counters through libpapi's exported calls (papi_gpu_kernels.h). */
#ifndef PAPI_CUDA_KERNELS_H
#define PAPI_CUDA_KERNELS_H

#include "component.h"

/* Device's chip once the component has listed its devices, else NULL with why (the
 * disabled component's reason). Defined in cuda_component.c, where the list is. */
PAPI_INTERNAL const char *cuda_device_chip(int device, const char **why);

#endif
