/* papi_gpu_kernels.h: the GPU's own counters per kernel (the cuda component's per-kernel
 * mode, src-c/lib/components/gpu/cuda_kernels.c) for papi_run's preloaded library
 * (papi_run --gpu-counters). CUPTI's auto range makes one range around each kernel launch
 * on device 0, named by the kernel; each metric is summed per kernel name. Launches are
 * serialised while it counts (CUPTI's rule for a range per kernel). Not installed: an
 * internal contract between libpapi and its own tools. */
#ifndef PAPI_GPU_KERNELS_EXPORT_H
#define PAPI_GPU_KERNELS_EXPORT_H

#include <stddef.h>

#include "papi_api_begin.h"

/* Starts counting metrics (CUPTI's full names, comma-separated) per kernel in the program's
 * CUDA context on device 0: 0, or -1 with why[len] (no device, no context, an unknown
 * metric named, more than one pass). Once per process. */
int papi_gpu_kernels_start(const char *metrics, char *why, size_t len);
/* Stops and collects: the number of kernel names, or -1 with why[len]. */
int papi_gpu_kernels_stop(char *why, size_t len);
/* After the stop: the metrics (their count, each name), kernel k's name, launches and
 * sums (one per metric, in the metrics' order), and the launches CUPTI dropped (beyond
 * the ranges its counter data holds). */
int papi_gpu_kernels_nmetrics(void);
const char *papi_gpu_kernels_metric(int i);
int papi_gpu_kernels_row(int k, const char **kernel, unsigned long *launches, const double **sums);
unsigned long papi_gpu_kernels_dropped(void);

#include "papi_api_end.h"

#endif
