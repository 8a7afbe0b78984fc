/* hwinfo_topology.h: the machine's topology (hwinfo_topology.c: hwloc, sysfs, sysconf). */
#ifndef HWINFO_TOPOLOGY_H
#define HWINFO_TOPOLOGY_H

#include "hwinfo_internal.h"

/* Fill the counts, hw->mem_hierarchy caches and the NUMA description. Returns 1 when the
 * topology describes the machine this process runs on (so cpuid and /proc may be
 * consulted), 0 when it is a replayed one (HWLOC_XMLFILE, synthetic). */
PAPI_INTERNAL int hwinfo_topology_load(PAPI_hw_info_t *hw, struct hwinfo_cpu_desc *cpu,
                                       struct hwinfo_numa *numa);

/* Where the counts and caches came from, and why not hwloc when it was not
 * (PAPI_get_hardware_info_topology_source, once the information is loaded). */
PAPI_INTERNAL const char *hwinfo_topology_source(void);

#endif
