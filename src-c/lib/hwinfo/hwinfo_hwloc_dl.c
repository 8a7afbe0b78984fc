/* hwinfo_hwloc_dl.c: the static library's hwloc, opened with dlopen on first use
 * (hwinfo_hwloc_dl.h says why). Built into libpapi.a only; libpapi.so links hwloc. When
 * hwloc cannot be loaded the topology falls back to sysconf and sysfs and
 * PAPI_get_hardware_info_topology_source says why. dlopen is in glibc's libc since 2.34
 * (older ones need -ldl on the program's line). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "hwinfo_hwloc_dl.h"

#define HWLOC_DL_FUNCS(X)               \
    X(get_api_version)                  \
    X(topology_init)                    \
    X(topology_load)                    \
    X(topology_destroy)                 \
    X(topology_is_thissystem)           \
    X(topology_set_icache_types_filter) \
    X(topology_set_type_filter)         \
    X(topology_set_flags)               \
    X(topology_set_components)          \
    X(get_type_depth)                   \
    X(get_nbobjs_by_depth)              \
    X(get_obj_by_depth)                 \
    X(obj_type_is_cache)                \
    X(bitmap_first)                     \
    X(bitmap_next)                      \
    X(bitmap_weight)

/* One pointer per function, typed from hwloc's own declaration (renamed above). */
struct hwloc_fns {
#define X(n) __typeof__(papi_dl_hwloc_##n) *n;
    HWLOC_DL_FUNCS(X)
#undef X
};

const char *hwinfo_hwloc_dl_soname = HWINFO_HWLOC_SONAME;
static struct hwloc_fns fns;
static char reason[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *load_result;

/* Resolve every function of `h` into `out`; NULL or the reason. */
static const char *resolve(void *h, const char *soname, struct hwloc_fns *out)
{
#define X(n)                                                                              \
    if (!(*(void **)&out->n = dlsym(h, "hwloc_" #n))) {                                   \
        snprintf(reason, sizeof reason, "%s has no hwloc_" #n ": %s", soname, dlerror()); \
        return reason;                                                                    \
    }
    HWLOC_DL_FUNCS(X)
#undef X
    unsigned api = out->get_api_version();
    if ((api >> 16) != (HWLOC_API_VERSION >> 16)) {
        snprintf(reason, sizeof reason, "%s is hwloc API 0x%x, this library was built for 0x%x",
                 soname, api, (unsigned)HWLOC_API_VERSION);
        return reason;
    }
    return NULL;
}

const char *hwinfo_hwloc_dl_try(const char *soname)
{
    void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(reason, sizeof reason, "hwloc could not be loaded at run time: %s", dlerror());
        return reason;
    }
    struct hwloc_fns got;
    const char *why = resolve(h, soname, &got);
    if (why) {
        dlclose(h);
        return why;
    }
    fns = got; /* kept open for the life of the process */
    return NULL;
}

static void load_once(void)
{
    load_result = hwinfo_hwloc_dl_try(hwinfo_hwloc_dl_soname);
}

const char *hwinfo_hwloc_dl_load(void)
{
    pthread_once(&once, load_once);
    return load_result;
}

/* The trampolines the renamed calls reach (only after hwinfo_hwloc_dl_load succeeded). */
unsigned papi_dl_hwloc_get_api_version(void)
{
    return fns.get_api_version();
}
int papi_dl_hwloc_topology_init(hwloc_topology_t *t)
{
    return fns.topology_init(t);
}
int papi_dl_hwloc_topology_load(hwloc_topology_t t)
{
    return fns.topology_load(t);
}
void papi_dl_hwloc_topology_destroy(hwloc_topology_t t)
{
    fns.topology_destroy(t);
}
int papi_dl_hwloc_topology_is_thissystem(hwloc_topology_t t)
{
    return fns.topology_is_thissystem(t);
}
int papi_dl_hwloc_topology_set_icache_types_filter(hwloc_topology_t t, enum hwloc_type_filter_e f)
{
    return fns.topology_set_icache_types_filter(t, f);
}
int papi_dl_hwloc_topology_set_type_filter(hwloc_topology_t t, hwloc_obj_type_t type,
                                           enum hwloc_type_filter_e f)
{
    return fns.topology_set_type_filter(t, type, f);
}
int papi_dl_hwloc_topology_set_flags(hwloc_topology_t t, unsigned long flags)
{
    return fns.topology_set_flags(t, flags);
}
int papi_dl_hwloc_topology_set_components(hwloc_topology_t t, unsigned long flags, const char *name)
{
    return fns.topology_set_components(t, flags, name);
}
int papi_dl_hwloc_get_type_depth(hwloc_topology_t t, hwloc_obj_type_t type)
{
    return fns.get_type_depth(t, type);
}
unsigned papi_dl_hwloc_get_nbobjs_by_depth(hwloc_topology_t t, int depth)
{
    return fns.get_nbobjs_by_depth(t, depth);
}
hwloc_obj_t papi_dl_hwloc_get_obj_by_depth(hwloc_topology_t t, int depth, unsigned idx)
{
    return fns.get_obj_by_depth(t, depth, idx);
}
int papi_dl_hwloc_obj_type_is_cache(hwloc_obj_type_t type)
{
    return fns.obj_type_is_cache(type);
}
int papi_dl_hwloc_bitmap_first(hwloc_const_bitmap_t b)
{
    return fns.bitmap_first(b);
}
int papi_dl_hwloc_bitmap_next(hwloc_const_bitmap_t b, int prev)
{
    return fns.bitmap_next(b, prev);
}
int papi_dl_hwloc_bitmap_weight(hwloc_const_bitmap_t b)
{
    return fns.bitmap_weight(b);
}
