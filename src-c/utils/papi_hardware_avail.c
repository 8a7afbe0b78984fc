/* papi_hardware_avail: the devices of this node in PAPI 7's layout ("Device Summary",
 * then "Device Information" per device): the CPU as hwloc describes it (vendor, CPUID,
 * sockets, NUMA regions, cores, threads, caches, the memory and CPUs of each NUMA node),
 * and for GPUs whether a component of this library can see them.
 *
 * Built on PAPI_get_hardware_info and the component list; the NUMA node lines come from
 * the kernel (/sys/devices/system/node) and are left out when HWLOC_XMLFILE describes a
 * recorded machine. */
#include <stdlib.h>
#include <string.h>

#include "util_common.h"

static const char usage[] =
    "Usage: papi_hardware_avail [options]\n"
    "Print the devices of this node: the CPU (vendor, CPUID, sockets, NUMA regions, cores,\n"
    "threads, caches, memory per NUMA node) and whether GPUs can be measured.\n\n"
    "Options:\n"
    "  --json       print the same information as one JSON document\n"
    "  -h, --help   print this help\n";

#define LABEL "%-38s: "

/* GPU vendors PAPI 7 lists, and the component that would measure each. */
static const struct accel {
    const char *vendor, *component, *api;
} accels[] = {{"NVIDIA", "cuda", "CUDA"}, {"AMD/ATI", "rocm", "ROCm"}};

static void accel_status(const struct accel *a, char *buf, size_t len)
{
    if (PAPI_get_component_index(a->component) >= 0)
        snprintf(buf, len, "%s component present, no %s device found", a->api, a->api);
    else
        snprintf(buf, len, "%s not configured: this library has no %s component", a->api,
                 a->component);
}

/* The kernel's NUMA nodes: memory and CPU list of node n; 0 when there is no node n. */
static int numa_node(int n, long long *mem_mb, char *cpus, size_t len)
{
    char path[96], line[256];
    snprintf(path, sizeof path, "/sys/devices/system/node/node%d/cpulist", n);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    cpus[0] = '\0';
    if (fgets(cpus, (int)len, f))
        cpus[strcspn(cpus, "\n")] = '\0';
    fclose(f);
    *mem_mb = -1;
    snprintf(path, sizeof path, "/sys/devices/system/node/node%d/meminfo", n);
    f = fopen(path, "r");
    if (f) {
        while (fgets(line, sizeof line, f)) {
            const char *p = strstr(line, "MemTotal:");
            if (p)
                *mem_mb = strtoll(p + 9, NULL, 10) / 1024;
        }
        fclose(f);
    }
    return 1;
}

/* "0-3,8" -> "0 1 2 3 8 " as PAPI lists a node's threads. */
static void expand_cpulist(const char *list, FILE *out)
{
    const char *p = list;
    while (*p) {
        char *end;
        long a = strtol(p, &end, 10), b = a;
        if (end == p)
            break;
        if (*end == '-')
            b = strtol(end + 1, &end, 10);
        for (long c = a; c <= b && c - a < 100000; c++)
            fprintf(out, "%ld ", c);
        p = *end == ',' ? end + 1 : end;
    }
}

static int replaying(void)
{
    const char *x = getenv("HWLOC_XMLFILE");
    return x && *x;
}

static const char *cache_suffix(int type)
{
    switch (PAPI_MH_CACHE_TYPE(type)) {
    case PAPI_MH_TYPE_INST: return "i";
    case PAPI_MH_TYPE_DATA: return "d";
    default: return "";
    }
}

/* The caches level by level, instruction before data before unified, as PAPI lists them. */
struct cache_ref {
    int level;
    const PAPI_mh_cache_info_t *c;
};

static int ordered_caches(const PAPI_hw_info_t *hw, struct cache_ref *out, int max)
{
    static const int order[] = {PAPI_MH_TYPE_INST, PAPI_MH_TYPE_DATA, PAPI_MH_TYPE_UNIFIED};
    const PAPI_mh_info_t *mh = &hw->mem_hierarchy;
    int n = 0;
    for (int l = 0; l < mh->levels && l < PAPI_MAX_MEM_HIERARCHY_LEVELS; l++)
        for (int o = 0; o < 3; o++)
            for (int k = 0; k < PAPI_MH_MAX_LEVELS && n < max; k++)
                if (PAPI_MH_CACHE_TYPE(mh->level[l].cache[k].type) == order[o])
                    out[n++] = (struct cache_ref){l + 1, &mh->level[l].cache[k]};
    return n;
}

