/* cupti_loader.h: libcupti found at run time and its calls looked up (cupti_loader.c), as
 * the nvml component finds libnvidia-ml: never linked, so one build runs where no CUDA
 * toolkit is and says why there is no GPU activity. */
#ifndef PAPI_CUPTI_LOADER_H
#define PAPI_CUPTI_LOADER_H

#include <stddef.h>

#include "cupti_api.h"

/* Why a load failed (or CUPTI_LOAD_OK); the claim's (gpu_activity.c) reasons too. */
enum cupti_status {
    CUPTI_LOAD_OK = 0,
    CUPTI_LOAD_MISSING,    /* no libcupti by its sonames nor beside libcudart */
    CUPTI_LOAD_SYMBOL,     /* a required call is missing: another CUPTI */
    CUPTI_LOAD_VERSION,    /* cuptiGetVersion names a CUDA this build cannot read */
    CUPTI_LOAD_NO_DEVICE,  /* CUPTI finds no device (no driver, no GPU) */
    CUPTI_LOAD_SUBSCRIBED, /* another tool already subscribed to CUPTI */
    CUPTI_LOAD_REFUSED,    /* CUPTI refuses otherwise (permission, a virtual device ...) */
};

/* The calls, one pointer each, typed by cupti_api.h's declarations. */
#define CUPTI_SYMBOLS(X)                         \
    X(cuptiGetVersion, 1)                        \
    X(cuptiGetResultString, 1)                   \
    X(cuptiSubscribe, 1)                         \
    X(cuptiUnsubscribe, 1)                       \
    X(cuptiActivityRegisterCallbacks, 1)         \
    X(cuptiActivityEnable, 1)                    \
    X(cuptiActivityDisable, 1)                   \
    X(cuptiActivityFlushAll, 1)                  \
    X(cuptiActivityGetNextRecord, 1)             \
    X(cuptiActivityGetNumDroppedRecords, 1)      \
    X(cuptiGetTimestamp, 1)                      \
    X(cuptiActivityRegisterTimestampCallback, 0) \
    X(cuptiActivityPushExternalCorrelationId, 0) \
    X(cuptiActivityPopExternalCorrelationId, 0)  \
    X(cuptiEnableCallback, 0)                    \
    X(cuptiGetDeviceId, 0)

struct cupti_lib {
    void *handle;
    char path[512];   /* where the loader found it */
    unsigned version; /* cuptiGetVersion's */
#define CUPTI_FIELD(sym, required) __typeof__(sym) *sym;
    CUPTI_SYMBOLS(CUPTI_FIELD)
#undef CUPTI_FIELD
};

/* Load libcupti.so.13, else .12 (the loader's search), or sonames[n] in tests (through
 * user_dlopen), then the same names in the folder of the CUDA runtime (libcudart.so.*) the
 * program loaded, its toolkit's extras/CUPTI/lib64 and a wheel's nvidia/cuda_cupti/lib;
 * check the calls and the version. CUPTI_LOAD_OK, or the status with one line in reason[len]:
 * "libcupti not found (<dlerror>; ...): ...", "<path> lacks <call>: a CUPTI of
 * another version ...", "<path> is CUPTI version N: ...". lib is closed on failure. */
__attribute__((visibility("hidden"))) enum cupti_status cupti_load(struct cupti_lib *lib,
                                                                   const char *const *sonames,
                                                                   int n, char *reason, size_t len);
/* The folder of the CUDA runtime this process loaded into dir[len]; 0 when none is. */
__attribute__((visibility("hidden"))) int cupti_cudart_dir(char *dir, size_t len);
/* CUPTI's words for result ("CUPTI_ERROR_UNKNOWN"), or "CUPTI error N". */
__attribute__((visibility("hidden"))) const char *cupti_result_words(const struct cupti_lib *lib,
                                                                     CUptiResult result);
/* dlclose and forget (a closed lib is all NULL). */
__attribute__((visibility("hidden"))) void cupti_unload(struct cupti_lib *lib);

#endif
