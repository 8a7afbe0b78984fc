/* hwinfo_topology.c: sockets, cores, threads, NUMA nodes and the cache table: this
 * machine's from its sysfs files (hwinfo_sysfs_topology.c), a replayed or recorded one
 * (and this one when PAPI_TOPOLOGY=hwloc) from hwloc. hwloc honours HWLOC_XMLFILE /
 * HWLOC_SYNTHETIC by itself, so tests replay recorded machines; nothing here sets a
 * topology source. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env.h"
#include "fsroot.h"
#include "hwinfo_caches.h"
#include "hwinfo_sysfs_topology.h"
#include "hwinfo_topology.h"
#include "scoped_env.h"

/* One NUMA node holding all memory and every thread. */
static void single_numa_node(struct hwinfo_numa *numa, int pus)
{
    numa->nodes = 1;
    numa->mem_bytes[0] =
        (unsigned long long)sysconf(_SC_PHYS_PAGES) * (unsigned long long)sysconf(_SC_PAGESIZE);
    numa->pus = pus < HWINFO_MAX_PUS ? pus : HWINFO_MAX_PUS;
    for (int i = 0; i < numa->pus; i++)
        numa->pu_node[i] = 0;
}

/* Where the counts and caches came from, and why not hwloc when it was not
 * (PAPI_get_hardware_info_topology_source). */
static char topo_source[600] = "none";

/* Without hwloc (or when it fails) and without sysfs topology files: CPU count from
 * sysconf, one socket, and the caches of CPU 0 from sysfs, so the description stays
 * useful. */
static int basic_topology(PAPI_hw_info_t *hw, struct hwinfo_numa *numa, const char *why)
{
    hw->totalcpus = (int)sysconf(_SC_NPROCESSORS_CONF);
    hw->ncpu = hw->cores = hw->totalcpus;
    hw->nnodes = hw->sockets = hw->threads = 1;
    const char *caches = hwinfo_sysfs_caches(&hw->mem_hierarchy);
    snprintf(topo_source, sizeof topo_source, "sysconf and sysfs (%s%s)",
             caches && !strcmp(caches, "cpuid") ? "caches from cpuid; " : "", why);
    single_numa_node(numa, hw->totalcpus);
    return 1;
}

/* This machine's topology from its sysfs files (hwinfo_sysfs_topology.c), unless a
 * replayed one is asked for or the files are missing; 1 when it was read. */
static int sysfs_topology(PAPI_hw_info_t *hw, struct hwinfo_numa *numa)
{
    if (!hwinfo_sysfs_topology_wanted() || hwinfo_sysfs_topology_load(hw, numa) != 0)
        return 0;
    const char *caches = hwinfo_sysfs_caches(&hw->mem_hierarchy);
    papi_strcpy(topo_source, sizeof topo_source,
                !caches ? "sysfs (no caches: sysfs has no cpu0/cache, cpuid none)"
                : !strcmp(caches, "cpuid") ? "sysfs (caches from cpuid: sysfs has no cpu0/cache)"
                                           : "sysfs");
    return 1;
}

const char *hwinfo_topology_source(void)
{
    return topo_source;
}

#ifdef PAPI_HAVE_HWLOC
#ifdef PAPI_HWLOC_DLOPEN
#include "hwinfo_hwloc_dl.h" /* the static library: hwloc loaded at run time */
#else
#include <hwloc.h>
#endif

static int count_type(hwloc_topology_t t, hwloc_obj_type_t type)
{
    int n = hwloc_get_nbobjs_by_type(t, type);
    return n > 0 ? n : 0;
}

static void read_cpu_desc(hwloc_topology_t t, struct hwinfo_cpu_desc *cpu)
{
    hwloc_obj_t pkg = hwloc_get_obj_by_type(t, HWLOC_OBJ_PACKAGE, 0);
    if (!pkg)
        pkg = hwloc_get_root_obj(t);
    const char *v;
    if ((v = hwloc_obj_get_info_by_name(pkg, "CPUVendor")))
        papi_strcpy(cpu->vendor, sizeof cpu->vendor, v);
    if ((v = hwloc_obj_get_info_by_name(pkg, "CPUModel")))
        papi_strcpy(cpu->model, sizeof cpu->model, v);
    if ((v = hwloc_obj_get_info_by_name(pkg, "CPUFamilyNumber")))
        cpu->family = atoi(v);
    if ((v = hwloc_obj_get_info_by_name(pkg, "CPUModelNumber")))
        cpu->model_number = atoi(v);
    if ((v = hwloc_obj_get_info_by_name(pkg, "CPUStepping")))
        cpu->stepping = atoi(v);
}

