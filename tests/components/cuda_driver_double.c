/* cuda_driver_double.c: a stand-in for the CUDA driver library (soname libcuda.so.1),
 * compiled against the project's declarations (src-c/lib/components/gpu/cuda_driver_api.h)
 * so its signatures are the ones the cuda component calls. It never makes a context
 * unless the test program asks (cuda_double_make_current: the program initialising CUDA
 * on a device, its primary context made current on the calling thread), and counts the
 * contexts anyone else made (a primary context retained while inactive, cuCtxCreate): the
 * cuda component must make none. A context is the device's number plus 0x1000, as the
 * CUPTI double reads it (tests/gpu_activity/cupti_profiler_double.c).
 * PAPI_TEST_CUDA_ACTIVE=N: device N's primary context is active from the start (CUDA
 * initialised before the tool: papi_run --gpu-counters' per-kernel session finds it).
 * PAPI_TEST_CUDA_MODE: nodevice (cuInit: CUDA_ERROR_NO_DEVICE). PAPI_TEST_CUDA_DEVICES:
 * the number of devices (2). PAPI_TEST_CUDA_DRIVER: cuDriverGetVersion's (13000). */
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_driver_api.h"

#define EXPORT __attribute__((visibility("default")))

static int active[16];
static int created; /* contexts made behind the program's back */
static __thread CUcontext current;
static int initialised;

/* Every driver call counted, and the program's kernel launches, for bench/bench_cuda_cost.c:
 * the cuda component's calls per PAPI operation and per launch. */
static unsigned long calls, launches;

static void entered(void)
{
    __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
}

EXPORT unsigned long cuda_double_driver_calls(void)
{
    return __atomic_load_n(&calls, __ATOMIC_RELAXED);
}

/* The program launches a kernel in its current context (cuLaunchKernel's place: the
 * driver's own work is not modelled, so a bench sees only what a tool adds to it). */
EXPORT CUresult cuda_double_launch_kernel(void)
{
    if (!current)
        return CUDA_ERROR_INVALID_CONTEXT;
    __atomic_add_fetch(&launches, 1, __ATOMIC_RELAXED);
    return CUDA_SUCCESS;
}

/* A named kernel launched in the current context: counted, and the range CUPTI's auto
 * range mode makes around it ended in the CUPTI double (when that is loaded). */
EXPORT CUresult cuda_double_launch_named(const char *kernel)
{
    CUresult r = cuda_double_launch_kernel();
    /* CUPTI loaded by a tool (RTLD_LOCAL): found by its soname, not loaded here */
    void *cupti = r == CUDA_SUCCESS ? dlopen("libcupti.so.13", RTLD_LAZY | RTLD_NOLOAD) : NULL;
    void (*ran)(int, const char *) =
        cupti ? (void (*)(int, const char *))dlsym(cupti, "cupti_double_kernel_ran") : NULL;
    if (ran)
        ran((int)((uintptr_t)current - 0x1000), kernel);
    if (cupti)
        dlclose(cupti);
    return r;
}

EXPORT unsigned long cuda_double_launches(void)
{
    return __atomic_load_n(&launches, __ATOMIC_RELAXED);
}

static const char *env(const char *name, const char *otherwise)
{
    const char *v = getenv(name);
    return v && v[0] ? v : otherwise;
}

static int devices(void)
{
    return atoi(env("PAPI_TEST_CUDA_DEVICES", "2"));
}

static CUcontext ctx_of(int device)
{
    return (CUcontext)(uintptr_t)(0x1000 + device);
}

/* CUPTI's resource callback of device's context, where a tool loaded the CUPTI double
 * (found by its soname, not loaded here): created 1 made, 0 about to be destroyed. */
static void tell_cupti(int device, int created)
{
    void *cupti = dlopen("libcupti.so.13", RTLD_LAZY | RTLD_NOLOAD);
    void (*told)(int, int) =
        cupti ? (void (*)(int, int))dlsym(cupti, "cupti_double_context") : NULL;
    if (told)
        told(device, created);
    if (cupti)
        dlclose(cupti);
}

