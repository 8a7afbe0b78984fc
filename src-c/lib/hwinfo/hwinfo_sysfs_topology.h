/* hwinfo_sysfs_topology.h: the topology from this machine's sysfs (hwinfo_sysfs_topology.c). */
#ifndef HWINFO_SYSFS_TOPOLOGY_H
#define HWINFO_SYSFS_TOPOLOGY_H

#include "hwinfo_internal.h"

/* hwinfo_sysfs_topology.c: whether this machine's sysfs gives the topology (no replay
 * asked of hwloc, PAPI_TOPOLOGY not "hwloc"); the counts and NUMA nodes from it
 * (0, or -1 when its files are missing or inconsistent: hwloc is asked then); CPU 0's
 * caches alone: from sysfs, else (this machine only: a kernel or VM without cpu0/cache)
 * from cpuid; returns "sysfs", "cpuid" or NULL when neither describes any. */
PAPI_INTERNAL int hwinfo_sysfs_topology_wanted(void);
PAPI_INTERNAL int hwinfo_sysfs_topology_load(PAPI_hw_info_t *hw, struct hwinfo_numa *numa);
PAPI_INTERNAL const char *hwinfo_sysfs_caches(PAPI_mh_info_t *mh);
/* PAPI_hw_info_t's counts from the totals (cores and sockets at least 1, nodes too). */
PAPI_INTERNAL void hwinfo_set_counts(PAPI_hw_info_t *hw, int pus, int cores, int sockets,
                                     int nodes);

#endif
