/* papi_hardware_avail: the devices of this node in PAPI 7's layout ("Device Summary",
 * then "Device Information" per device): the CPU as hwloc describes it (vendor, CPUID,
 * sockets, NUMA regions, cores, threads, caches, the memory and CPUs of each NUMA node),
 * and for GPUs whether a component of this library can see them.
 *
 * Everything about devices comes from the sysdetect API (PAPI_enum_dev_type,
 * PAPI_get_dev_type_attr, PAPI_get_dev_attr), as PAPI 7's tool does; the CPUID line and the
 * cache table come from PAPI_get_hardware_info, which sysdetect itself is built on. */
#include <stdlib.h>
#include <string.h>

#include "str_append.h"
#include "util_common.h"

static const char usage[] =
    "Usage: papi_hardware_avail [options]\n"
    "Print the devices of this node: the CPU (vendor, CPUID, sockets, NUMA regions, cores,\n"
    "threads, caches, memory per NUMA node) and whether GPUs can be measured.\n\n"
    "Options:\n"
    "  --json       print the same information as one JSON document\n"
    "  -h, --help   print this help\n"
    "  --version    print the papi-compat release and the PAPI API level\n";

#define LABEL "%-38s: "

/* One device type as PAPI_enum_dev_type reports it. */
struct dev_type {
    void *handle;
    int id, count;
    const char *name, *status;
};

static int dev_types(struct dev_type *out, int max)
{
    int n = 0;
    void *h;
    while (n < max && PAPI_enum_dev_type(PAPI_DEV_TYPE_ENUM__ALL, &h) == PAPI_OK) {
        struct dev_type *t = &out[n++];
        t->handle = h;
        t->name = t->status = "";
        t->id = t->count = 0;
        PAPI_get_dev_type_attr(h, PAPI_DEV_TYPE_ATTR__INT_PAPI_ID, &t->id);
        PAPI_get_dev_type_attr(h, PAPI_DEV_TYPE_ATTR__INT_COUNT, &t->count);
        PAPI_get_dev_type_attr(h, PAPI_DEV_TYPE_ATTR__CHAR_NAME, &t->name);
        PAPI_get_dev_type_attr(h, PAPI_DEV_TYPE_ATTR__CHAR_STATUS, &t->status);
    }
    return n;
}

/* A CPU attribute of device 0 (or of NUMA node / thread id), 0 when the API has none. */
static unsigned cpu_attr(void *cpu, int id, PAPI_dev_attr_e attr)
{
    unsigned v = 0;
    return cpu && PAPI_get_dev_attr(cpu, id, attr, &v) == PAPI_OK ? v : 0;
}

/* The hardware threads (OS indices) of NUMA node n, as "0 1 2 " like PAPI lists them. */
static void node_threads(void *cpu, unsigned node, char *out, size_t len)
{
    unsigned threads = cpu_attr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_THREAD_COUNT);
    out[0] = '\0';
    for (unsigned t = 0, seen = 0; seen < threads && t < 65536; t++) {
        unsigned v;
        if (PAPI_get_dev_attr(cpu, (int)t, PAPI_DEV_ATTR__CPU_UINT_THR_NUMA_AFFINITY, &v) != PAPI_OK)
            continue;
        seen++;
        if (v == node)
            str_appendf(out, len, "%u ", t);
    }
}

#define MAX_DEV_TYPES 8

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
    struct dev_type types[MAX_DEV_TYPES];
    int nt = dev_types(types, MAX_DEV_TYPES);
    void *cpu = NULL;
    printf("\nDevice Summary -----------------------------------------------------------------\n");
    printf("Vendor           DevCount \n");
    for (int i = 0; i < nt; i++) {
        if (types[i].id == PAPI_DEV_TYPE_ID__CPU)
            cpu = types[i].handle;
        printf("%-18s (%d)\n \\-> Status: %s\n\n", types[i].name, types[i].count,
               types[i].count > 0 ? "Device Initialized" : types[i].status);
    }
    printf("\nDevice Information -------------------------------------------------------------\n");
    const char *name = hw->model_string;
    PAPI_get_dev_attr(cpu, 0, PAPI_DEV_ATTR__CPU_CHAR_NAME, &name);
    unsigned sockets = cpu_attr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_SOCKET_COUNT);
    unsigned numa = cpu_attr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_NUMA_COUNT);
    unsigned cores = cpu_attr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_CORE_COUNT);
    unsigned threads = cpu_attr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_THREAD_COUNT);
    printf(LABEL "%s (%d,0x%x)\n", "Vendor", hw->vendor_string, hw->vendor, (unsigned)hw->vendor);
    printf(LABEL "%d\n", "Id", 0);
    printf(LABEL "%s\n", "Name", name);
    printf(LABEL "Family/Model/Stepping %u/%u/%u 0x%02x/0x%02x/0x%02x\n", "CPUID",
           cpu_attr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_FAMILY), cpu_attr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_MODEL),
           cpu_attr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_STEPPING), cpu_attr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_FAMILY),
           cpu_attr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_MODEL), cpu_attr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_STEPPING));
    printf(LABEL "%u\n", "Sockets", sockets);
    printf(LABEL "%u\n", "Numa regions", numa);
    printf(LABEL "%u\n", "Cores per socket", sockets ? cores / sockets : 0);
    printf(LABEL "%u\n", "Cores per NUMA region", numa ? cores / numa : 0);
    printf(LABEL "%u\n", "SMT threads per core", cores ? threads / cores : 0);
    struct cache_ref caches[PAPI_MAX_MEM_HIERARCHY_LEVELS * PAPI_MH_MAX_LEVELS];
    int nc = ordered_caches(hw, caches, (int)(sizeof caches / sizeof caches[0]));
    for (int i = 0; i < nc; i++) {
        const PAPI_mh_cache_info_t *c = caches[i].c;
        char label[32];
        snprintf(label, sizeof label, "L%d%s Cache", caches[i].level, cache_suffix(c->type));
        printf(LABEL "Size/LineSize/Lines/Assoc %dKB/%dB/%d/%d\n", label, c->size / 1024,
               c->line_size, c->num_lines, c->associativity);
    }
    char list[8192];
    for (unsigned n = 0; n < numa; n++) {
        char label[48];
        snprintf(label, sizeof label, "Numa Node %u Memory", n);
        printf(LABEL "%uMB\n", label, cpu_attr(cpu, (int)n, PAPI_DEV_ATTR__CPU_UINT_NUMA_MEM_SIZE));
        snprintf(label, sizeof label, "Numa Node %u Threads", n);
        node_threads(cpu, n, list, sizeof list);
        printf(LABEL "%s\n", label, list);
    }
    printf("\n--------------------------------------------------------------------------------\n");
}

