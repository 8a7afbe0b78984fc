/* gpu_library.h: a vendor library found at run time (gpu_library.c): nvml and rocm_smi
 * dlopen their library and look up a table of symbols, some required, the same way, and
 * say the same things when it is absent or of another version. */
#ifndef PAPI_GPU_LIBRARY_H
#define PAPI_GPU_LIBRARY_H

#include <stddef.h>

/* One symbol: its name, where its address goes, and whether its absence disables the
 * component (an optional one left NULL: its events are not listed). */
struct gpu_symbol {
    const char *name;
    void **address;
    int required;
};

/* What the reasons say after the facts: why the library may be absent, and what a
 * missing required symbol means. */
struct gpu_library_words {
    const char *absent;        /* "no NVIDIA driver is installed here, or ..." */
    const char *other_version; /* "an NVML of another version ..." */
};

/* dlopen(soname) into *handle, then each symbol. PAPI_OK, or PAPI_ECMP with the reason
 * in reason[len]: "<soname> not found (<dlerror>): <absent>", or "<path> lacks <name>:
 * <other_version>" (*handle then stays open: the caller's release closes it). PAPI_OK
 * with optional symbols missing leaves a one-line caveat in reason ("<path> lacks a, b:
 * the events that read them are not listed"), else "". */
PAPI_INTERNAL int gpu_library_open(const char *soname, const struct gpu_symbol *syms, int n,
                                   const struct gpu_library_words *words, void **handle,
                                   char *reason, size_t len);
/* Where the loader found the library (for reasons), or soname. */
PAPI_INTERNAL const char *gpu_library_path(void *handle, const char *soname);

#endif
