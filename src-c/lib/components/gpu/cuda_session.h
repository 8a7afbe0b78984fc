/* cuda_session.h: one device's counting for one event set through CUPTI's Range Profiler
 * (cuda_session.c): a user range opened at PAPI_start in the context the program made
 * (never one of the component's own), closed, decoded and evaluated at each read (then
 * opened again) and at PAPI_stop. One pass only: a metric list that needs more is refused
 * when it is added, with the number of passes it needs. */
#ifndef PAPI_CUDA_SESSION_H
#define PAPI_CUDA_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "component.h"

#include "cupti_profiler_api.h"

struct cuda_session {
    int device;
    CUcontext ctx;
    const char **names; /* the metrics, CUPTI's full names (the table's strings) */
    int n;
    double *values; /* the last range's, one per metric */
    CUpti_Profiler_Host_Object *host;
    uint8_t *config;
    size_t config_size;
    CUpti_RangeProfiler_Object *profiler;
    uint8_t *data;
    size_t data_size;
    int running;
    /* Per kernel (cuda_kernels.c): CUPTI's auto range, one range per launch named by its
     * kernel, up to CUDA_KERNEL_RANGES; each range handed to per_range at collection. */
    int per_kernel;
    void (*per_range)(void *arg, const char *kernel, const double *values);
    void *per_range_arg;
    size_t dropped; /* launches beyond the image's ranges (CUPTI's numOfRangeDropped) */
};

#define CUDA_KERNEL_RANGES 4096

/* The context to profile device in, for the calling thread: the current one when it is
 * on device, else the device's primary context when the program made it active
 * (retained: *retained set, released with cuda_context_release); PAPI_ECMP through
 * papi_error when the program has none there (none is made). name names the event. */
PAPI_INTERNAL int cuda_context_find(const char *name, int device, CUcontext *ctx, int *retained);
PAPI_INTERNAL void cuda_context_release(int device);

/* Whether names[0 .. n-1] can be counted together on device in ctx: the counters are
 * readable (PAPI_EPERM with the fix where only administrators may), no other profiler
 * holds the device (PAPI_ECNFLCT), and they need one pass (PAPI_EMULPASS naming how
 * many). Reasons through papi_error. */
PAPI_INTERNAL int cuda_session_check(const char *chip, int device, CUcontext ctx,
                                     const char *const *names, int n);
/* Open the range (PAPI_start). PAPI_OK or the error through papi_error; nothing left
 * enabled on failure. */
PAPI_INTERNAL int cuda_session_begin(struct cuda_session *s, const char *chip);
/* Close the range and evaluate it into s->values; then open the next one when again
 * (read, reset) or release everything (stop). PAPI_OK, or the error through papi_error
 * (the session is then released). */
PAPI_INTERNAL int cuda_session_collect(struct cuda_session *s, int again);
/* Release a session whatever its state. */
PAPI_INTERNAL void cuda_session_end(struct cuda_session *s);

#endif
