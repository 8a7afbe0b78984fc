/* papi_gpu_kernels.h: the GPU's own counters per kernel (the cuda component's per-kernel
 * mode, src-c/lib/components/gpu/cuda_kernels.c) for papi_run's preloaded library
 * (papi_run --gpu-counters). CUPTI's auto range makes one range around each kernel launch
 * on each device the program makes a context on, named by the kernel; each metric is
 * summed per device and kernel name. Launches are serialised while it counts (CUPTI's
 * rule for a range per kernel). Not installed: an internal contract between libpapi and
 * its own tools. */
#ifndef PAPI_GPU_KERNELS_EXPORT_H
#define PAPI_GPU_KERNELS_EXPORT_H

#include <stddef.h>

#include "papi_api_begin.h"

/* Starts counting metrics (CUPTI's full names, comma-separated) per kernel in the program's
 * CUDA contexts: on each device that has one now, and on each other device from the moment
 * the program makes one (CUPTI's context-created callback): 0, or -1 with why[len] (no
 * device, an unknown metric named, more than one pass, no context now and none can be
 * waited for). Once per process. */
int papi_gpu_kernels_start(const char *metrics, char *why, size_t len);
/* Stops and collects: the number of (device, kernel) rows, why[len] then "" or the
 * devices that could not be counted ("device 1 (GA100): ..."); or -1 with why[len] (no
 * device counted). */
int papi_gpu_kernels_stop(char *why, size_t len);
/* After the stop: the devices counted (their numbers into devices[max], the count), the
 * metrics (their count, each name), row k's device, kernel name, launches and sums (one
 * per metric, in the metrics' order), and the launches not counted (beyond the ranges
 * CUPTI's counter data holds, or no memory for a row). */
int papi_gpu_kernels_devices(int *devices, int max);
int papi_gpu_kernels_nmetrics(void);
const char *papi_gpu_kernels_metric(int i);
int papi_gpu_kernels_row(int k, int *device, const char **kernel, unsigned long *launches,
                         const double **sums);
unsigned long papi_gpu_kernels_dropped(void);
/* Before the start: each launch's values kept too (a trace's counter tracks). After the
 * stop: the launches kept (*not_kept: past 65536, or no memory), and launch i's device,
 * kernel name and values (one per metric), in collection order: a device's in the order
 * the program launched them. */
void papi_gpu_kernels_keep_launches(void);
long papi_gpu_kernels_launches(long *not_kept);
int papi_gpu_kernels_launch(long i, int *device, const char **kernel, const double **values);

#include "papi_api_end.h"

#endif