static void read_numa(hwloc_topology_t t, struct hwinfo_numa *numa)
{
    int n = count_type(t, HWLOC_OBJ_NUMANODE);
    if (n < 1) {
        single_numa_node(numa, count_type(t, HWLOC_OBJ_PU));
        return;
    }
    numa->nodes = n < HWINFO_MAX_NUMA ? n : HWINFO_MAX_NUMA;
    for (int i = 0; i < HWINFO_MAX_PUS; i++)
        numa->pu_node[i] = -1;
    for (int i = 0; i < numa->nodes; i++) {
        hwloc_obj_t node = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, (unsigned)i);
        numa->mem_bytes[i] = node->attr ? node->attr->numanode.local_memory : 0;
        unsigned pu;
        hwloc_bitmap_foreach_begin(pu, node->cpuset)
        {
            if (pu < HWINFO_MAX_PUS) {
                numa->pu_node[pu] = (short)i;
                if ((int)pu + 1 > numa->pus)
                    numa->pus = (int)pu + 1;
            }
        }
        hwloc_bitmap_foreach_end();
    }
}

static int cache_papi_type(hwloc_obj_cache_type_t t)
{
    switch (t) {
    case HWLOC_OBJ_CACHE_DATA:
        return PAPI_MH_TYPE_DATA;
    case HWLOC_OBJ_CACHE_INSTRUCTION:
        return PAPI_MH_TYPE_INST;
    default:
        return PAPI_MH_TYPE_UNIFIED;
    }
}

/* The caches above the first PU, innermost first. */
static void read_caches(hwloc_topology_t t, PAPI_mh_info_t *mh)
{
    struct hwinfo_cache c[16];
    int n = 0;
    hwloc_obj_t pu = hwloc_get_obj_by_type(t, HWLOC_OBJ_PU, 0);
    for (hwloc_obj_t o = pu ? pu->parent : NULL; o && n < 16; o = o->parent) {
        if (!hwloc_obj_type_is_cache(o->type) || !o->attr)
            continue;
        const struct hwloc_cache_attr_s *a = &o->attr->cache;
        c[n].level = (int)a->depth;
        c[n].type = cache_papi_type(a->type);
        c[n].size = (long long)a->size;
        c[n].line = a->linesize;
        c[n].ways = a->associativity;
        n++;
    }
    hwinfo_place_caches(mh, c, n);
}

/* hwloc dlopens its plugins (PCI, OpenCL, GL with X11, libxml2 and ICU) at every
 * topology init; none of them describes CPUs or caches, and loading them costs several
 * milliseconds per process. Unless the user chose plugins, keep them out for the init.
 * (hwloc's built-in XML reader still replays HWLOC_XMLFILE.) */
static const char unused_plugins[] = "hwloc_pci,hwloc_opencl,hwloc_gl,hwloc_cuda,hwloc_nvml,"
                                     "hwloc_rsmi,hwloc_levelzero,hwloc_xml_libxml";

static int init_without_io_plugins(hwloc_topology_t *t)
{
    bool ours = scoped_env_begin("HWLOC_PLUGINS_BLACKLIST", unused_plugins,
                                 !env_is_set("HWLOC_PLUGINS_PATH"));
    int r = hwloc_topology_init(t);
    scoped_env_end("HWLOC_PLUGINS_BLACKLIST", ours);
    return r;
}

