/* hwinfo_sysfs_topology.c: the counts, CPU 0's caches and the NUMA nodes of the machine
 * this process runs on, read from the same sysfs files hwloc's Linux backend reads, but
 * only the few PAPI_hw_info_t needs: one core_cpus_list per core, one package_cpus_list
 * per socket, cpu0's cache directories, and per node its cpulist and meminfo. Loading
 * hwloc (dlopen of libhwloc and libudev, about a hundred sysfs files, /proc/cpuinfo,
 * cgroups, DMI) cost about 1.1 ms in every PAPI_library_init on a 2-CPU VM, a third of
 * papi_avail's run. hwloc stays the source for replayed topologies (HWLOC_XMLFILE,
 * HWLOC_SYNTHETIC, HWLOC_FSROOT, recorded trees under PAPI_FSROOT) and when
 * PAPI_TOPOLOGY=hwloc; test_hwinfo_sysfs_vs_hwloc holds the two to the same answer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env.h"
#include "fsroot.h"
#include "hwinfo_caches.h"
#include "hwinfo_sysfs_topology.h"
#include "hwinfo_x86.h"

/* A kernel CPU list ("0-3,8,10-11") as a set of indices below HWINFO_MAX_PUS; the number
 * of members, or -1 when the text is not a list. */
static int parse_cpu_list(const char *s, unsigned char *set)
{
    int n = 0;
    memset(set, 0, HWINFO_MAX_PUS);
    while (*s && *s != '\n') {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        if (end == s || a < 0)
            return -1;
        s = end;
        if (*s == '-') {
            b = strtol(s + 1, &end, 10);
            if (end == s + 1 || b < a)
                return -1;
            s = end;
        }
        for (long i = a; i <= b && i < HWINFO_MAX_PUS; i++)
            if (!set[i]) {
                set[i] = 1;
                n++;
            }
        if (*s == ',')
            s++;
        else if (*s && *s != '\n')
            return -1;
    }
    return n;
}

static int read_cpu_list(const char *path, unsigned char *set)
{
    static char line[8192]; /* called under hwinfo.c's lock */
    if (fsroot_read_line(path, line, sizeof line) != 0)
        return -1;
    return parse_cpu_list(line, set);
}

/* The set of CPU cpu's siblings named by one of two topology files (the newer name first). */
static int read_siblings(int cpu, const char *file, const char *old_file, unsigned char *set)
{
    char path[128];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, file);
    if (read_cpu_list(path, set) > 0)
        return 0;
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, old_file);
    return read_cpu_list(path, set) > 0 ? 0 : -1;
}

/* Cores and sockets: each online CPU not yet placed reads its siblings, and all of them
 * are placed at once, so a node reads one file per core and one per socket. */
static int count_groups(const unsigned char *online, const char *file, const char *old_file)
{
    static unsigned char placed[HWINFO_MAX_PUS], sib[HWINFO_MAX_PUS];
    int groups = 0;
    memset(placed, 0, sizeof placed);
    for (int c = 0; c < HWINFO_MAX_PUS; c++) {
        if (!online[c] || placed[c])
            continue;
        if (read_siblings(c, file, old_file, sib) != 0 || !sib[c])
            return -1; /* a CPU is its own sibling: anything else is no topology */
        for (int i = 0; i < HWINFO_MAX_PUS; i++)
            placed[i] |= sib[i] & online[i];
        placed[c] = 1;
        groups++;
    }
    return groups;
}

static long long read_ll(const char *dir, const char *file)
{
    char path[512], buf[64];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (fsroot_read_line(path, buf, sizeof buf) != 0)
        return -1;
    char *end;
    long long v = strtoll(buf, &end, 10);
    if (end == buf || v < 0)
        return -1;
    if (*end == 'K')
        v *= 1024;
    else if (*end == 'M')
        v *= 1024 * 1024;
    return v;
}

/* One cache directory of CPU 0; 0 when it is a cache PAPI can describe. */
static int read_cache(int idx, struct hwinfo_cache *c)
{
    char dir[96], path[128], type[32];
    snprintf(dir, sizeof dir, "/sys/devices/system/cpu/cpu0/cache/index%d", idx);
    long long level = read_ll(dir, "level");
    snprintf(path, sizeof path, "%s/type", dir);
    if (level < 1 || level > PAPI_MAX_MEM_HIERARCHY_LEVELS ||
        fsroot_read_line(path, type, sizeof type) != 0)
        return -1;
    c->level = (int)level;
    c->type = !strcmp(type, "Data")          ? PAPI_MH_TYPE_DATA
              : !strcmp(type, "Instruction") ? PAPI_MH_TYPE_INST
                                             : PAPI_MH_TYPE_UNIFIED;
    c->size = read_ll(dir, "size");
    c->line = read_ll(dir, "coherency_line_size");
    /* Ways as hwloc derives them (its answer is the one PAPI users saw): size over sets,
     * line and partitions, and unknown (0) for one set or none given. */
    long long sets = read_ll(dir, "number_of_sets"),
              parts = read_ll(dir, "physical_line_partition");
    if (parts < 1)
        parts = 1;
    c->ways = sets > 1 && c->line > 0 && c->size > 0 ? c->size / (sets * c->line * parts) : 0;
    return c->size > 0 && c->line >= 0 ? 0 : -1;
}

