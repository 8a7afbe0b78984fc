/* rocp_sdk_libs.c: librocprofiler-sdk found at run time (rocp_sdk_libs.h). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "component.h"
#include "env.h"
#include "gpu_library.h"
#include "rocp_sdk_libs.h"
#include "user_dlopen.h"

#define ROCP_SONAME   "librocprofiler-sdk.so.0"
#define ROCP_OPT_ROCM "/opt/rocm/lib/librocprofiler-sdk.so.0" /* ROCm's default prefix */

struct rocp_sdk_libs rocp_lib;

const char *rocp_sdk_words(rocprofiler_status_t s)
{
    static _Thread_local char buf[256];
    const char *w =
        rocp_lib.rocprofiler_get_status_string ? rocp_lib.rocprofiler_get_status_string(s) : NULL;
    snprintf(buf, sizeof buf, "%s (status %d)", w && w[0] ? w : "rocprofiler-sdk error", s);
    return buf;
}

/* A path the user names (their variable), through user_dlopen; why says what failed. */
static void *open_named(const char *path, char *why, size_t len)
{
    return user_dlopen(path, RTLD_NOW | RTLD_LOCAL, why, len);
}

/* The library where PAPI 7.2 looks for it; NULL with the places tried in reason. */
static void *find(char *reason, size_t len)
{
    char path[512], why[512] = "";
    const char *lib = env_get("PAPI_ROCP_SDK_LIB");
    if (lib && lib[0]) { /* the user's choice, and only it */
        void *h = open_named(lib, why, sizeof why);
        if (!h)
            snprintf(reason, len, "PAPI_ROCP_SDK_LIB=%s cannot be loaded (%s)", lib, why);
        return h;
    }
    const char *root = env_get("PAPI_ROCP_SDK_ROOT");
    if (root && root[0]) {
        snprintf(path, sizeof path, "%s/lib/librocprofiler-sdk.so", root);
        void *h = open_named(path, why, sizeof why);
        if (!h)
            snprintf(reason, len, "PAPI_ROCP_SDK_ROOT=%s: %s cannot be loaded (%s)", root, path,
                     why);
        return h;
    }
    void *h = dlopen(ROCP_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (h)
        return h;
    const char *first = dlerror();
    snprintf(why, sizeof why, "%s", first ? first : "dlopen failed");
    const char *rocm = env_get("ROCM_PATH");
    if (rocm && rocm[0]) {
        char ignored[256];
        snprintf(path, sizeof path, "%s/lib/%s", rocm, ROCP_SONAME);
        if ((h = open_named(path, ignored, sizeof ignored)))
            return h;
    }
    if ((h = dlopen(ROCP_OPT_ROCM, RTLD_NOW | RTLD_LOCAL)))
        return h;
    snprintf(reason, len,
             "%s not found (%s), nor under $ROCM_PATH/lib or /opt/rocm/lib: no ROCm with "
             "rocprofiler-sdk here (set PAPI_ROCP_SDK_ROOT or PAPI_ROCP_SDK_LIB where it is "
             "elsewhere)",
             ROCP_SONAME, why);
    return NULL;
}

int rocp_sdk_libs_load(char *reason, size_t len)
{
    if (rocp_lib.handle)
        return PAPI_OK;
    void *h = find(reason, len);
    if (!h)
        return PAPI_ECMP;
    struct rocp_sdk_libs l = {.handle = h};
    snprintf(l.path, sizeof l.path, "%s", gpu_library_path(h, ROCP_SONAME));
#define ROCP_LOOKUP(sym, old)                                                                    \
    *(void **)&l.sym = dlsym(h, #sym);                                                           \
    if (!l.sym && (old))                                                                         \
        *(void **)&l.sym = dlsym(h, (old) ? (old) : #sym);                                       \
    if (!l.sym) {                                                                                \
        snprintf(reason, len,                                                                    \
                 "%s lacks %s: a rocprofiler-sdk older than ROCm 6.2's, or not rocprofiler-sdk", \
                 l.path, #sym);                                                                  \
        dlclose(h);                                                                              \
        return PAPI_ECMP;                                                                        \
    }
    ROCP_SDK_SYMBOLS(ROCP_LOOKUP)
#undef ROCP_LOOKUP
    if (l.rocprofiler_get_version(&l.major, &l.minor, &l.patch) != ROCPROFILER_STATUS_SUCCESS) {
        snprintf(reason, len, "rocprofiler_get_version of %s failed", l.path);
        dlclose(h);
        return PAPI_ECMP;
    }
    l.record_size = l.major >= 1 ? ROCP_RECORD_SIZE_V1 : ROCP_RECORD_SIZE_V0;
    rocp_lib = l;
    return PAPI_OK;
}