int hwinfo_topology_load(PAPI_hw_info_t *hw, struct hwinfo_cpu_desc *cpu, struct hwinfo_numa *numa)
{
    hwloc_topology_t t;
    int this_system = 1;
    const char *why = "hwloc could not initialise a topology";
    if (sysfs_topology(hw, numa))
        return 1;
#ifdef PAPI_HWLOC_DLOPEN
    if ((why = hwinfo_hwloc_dl_load()) != NULL)
        goto fallback;
    why = "hwloc could not initialise a topology";
#endif
    if (init_without_io_plugins(&t) != 0)
        goto fallback;
    /* Instruction caches are filtered out by default; PAPI reports them. */
    hwloc_topology_set_icache_types_filter(t, HWLOC_TYPE_FILTER_KEEP_ALL);
    /* Levels PAPI never reports: skipping them shortens the load. */
    hwloc_topology_set_type_filter(t, HWLOC_OBJ_GROUP, HWLOC_TYPE_FILTER_KEEP_NONE);
    hwloc_topology_set_type_filter(t, HWLOC_OBJ_MISC, HWLOC_TYPE_FILTER_KEEP_NONE);
    hwloc_topology_set_type_filter(t, HWLOC_OBJ_MEMCACHE, HWLOC_TYPE_FILTER_KEEP_NONE);
    /* Nor distances, memory attributes or CPU kinds: dozens of sysfs files fewer. The
     * machine is described whole, as PAPI does, not the part this job's cgroup allows. */
    hwloc_topology_set_flags(
        t, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED | HWLOC_TOPOLOGY_FLAG_NO_DISTANCES |
               HWLOC_TOPOLOGY_FLAG_NO_MEMATTRS | HWLOC_TOPOLOGY_FLAG_NO_CPUKINDS);
    /* On Linux, sysfs already gives the caches; hwloc's x86 backend would bind to every
     * CPU in turn to run cpuid there (slow on big nodes). Keep it where sysfs has none. */
    if (fsroot_access("/sys/devices/system/cpu/cpu0/cache/index0", F_OK) == 0)
        hwloc_topology_set_components(t, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "x86");
    /* A recorded machine (PAPI_FSROOT) that has its CPU topology recorded is replayed by
     * hwloc's Linux backend too, unless the user gave hwloc a topology source of its own;
     * one recorded without it (only its PMUs, say) keeps this machine's topology. */
    const char *root = fsroot();
    bool replay = root[0] && fsroot_access("/sys/devices/system/cpu/cpu0/topology", F_OK) == 0 &&
                  !env_is_set("HWLOC_FSROOT") && !env_is_set("HWLOC_XMLFILE") &&
                  !env_is_set("HWLOC_SYNTHETIC");
    bool ours = scoped_env_begin("HWLOC_FSROOT", root, replay);
    int loaded = hwloc_topology_load(t);
    scoped_env_end("HWLOC_FSROOT", ours);
    if (loaded != 0) {
        hwloc_topology_destroy(t);
        why = "hwloc could not load the topology";
        goto fallback;
    }
    this_system = hwloc_topology_is_thissystem(t);
    int pus = count_type(t, HWLOC_OBJ_PU);
    int cores = count_type(t, HWLOC_OBJ_CORE);
    int sockets = count_type(t, HWLOC_OBJ_PACKAGE);
    int nodes = count_type(t, HWLOC_OBJ_NUMANODE);
    if (pus < 1)
        pus = 1;
    if (cores < 1)
        cores = pus; /* no core level known: each PU is a core */
    if (sockets < 1)
        sockets = 1;
    if (nodes < 1)
        nodes = 1;
    hwinfo_set_counts(hw, pus, cores, sockets, nodes);
    read_cpu_desc(t, cpu);
    read_caches(t, &hw->mem_hierarchy);
    read_numa(t, numa);
    hwloc_topology_destroy(t);
    papi_strcpy(topo_source, sizeof topo_source, "hwloc");
    return this_system;
fallback:
    return basic_topology(hw, numa, why);
}

#else /* no hwloc */

int hwinfo_topology_load(PAPI_hw_info_t *hw, struct hwinfo_cpu_desc *cpu, struct hwinfo_numa *numa)
{
    (void)cpu;
    if (sysfs_topology(hw, numa))
        return 1;
    return basic_topology(hw, numa, "built without hwloc");
}

#endif