static void print_json(const PAPI_hw_info_t *hw)
{
    struct jw w;
    struct dev_type types[MAX_DEV_TYPES];
    int nt = dev_types(types, MAX_DEV_TYPES);
    util_json_begin(&w);
    jw_arr_begin(&w, "devices");
    for (int i = 0; i < nt; i++) {
        void *cpu = types[i].handle;
        jw_obj_begin(&w, NULL);
        jw_str(&w, "type", types[i].id == PAPI_DEV_TYPE_ID__CPU ? "cpu" : "gpu");
        jw_str(&w, "vendor", types[i].name);
        jw_int(&w, "count", types[i].count);
        jw_str(&w, "status", types[i].status);
        if (types[i].id != PAPI_DEV_TYPE_ID__CPU) {
            jw_obj_end(&w);
            continue;
        }
        const char *name = hw->model_string;
        PAPI_get_dev_attr(cpu, 0, PAPI_DEV_ATTR__CPU_CHAR_NAME, &name);
        jw_int(&w, "vendor_code", hw->vendor);
        jw_str(&w, "name", name);
        jw_int(&w, "cpuid_family", cpu_attr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_FAMILY));
        jw_int(&w, "cpuid_model", cpu_attr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_MODEL));
        jw_int(&w, "cpuid_stepping", cpu_attr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_STEPPING));
        unsigned sockets = cpu_attr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_SOCKET_COUNT);
        unsigned cores = cpu_attr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_CORE_COUNT);
        unsigned numa = cpu_attr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_NUMA_COUNT);
        jw_int(&w, "sockets", sockets);
        jw_int(&w, "numa_regions", numa);
        jw_int(&w, "cores", cores);
        jw_int(&w, "threads", cpu_attr(cpu, 0, PAPI_DEV_ATTR__CPU_UINT_THREAD_COUNT));
        jw_arr_begin(&w, "caches");
        struct cache_ref caches[PAPI_MAX_MEM_HIERARCHY_LEVELS * PAPI_MH_MAX_LEVELS];
        int nc = ordered_caches(hw, caches, (int)(sizeof caches / sizeof caches[0]));
        for (int k = 0; k < nc; k++) {
            const PAPI_mh_cache_info_t *c = caches[k].c;
            char cname[16];
            snprintf(cname, sizeof cname, "L%d%s", caches[k].level, cache_suffix(c->type));
            jw_obj_begin(&w, NULL);
            jw_str(&w, "name", cname);
            jw_int(&w, "size_bytes", c->size);
            jw_int(&w, "line_size", c->line_size);
            jw_int(&w, "lines", c->num_lines);
            jw_int(&w, "associativity", c->associativity);
            jw_obj_end(&w);
        }
        jw_arr_end(&w);
        jw_arr_begin(&w, "numa_nodes");
        char list[8192];
        for (unsigned n = 0; n < numa; n++) {
            jw_obj_begin(&w, NULL);
            jw_int(&w, "id", n);
            jw_int(&w, "memory_mb", cpu_attr(cpu, (int)n, PAPI_DEV_ATTR__CPU_UINT_NUMA_MEM_SIZE));
            node_threads(cpu, n, list, sizeof list);
            jw_str(&w, "threads", list);
            jw_obj_end(&w);
        }
        jw_arr_end(&w);
        jw_obj_end(&w);
    }
    jw_arr_end(&w);
    jw_obj_end(&w);
    jw_finish(&w);
}

int main(int argc, char **argv)
{
    return util_hardware_main(argc, argv, "papi_hardware_avail", usage, print_text, print_json);
}
