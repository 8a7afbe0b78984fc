/* rocp_sdk_libs.h: AMD's rocprofiler-sdk found at run time and never linked
 * (rocp_sdk_libs.c), where PAPI 7.2's rocp_sdk component looks for it: the file
 * PAPI_ROCP_SDK_LIB names, else PAPI_ROCP_SDK_ROOT/lib/librocprofiler-sdk.so, else the
 * loader's search for librocprofiler-sdk.so.0 (LD_LIBRARY_PATH, the cache), else
 * $ROCM_PATH/lib and /opt/rocm/lib. Its calls (rocprofiler_sdk_api.h's ROCP_SDK_SYMBOLS)
 * are looked up, each under its 1.0 name or the older one. */
#ifndef PAPI_ROCP_SDK_LIBS_H
#define PAPI_ROCP_SDK_LIBS_H

#include <stddef.h>

#include "component.h"

#include "rocprofiler_sdk_api.h"

struct rocp_sdk_libs {
    void *handle;
    char path[512]; /* where it was found, for reasons */
    uint32_t major, minor, patch;
    size_t record_size; /* the stride of a record array: ROCP_RECORD_SIZE_V0 or _V1 */
#define ROCP_FIELD(sym, old) __typeof__(sym) *sym;
    ROCP_SDK_SYMBOLS(ROCP_FIELD)
#undef ROCP_FIELD
};

PAPI_INTERNAL extern struct rocp_sdk_libs rocp_lib;

/* Find and open the library, look its calls up, read its version: PAPI_OK, or PAPI_ECMP
 * with one line in reason[len] ("librocprofiler-sdk.so.0 not found ...", "<path> lacks
 * <call>: ..."). Opened once per process and kept: a tool registered with the SDK is never
 * unloaded from under it. */
PAPI_INTERNAL int rocp_sdk_libs_load(char *reason, size_t len);
/* The SDK's words for a status ("... (status 12)"). */
PAPI_INTERNAL const char *rocp_sdk_words(rocprofiler_status_t s);

#endif