/* CPU 0's caches in PAPI's order, as hwloc gives those above its first PU: from sysfs,
 * else, as hwloc's x86 backend and PAPI 7 do where the kernel (or a VM's) lists no
 * cpu0/cache, from cpuid; never this machine's cpuid for a recorded one. */
const char *hwinfo_sysfs_caches(PAPI_mh_info_t *mh)
{
    struct hwinfo_cache c[16];
    int n = 0;
    for (int idx = 0; idx < 16; idx++) {
        char dir[96];
        snprintf(dir, sizeof dir, "/sys/devices/system/cpu/cpu0/cache/index%d", idx);
        if (fsroot_access(dir, F_OK) != 0)
            break;
        if (read_cache(idx, &c[n]) == 0)
            n++;
    }
    const char *source = "sysfs";
    if (n == 0 && !fsroot()[0]) {
        n = hwinfo_cpuid_caches(c, 16);
        source = "cpuid";
    }
    hwinfo_place_caches(mh, c, n);
    return n ? source : NULL;
}

/* A node's memory as hwloc counts it: its MemTotal (huge pages included). */
static unsigned long long node_memory(int node)
{
    char path[128], line[256];
    snprintf(path, sizeof path, "/sys/devices/system/node/node%d/meminfo", node);
    FILE *f = fsroot_fopen(path);
    if (!f)
        return 0;
    unsigned long long kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "Node %*d MemTotal: %llu kB", &kb) == 1)
            break;
    fclose(f);
    return kb * 1024ULL;
}

/* NUMA nodes in OS order; none listed (a kernel without NUMA) is one node of all memory. */
static int read_numa(const unsigned char *online, struct hwinfo_numa *numa)
{
    static unsigned char nodes[HWINFO_MAX_PUS], cpus[HWINFO_MAX_PUS];
    for (int i = 0; i < HWINFO_MAX_PUS; i++)
        numa->pu_node[i] = -1;
    numa->pus = 0;
    numa->nodes = 0;
    if (read_cpu_list("/sys/devices/system/node/online", nodes) < 1) {
        numa->nodes = 1;
        numa->mem_bytes[0] =
            (unsigned long long)sysconf(_SC_PHYS_PAGES) * (unsigned long long)sysconf(_SC_PAGESIZE);
        for (int c = 0; c < HWINFO_MAX_PUS; c++)
            if (online[c]) {
                numa->pu_node[c] = 0;
                numa->pus = c + 1;
            }
        return 1;
    }
    for (int n = 0; n < HWINFO_MAX_PUS && numa->nodes < HWINFO_MAX_NUMA; n++) {
        if (!nodes[n])
            continue;
        char path[96];
        snprintf(path, sizeof path, "/sys/devices/system/node/node%d/cpulist", n);
        int members = read_cpu_list(path, cpus);
        /* hwloc keeps a node without CPUs (memory only); so do we. */
        if (members > 0)
            for (int c = 0; c < HWINFO_MAX_PUS; c++)
                if (cpus[c] && online[c]) {
                    numa->pu_node[c] = (short)numa->nodes;
                    if (c + 1 > numa->pus)
                        numa->pus = c + 1;
                }
        numa->mem_bytes[numa->nodes++] = node_memory(n);
    }
    return numa->nodes;
}

void hwinfo_set_counts(PAPI_hw_info_t *hw, int pus, int cores, int sockets, int nodes)
{
    hw->totalcpus = pus;
    hw->sockets = sockets;
    hw->nnodes = nodes;
    hw->cores = cores / sockets; /* per socket, as PAPI gives them */
    hw->threads = pus / cores;
    hw->ncpu = pus / nodes;
}

int hwinfo_sysfs_topology_wanted(void)
{
    const char *choice = env_get("PAPI_TOPOLOGY");
    if (choice && strcmp(choice, "sysfs") == 0)
        return 1;
    if (choice && strcmp(choice, "hwloc") == 0)
        return 0;
    /* A topology hwloc is asked to replay, or a recorded machine: hwloc reads it. */
    if (fsroot()[0] || env_is_set("HWLOC_XMLFILE") || env_is_set("HWLOC_SYNTHETIC") ||
        env_is_set("HWLOC_FSROOT"))
        return 0;
    return 1;
}

int hwinfo_sysfs_topology_load(PAPI_hw_info_t *hw, struct hwinfo_numa *numa)
{
    static unsigned char online[HWINFO_MAX_PUS];
    int pus = read_cpu_list("/sys/devices/system/cpu/online", online);
    if (pus < 1)
        return -1;
    int cores = count_groups(online, "core_cpus_list", "thread_siblings_list");
    int sockets = count_groups(online, "package_cpus_list", "core_siblings_list");
    if (cores < 1 || sockets < 1 || cores > pus || sockets > cores)
        return -1;
    hwinfo_set_counts(hw, pus, cores, sockets, read_numa(online, numa));
    return 0;
}