EXPORT void cuda_double_make_current(int device)
{
    if (!__atomic_exchange_n(&active[device], 1, __ATOMIC_RELAXED))
        tell_cupti(device, 1); /* the primary context made: before its first use */
    current = ctx_of(device);
}

/* cudaDeviceReset's place: device's primary context destroyed (CUPTI told first). */
EXPORT void cuda_double_reset(int device)
{
    if (!__atomic_exchange_n(&active[device], 0, __ATOMIC_RELAXED))
        return;
    tell_cupti(device, 0);
    if (current == ctx_of(device))
        current = NULL;
}

EXPORT int cuda_double_contexts_created(void)
{
    return __atomic_load_n(&created, __ATOMIC_RELAXED);
}

static int inits; /* cuInit calls: the component makes none before its first use */

EXPORT int cuda_double_inits(void)
{
    return __atomic_load_n(&inits, __ATOMIC_RELAXED);
}

EXPORT CUresult cuInit(unsigned int flags)
{
    entered();
    __atomic_add_fetch(&inits, 1, __ATOMIC_RELAXED);
    if (flags != 0)
        return 1; /* CUDA_ERROR_INVALID_VALUE */
    if (strcmp(env("PAPI_TEST_CUDA_MODE", ""), "nodevice") == 0)
        return CUDA_ERROR_NO_DEVICE;
    initialised = 1;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDriverGetVersion(int *version)
{
    entered();
    *version = atoi(env("PAPI_TEST_CUDA_DRIVER", "13000"));
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGetCount(int *count)
{
    entered();
    if (!initialised)
        return CUDA_ERROR_NOT_INITIALIZED;
    *count = devices();
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    entered();
    if (ordinal < 0 || ordinal >= devices())
        return 101; /* CUDA_ERROR_INVALID_DEVICE */
    *device = ordinal;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice device)
{
    entered();
    strncpy(name, device ? "NVIDIA A100" : "NVIDIA H100", (size_t)len);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxGetCurrent(CUcontext *ctx)
{
    entered();
    *ctx = current;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxGetDevice(CUdevice *device)
{
    entered();
    if (!current)
        return CUDA_ERROR_INVALID_CONTEXT;
    *device = (int)((uintptr_t)current - 0x1000);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuGetErrorName(CUresult error, const char **name)
{
    entered();
    *name = error == CUDA_ERROR_NO_DEVICE         ? "CUDA_ERROR_NO_DEVICE"
            : error == CUDA_ERROR_NOT_INITIALIZED ? "CUDA_ERROR_NOT_INITIALIZED"
                                                  : "CUDA_ERROR_UNKNOWN";
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDevicePrimaryCtxGetState(CUdevice device, unsigned int *flags, int *is_active)
{
    entered();
    *flags = 0;
    const char *on = getenv("PAPI_TEST_CUDA_ACTIVE");
    if (on && *on && atoi(on) == device)
        __atomic_store_n(&active[device], 1, __ATOMIC_RELAXED);
    *is_active = __atomic_load_n(&active[device], __ATOMIC_RELAXED);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice device)
{
    entered();
    if (!__atomic_exchange_n(&active[device], 1, __ATOMIC_RELAXED))
        __atomic_add_fetch(&created, 1, __ATOMIC_RELAXED);
    *ctx = ctx_of(device);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice device)
{
    entered();
    (void)device;
    return CUDA_SUCCESS;
}

/* Made by no caller that keeps to the rules: counted. */
EXPORT CUresult cuCtxCreate_v4(CUcontext *ctx, void *params, unsigned int flags, CUdevice device)
{
    entered();
    (void)params, (void)flags;
    __atomic_add_fetch(&created, 1, __ATOMIC_RELAXED);
    *ctx = ctx_of(device);
    return CUDA_SUCCESS;
}