static void print_text(const PAPI_hw_info_t *hw)
{
    char status[PAPI_MAX_STR_LEN];
    printf("\nDevice Summary -----------------------------------------------------------------\n");
    printf("Vendor           DevCount \n");
    printf("%-18s (%d)\n \\-> Status: Device Initialized\n\n", hw->vendor_string,
           hw->sockets > 0 ? 1 : 0);
    for (size_t i = 0; i < sizeof accels / sizeof accels[0]; i++) {
        accel_status(&accels[i], status, sizeof status);
        printf("%-18s (0)\n \\-> Status: %s\n\n", accels[i].vendor, status);
    }
    printf("\nDevice Information -------------------------------------------------------------\n");
    printf(LABEL "%s (%d,0x%x)\n", "Vendor", hw->vendor_string, hw->vendor, (unsigned)hw->vendor);
    printf(LABEL "%d\n", "Id", 0);
    printf(LABEL "%s\n", "Name", hw->model_string);
    printf(LABEL "Family/Model/Stepping %d/%d/%d 0x%02x/0x%02x/0x%02x\n", "CPUID",
           hw->cpuid_family, hw->cpuid_model, hw->cpuid_stepping, (unsigned)hw->cpuid_family,
           (unsigned)hw->cpuid_model, (unsigned)hw->cpuid_stepping);
    printf(LABEL "%d\n", "Sockets", hw->sockets);
    printf(LABEL "%d\n", "Numa regions", hw->nnodes);
    printf(LABEL "%d\n", "Cores per socket", hw->cores);
    printf(LABEL "%d\n", "Cores per NUMA region",
           hw->nnodes > 0 ? hw->cores * hw->sockets / hw->nnodes : 0);
    printf(LABEL "%d\n", "SMT threads per core", hw->threads);
    struct cache_ref caches[PAPI_MAX_MEM_HIERARCHY_LEVELS * PAPI_MH_MAX_LEVELS];
    int nc = ordered_caches(hw, caches, (int)(sizeof caches / sizeof caches[0]));
    for (int i = 0; i < nc; i++) {
        const PAPI_mh_cache_info_t *c = caches[i].c;
        char label[32];
        snprintf(label, sizeof label, "L%d%s Cache", caches[i].level, cache_suffix(c->type));
        printf(LABEL "Size/LineSize/Lines/Assoc %dKB/%dB/%d/%d\n", label, c->size / 1024,
               c->line_size, c->num_lines, c->associativity);
    }
    char cpus[4096];
    long long mem;
    for (int n = 0; !replaying() && numa_node(n, &mem, cpus, sizeof cpus); n++) {
        char label[48];
        snprintf(label, sizeof label, "Numa Node %d Memory", n);
        printf(LABEL "%lldMB\n", label, mem);
        snprintf(label, sizeof label, "Numa Node %d Threads", n);
        printf(LABEL, label);
        expand_cpulist(cpus, stdout);
        printf("\n");
    }
    printf("\n--------------------------------------------------------------------------------\n");
}

static void print_json(const PAPI_hw_info_t *hw)
{
    struct jw w;
    char status[PAPI_MAX_STR_LEN];
    util_json_begin(&w);
    jw_arr_begin(&w, "devices");
    jw_obj_begin(&w, NULL);
    jw_str(&w, "type", "cpu");
    jw_str(&w, "vendor", hw->vendor_string);
    jw_int(&w, "vendor_code", hw->vendor);
    jw_str(&w, "name", hw->model_string);
    jw_int(&w, "cpuid_family", hw->cpuid_family);
    jw_int(&w, "cpuid_model", hw->cpuid_model);
    jw_int(&w, "cpuid_stepping", hw->cpuid_stepping);
    jw_int(&w, "sockets", hw->sockets);
    jw_int(&w, "numa_regions", hw->nnodes);
    jw_int(&w, "cores_per_socket", hw->cores);
    jw_int(&w, "smt_threads_per_core", hw->threads);
    jw_arr_begin(&w, "caches");
    struct cache_ref caches[PAPI_MAX_MEM_HIERARCHY_LEVELS * PAPI_MH_MAX_LEVELS];
    int nc = ordered_caches(hw, caches, (int)(sizeof caches / sizeof caches[0]));
    for (int i = 0; i < nc; i++) {
        const PAPI_mh_cache_info_t *c = caches[i].c;
        char name[16];
        snprintf(name, sizeof name, "L%d%s", caches[i].level, cache_suffix(c->type));
        jw_obj_begin(&w, NULL);
        jw_str(&w, "name", name);
        jw_int(&w, "size_bytes", c->size);
        jw_int(&w, "line_size", c->line_size);
        jw_int(&w, "lines", c->num_lines);
        jw_int(&w, "associativity", c->associativity);
        jw_obj_end(&w);
    }
    jw_arr_end(&w);
    jw_arr_begin(&w, "numa_nodes");
    char cpus[4096];
    long long mem;
    for (int n = 0; !replaying() && numa_node(n, &mem, cpus, sizeof cpus); n++) {
        jw_obj_begin(&w, NULL);
        jw_int(&w, "id", n);
        jw_int(&w, "memory_mb", mem);
        jw_str(&w, "cpus", cpus);
        jw_obj_end(&w);
    }
    jw_arr_end(&w);
    jw_obj_end(&w);
    for (size_t i = 0; i < sizeof accels / sizeof accels[0]; i++) {
        accel_status(&accels[i], status, sizeof status);
        jw_obj_begin(&w, NULL);
        jw_str(&w, "type", "gpu");
        jw_str(&w, "vendor", accels[i].vendor);
        jw_int(&w, "count", 0);
        jw_str(&w, "status", status);
        jw_obj_end(&w);
    }
    jw_arr_end(&w);
    jw_obj_end(&w);
    jw_finish(&w);
}

int main(int argc, char **argv)
{
    int json;
    int status = util_start_json_only(argc, argv, "papi_hardware_avail", usage, &json);
    if (status >= 0)
        return status;
    const PAPI_hw_info_t *hw = util_require_hardware_info("papi_hardware_avail");
    if (!hw)
        return 1;
    if (json)
        print_json(hw);
    else
        print_text(hw);
    return 0;
}
