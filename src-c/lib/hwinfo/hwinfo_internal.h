/* hwinfo_internal.h: the pieces PAPI_get_hardware_info is assembled from.
 * hwinfo_topology.c counts sockets/cores/threads/NUMA nodes and reads the cache table
 * (hwloc), hwinfo_x86.c asks the CPU itself (hypervisor, TLBs), hwinfo.c reads
 * /proc/cpuinfo and cpufreq and puts it together. */
#ifndef HWINFO_INTERNAL_H
#define HWINFO_INTERNAL_H

#include "hwinfo.h"
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

/* Fill the counts, hw->mem_hierarchy caches and the NUMA description. Returns 1 when the
 * topology describes the machine this process runs on (so cpuid and /proc may be
 * consulted), 0 when it is a replayed one (HWLOC_XMLFILE, synthetic). */
PAPI_INTERNAL int hwinfo_topology_load(PAPI_hw_info_t *hw, struct hwinfo_cpu_desc *cpu,
                                       struct hwinfo_numa *numa);

/* One cache of CPU 0 as any source describes it (ways -1: fully associative, 0 unknown). */
struct hwinfo_cache {
    int level, type; /* 1.., PAPI_MH_TYPE_DATA / _INST / _UNIFIED */
    long long size, line, ways;
};
/* hwinfo_caches.c: put caches into PAPI's table (per level: data, instruction, unified);
 * decode one subleaf of cpuid's deterministic cache leaf (1 a cache, 0 the end of the
 * list, -1 a reserved kind to skip). */
PAPI_INTERNAL void hwinfo_place_caches(PAPI_mh_info_t *mh, const struct hwinfo_cache *c, int n);
PAPI_INTERNAL int hwinfo_cpuid_cache_decode(uint32_t eax, uint32_t ebx, uint32_t ecx,
                                            struct hwinfo_cache *c);
/* AMD's older leaves: L1 data and instruction (ECX, EDX of 0x80000005), L2 and L3 (ECX,
 * EDX of 0x80000006) into c (room for 4); the number of caches. The ways of an AMD
 * associativity code (-1: fully associative, 0: unknown or disabled). */
PAPI_INTERNAL int hwinfo_amd_legacy_caches(uint32_t l1d, uint32_t l1i, uint32_t l2, uint32_t l3,
                                           struct hwinfo_cache *c);
PAPI_INTERNAL int hwinfo_amd_assoc(unsigned code);

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

/* The NUMA description of the loaded topology (loads it like PAPI_get_hardware_info);
 * NULL before PAPI_library_init. */
PAPI_INTERNAL const struct hwinfo_numa *hwinfo_numa_info(void);
/* The CPU's name as the processor gives it (x86: the cpuid brand string), else the
 * hardware information's model_string; NULL before PAPI_library_init. */
PAPI_INTERNAL const char *hwinfo_cpu_name(void);

/* hwinfo_freq.c: the nominal clock in MHz (max, min; 0 only when no source has it) and
 * the name of its source: cpufreq, acpi_cppc, cpuinfo, measured, bogomips or none. Paths
 * are taken under root ("" for this machine, else a recorded machine: fsroot.h). */
PAPI_INTERNAL const char *hwinfo_nominal_mhz(const char *root, int *max_mhz, int *min_mhz);
/* The same with /proc/cpuinfo's "cpu MHz" already read (> 0), so it is not read again. */
PAPI_INTERNAL const char *hwinfo_nominal_mhz_known(const char *root, double cpuinfo_mhz,
                                                   int *max_mhz, int *min_mhz);
/* Where PAPI_get_hardware_info's cpu_max_mhz came from (hwinfo_nominal_mhz's names). */
PAPI_INTERNAL const char *hwinfo_mhz_source(void);

/* x86 cpuid: hypervisor vendor (leaf 0x40000000) and TLBs. No-ops elsewhere. */
PAPI_INTERNAL int hwinfo_cpuid_brand(char *name, size_t len);
PAPI_INTERNAL void hwinfo_cpuid_tlbs(PAPI_mh_info_t *mh);
/* CPU 0's caches from cpuid's deterministic cache leaf (Intel leaf 4, AMD 0x8000001D with
 * topology extensions, else AMD's 0x80000005/6), as hwloc's x86 backend reads them; the number found (0 on other
 * CPUs and architectures). Runs on the calling CPU: the caches of one core type. */
PAPI_INTERNAL int hwinfo_cpuid_caches(struct hwinfo_cache *c, int max);

/* Intel cpuid leaf 2: add the TLBs its descriptor bytes name (hwinfo_x86_leaf2.c). Pure
 * decoding of the four registers, available on every architecture. */
PAPI_INTERNAL void hwinfo_cpuid_leaf2_tlbs(PAPI_mh_info_t *mh, uint32_t eax, uint32_t ebx,
                                           uint32_t ecx, uint32_t edx);

/* Add one TLB description to a memory-hierarchy level (ignored when the level is full;
 * hwinfo_tlb.c, used by both cpuid decoders). */
PAPI_INTERNAL void hwinfo_add_tlb(PAPI_mh_info_t *mh, int level, int type, int entries, int page_kb,
                                  int assoc);

#endif
