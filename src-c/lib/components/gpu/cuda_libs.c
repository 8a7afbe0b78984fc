/* cuda_libs.c: libcupti and libcuda found at run time (cuda_libs.h). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "component.h"
#include "cuda_libs.h"
#include "gpu_library.h"

#define CUDA_SONAME "libcuda.so.1"

struct cuda_libs cuda_lib;

const char *cuda_cupti_words(CUptiResult r)
{
    return cupti_result_words(&cuda_lib.cupti, r);
}

const char *cuda_driver_words(CUresult r)
{
    static _Thread_local char buf[32];
    const char *s = NULL;
    if (cuda_lib.cuGetErrorName && cuda_lib.cuGetErrorName(r, &s) == CUDA_SUCCESS && s)
        return s;
    snprintf(buf, sizeof buf, "CUDA error %d", r);
    return buf;
}

/* The Range Profiler and Profiler Host calls (CUDA 12.6 update 2 and later). */
static int profiler_symbols(char *reason, size_t len)
{
#define CUDA_LOOKUP(sym)                                                                   \
    *(void **)&cuda_lib.sym = dlsym(cuda_lib.cupti.handle, #sym);                          \
    if (!cuda_lib.sym) {                                                                   \
        snprintf(reason, len,                                                              \
                 "%s (CUPTI version %u) lacks %s: the Range Profiler came with CUDA 12.6 " \
                 "update 2; put a newer CUPTI's folder on LD_LIBRARY_PATH",                \
                 cuda_lib.cupti.path, cuda_lib.cupti.version, #sym);                       \
        return PAPI_ECMP;                                                                  \
    }
    CUDA_PROFILER_SYMBOLS(CUDA_LOOKUP)
#undef CUDA_LOOKUP
    return PAPI_OK;
}

int cuda_libs_driver(char *reason, size_t len)
{
    static const struct gpu_library_words words = {
        "no NVIDIA driver is installed here, or its directory is not on LD_LIBRARY_PATH",
        "a CUDA driver older than the CUDA 12 driver API"};
#define SYMBOL(sym, required) {#sym, (void **)&cuda_lib.sym, required},
    const struct gpu_symbol syms[] = {CUDA_DRIVER_SYMBOLS(SYMBOL)};
#undef SYMBOL
    char why[1024];
    if (cuda_lib.cuda)
        return PAPI_OK;
    if (gpu_library_open(CUDA_SONAME, syms, (int)(sizeof syms / sizeof syms[0]), &words,
                         &cuda_lib.cuda, why, sizeof why) != PAPI_OK) {
        snprintf(reason, len, "no NVIDIA driver: %s", why);
        return PAPI_ECMP;
    }
    return PAPI_OK;
}

/* The driver first: without one (most machines, a CUDA toolkit's among them) libcupti is
 * not loaded at all, which costs every PAPI_library_init about 10 ms. */
static int driver(int *ndevices, char *reason, size_t len)
{
    char why[1024];
    if (cuda_libs_driver(reason, len) != PAPI_OK)
        return PAPI_ECMP;
    CUresult r = cuda_lib.cuInit(0);
    int count = 0;
    if (r == CUDA_SUCCESS)
        r = cuda_lib.cuDeviceGetCount(&count);
    if (r == CUDA_SUCCESS && count > 0) {
        cuda_lib.cuDriverGetVersion(&cuda_lib.driver_version);
        *ndevices = count;
        return PAPI_OK;
    }
    /* no device: said with the CUPTI that would have counted, where one loads */
    const char *path = gpu_library_path(cuda_lib.cuda, CUDA_SONAME);
    int n = snprintf(reason, len, "no NVIDIA device: %s of %s %s",
                     r == CUDA_SUCCESS ? "cuDeviceGetCount" : "cuInit", path,
                     r == CUDA_SUCCESS ? "found none" : cuda_driver_words(r));
    if (n > 0 && (size_t)n < len &&
        cupti_load(&cuda_lib.cupti, NULL, 0, why, sizeof why) == CUPTI_LOAD_OK)
        snprintf(reason + n, len - (size_t)n, " (CUPTI %s, version %u, loaded)",
                 cuda_lib.cupti.path, cuda_lib.cupti.version);
    return PAPI_ECMP;
}

int cuda_libs_load(int *ndevices, char *reason, size_t len)
{
    *ndevices = 0;
    char why[1024];
    int ret = driver(ndevices, reason, len);
    if (ret != PAPI_OK)
        return ret;
    if (cupti_load(&cuda_lib.cupti, NULL, 0, why, sizeof why) != CUPTI_LOAD_OK) {
        snprintf(reason, len, "%s", why);
        *ndevices = 0;
        return PAPI_ECMP;
    }
    ret = profiler_symbols(reason, len);
    if (ret != PAPI_OK)
        *ndevices = 0;
    return ret;
}

void cuda_libs_unload(void)
{
    if (cuda_lib.cuda)
        dlclose(cuda_lib.cuda);
    cupti_unload(&cuda_lib.cupti);
    memset(&cuda_lib, 0, sizeof cuda_lib);
}
