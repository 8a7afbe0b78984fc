/* hwinfo_hwloc_dl.h: hwloc for the static library, loaded at run time (hwinfo_hwloc_dl.c).
 * libpapi.a must link with libpfm4 and the C library alone (PAPI's users link it
 * `-Wl,-Bstatic,-lpapi,-lpfm,-Bdynamic`), and libhwloc.a needs libudev.a, which Debian
 * does not ship. Included instead of <hwloc.h> when PAPI_HWLOC_DLOPEN is defined: every
 * hwloc function the topology calls, those of hwloc's inline helpers included, is
 * renamed to a trampoline of ours, so the archive references no hwloc symbol. */
#ifndef HWINFO_HWLOC_DL_H
#define HWINFO_HWLOC_DL_H

#define hwloc_get_api_version                  papi_dl_hwloc_get_api_version
#define hwloc_topology_init                    papi_dl_hwloc_topology_init
#define hwloc_topology_load                    papi_dl_hwloc_topology_load
#define hwloc_topology_destroy                 papi_dl_hwloc_topology_destroy
#define hwloc_topology_is_thissystem           papi_dl_hwloc_topology_is_thissystem
#define hwloc_topology_set_icache_types_filter papi_dl_hwloc_topology_set_icache_types_filter
#define hwloc_topology_set_type_filter         papi_dl_hwloc_topology_set_type_filter
#define hwloc_topology_set_flags               papi_dl_hwloc_topology_set_flags
#define hwloc_topology_set_components          papi_dl_hwloc_topology_set_components
#define hwloc_get_type_depth                   papi_dl_hwloc_get_type_depth
#define hwloc_get_nbobjs_by_depth              papi_dl_hwloc_get_nbobjs_by_depth
#define hwloc_get_obj_by_depth                 papi_dl_hwloc_get_obj_by_depth
#define hwloc_obj_type_is_cache                papi_dl_hwloc_obj_type_is_cache
#define hwloc_bitmap_first                     papi_dl_hwloc_bitmap_first
#define hwloc_bitmap_next                      papi_dl_hwloc_bitmap_next
#define hwloc_bitmap_weight                    papi_dl_hwloc_bitmap_weight

#include <hwloc.h>

#include "papi_sdk.h"

/* The library file loaded: hwloc 2.x keeps this soname. Tests point
 * hwinfo_hwloc_dl_soname elsewhere before the first load to see the fallback. */
#define HWINFO_HWLOC_SONAME "libhwloc.so.15"
PAPI_INTERNAL extern const char *hwinfo_hwloc_dl_soname;

/* Load hwloc once (thread safe): NULL when its functions are ready, else why not (a
 * sentence naming the library and dlopen's or dlsym's reason). */
PAPI_INTERNAL const char *hwinfo_hwloc_dl_load(void);
/* The same from a given library name (tests name one that cannot load); not cached. */
PAPI_INTERNAL const char *hwinfo_hwloc_dl_try(const char *soname);

#endif
