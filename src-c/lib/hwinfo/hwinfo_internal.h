/* hwinfo_internal.h: the types the pieces of PAPI_get_hardware_info share, a leaf: each
 * piece declares its calls in its own header (hwinfo_topology.h counts sockets, cores,
 * threads and NUMA nodes and reads the cache table, hwinfo_x86.h asks the CPU itself,
 * hwinfo_freq.h the clock; hwinfo.c reads /proc/cpuinfo and puts it together), so that
 * the files of hwinfo/ form no cycle (layers.map: acyclic). */
#ifndef HWINFO_INTERNAL_H
#define HWINFO_INTERNAL_H

#include <stdint.h>

#include "papi_globals.h"

/* Associativity reported for a fully associative cache or TLB (as PAPI does). */
#define HWINFO_FULLY_ASSOCIATIVE 32767

/* What the topology says about the CPU when it carries that information (hwloc info
 * attributes of a package; a recorded XML topology keeps them). Empty/zero if unknown. */
struct hwinfo_cpu_desc {
    char vendor[PAPI_MAX_STR_LEN];
    char model[PAPI_MAX_STR_LEN];
    int family, model_number, stepping; /* -1 when unknown */
};

/* NUMA nodes beyond PAPI_hw_info_t (for the sysdetect API): each node's memory and the
 * node of each hardware thread (by OS index; -1 where no thread has that index). */
#define HWINFO_MAX_NUMA 64
#define HWINFO_MAX_PUS  1024
struct hwinfo_numa {
    int nodes;
    unsigned long long mem_bytes[HWINFO_MAX_NUMA];
    int pus; /* highest OS index + 1 */
    short pu_node[HWINFO_MAX_PUS];
};

/* One cache of CPU 0 as any source describes it (ways -1: fully associative, 0 unknown). */
struct hwinfo_cache {
    int level, type; /* 1.., PAPI_MH_TYPE_DATA / _INST / _UNIFIED */
    long long size, line, ways;
};
#endif
