/* papi_gpu_activity.h: the process's GPU activity (CUPTI's kernels, copies, memsets and
 * synchronisation: src-c/gpu_activity) for the layers above libpapi that write their own
 * reports: the MPI wrapper library and papi_run's preloaded libraries. One layer per
 * process lives in libpapi (CUPTI takes one subscriber), so they ask it here. Not
 * installed: an internal contract between libpapi and its own tools. */
#ifndef PAPI_GPU_ACTIVITY_EXPORT_H
#define PAPI_GPU_ACTIVITY_EXPORT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* Starts the layer as PAPI_GPU_ACTIVITY says (by default where the program loaded CUDA),
 * once; who names the caller in the one line said when it cannot start. 1: recording. */
int papi_gpu_activity_start(const char *who);
/* Every record CUPTI holds filed (MPI_Finalize, a checkpoint, exit). */
void papi_gpu_activity_flush(void);
/* The process's GPU activity since the start as one JSON object into buf[len]
 * (gpu_activity.schema.json's $defs/process: "activity" the status, "total" a section),
 * NUL-ended. Returns its length; 0 when the layer was never asked (nothing written);
 * -1 when it does not fit. Not async-signal-safe (locks). */
long papi_gpu_activity_json(char *buf, size_t len);
/* One line on stderr, by who, when CUPTI dropped records, a buffer was refused or kernels
 * had no row (the files say the same); nothing when none was lost. */
void papi_gpu_activity_say_losses(const char *who);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
