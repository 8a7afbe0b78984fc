/* sysdetect.c: PAPI 7's device API (PAPI_enum_dev_type, PAPI_get_dev_type_attr,
 * PAPI_get_dev_attr). The CPU is described from what hwinfo read from hwloc (counts,
 * caches, vendor and model, NUMA nodes); GPU types are listed with no devices, as no
 * component of this library sees GPUs, and their status says so. */
#include <string.h>

#include "hwinfo.h"
#include "sysdetect.h"

struct dev_type {
    int id;             /* PAPI_DEV_TYPE_ID__* */
    const char *name;   /* vendor name when no device says otherwise */
    const char *status; /* NULL: described */
};

static const struct dev_type dev_types[PAPI_DEV_TYPE_ID__MAX_NUM] = {
    {PAPI_DEV_TYPE_ID__CPU, NULL, NULL},
    {PAPI_DEV_TYPE_ID__CUDA, "NVIDIA",
     "no CUDA component in this library: NVIDIA GPUs are not described"},
    {PAPI_DEV_TYPE_ID__ROCM, "AMD/ATI",
     "no ROCm component in this library: AMD GPUs are not described"},
};

/* Next type to look at, per thread, so two threads enumerating do not disturb each other. */
static _Thread_local int enum_cursor;

int PAPI_enum_dev_type(int enum_modifier, void **handle)
{
    PAPI_CHECK_INIT();
    if (!handle)
        return papi_error(PAPI_EINVAL, "handle is NULL");
    if (enum_modifier & ~PAPI_DEV_TYPE_ENUM__ALL)
        return papi_error(PAPI_EINVAL, "enum_modifier 0x%x names no device type", enum_modifier);
    if (enum_modifier == PAPI_DEV_TYPE_ENUM__FIRST) {
        *handle = (void *)&dev_types[0];
        return PAPI_OK;
    }
    while (enum_cursor < PAPI_DEV_TYPE_ID__MAX_NUM && !(enum_modifier & (1 << enum_cursor)))
        enum_cursor++;
    if (enum_cursor == PAPI_DEV_TYPE_ID__MAX_NUM) {
        enum_cursor = 0; /* as PAPI: the next call starts again */
        return papi_error(PAPI_EINVAL, "no more device types (the enumeration starts again)");
    }
    *handle = (void *)&dev_types[enum_cursor++];
    return PAPI_OK;
}

void *sysdetect_type_handle(int id)
{
    return id >= 0 && id < PAPI_DEV_TYPE_ID__MAX_NUM ? (void *)&dev_types[id] : NULL;
}

static const struct dev_type *type_of(const void *handle)
{
    for (int i = 0; i < PAPI_DEV_TYPE_ID__MAX_NUM; i++)
        if (handle == &dev_types[i])
            return &dev_types[i];
    return NULL;
}

int PAPI_get_dev_type_attr(void *handle, PAPI_dev_type_attr_e attr, void *value)
{
    PAPI_CHECK_INIT();
    const struct dev_type *t = type_of(handle);
    if (!t || !value)
        return papi_error(PAPI_EINVAL, "%s",
                          !t ? "handle is not from PAPI_enum_dev_type" : "value is NULL");
    const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
    int cpu = t->id == PAPI_DEV_TYPE_ID__CPU;
    switch (attr) {
    case PAPI_DEV_TYPE_ATTR__INT_PAPI_ID:
        *(int *)value = t->id;
        return PAPI_OK;
    case PAPI_DEV_TYPE_ATTR__INT_VENDOR_ID:
        *(int *)value = cpu ? hw->vendor : 0;
        return PAPI_OK;
    case PAPI_DEV_TYPE_ATTR__CHAR_NAME:
        *(const char **)value = cpu ? hw->vendor_string : t->name;
        return PAPI_OK;
    case PAPI_DEV_TYPE_ATTR__INT_COUNT:
        *(int *)value = cpu ? 1 : 0;
        return PAPI_OK;
    case PAPI_DEV_TYPE_ATTR__CHAR_STATUS:
        *(const char **)value = cpu ? "CPU described from hwloc" : t->status;
        return PAPI_OK;
    }
    return papi_error(PAPI_ENOSUPP, "device type attribute %d does not exist", (int)attr);
}

/* The cache of one level and kind from the memory hierarchy (unified, else data). */
static const PAPI_mh_cache_info_t *cache_of(const PAPI_hw_info_t *hw, int level, int type)
{
    const PAPI_mh_cache_info_t *fallback = NULL;
    for (int j = 0; j < PAPI_MH_MAX_LEVELS; j++) {
        const PAPI_mh_cache_info_t *c = &hw->mem_hierarchy.level[level].cache[j];
        int t = PAPI_MH_CACHE_TYPE(c->type);
        if (t == type)
            return c;
        if (type == PAPI_MH_TYPE_UNIFIED && t == PAPI_MH_TYPE_DATA)
            fallback = c;
    }
    return fallback;
}

/* CPU cache attributes: 4 caches (L1I, L1D, L2U, L3U) x 4 properties, in enum order. */
static int cpu_cache_attr(const PAPI_hw_info_t *hw, int attr, unsigned int *out)
{
    static const int level[4] = {0, 0, 1, 2};
    static const int type[4] = {PAPI_MH_TYPE_INST, PAPI_MH_TYPE_DATA, PAPI_MH_TYPE_UNIFIED,
                                PAPI_MH_TYPE_UNIFIED};
    static const char *const name[4] = {"L1 instruction", "L1 data", "L2", "L3"};
    int k = attr - PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_SIZE;
    int which = k % 4, prop = k / 4;
    const PAPI_mh_cache_info_t *c = cache_of(hw, level[which], type[which]);
    if (!c)
        return papi_error(PAPI_ENOSUPP, "the topology shows no %s cache", name[which]);
    const int v[4] = {c->size, c->line_size, c->num_lines, c->associativity};
    *out = (unsigned int)v[prop];
    return PAPI_OK;
}

static int count_threads_of_node(const struct hwinfo_numa *numa, int node)
{
    int n = 0;
    for (int i = 0; i < numa->pus; i++)
        n += numa->pu_node[i] == node;
    return n;
}

/* Attributes of a NUMA node or a hardware thread: id is that node or thread. */
static int cpu_indexed_attr(int id, int attr, unsigned int *out)
{
    const struct hwinfo_numa *numa = hwinfo_numa_info();
    if (attr == PAPI_DEV_ATTR__CPU_UINT_THR_NUMA_AFFINITY) {
        if (id < 0 || id >= numa->pus || numa->pu_node[id] < 0)
            return papi_error(PAPI_EINVAL, "no hardware thread with OS index %d", id);
        *out = (unsigned int)numa->pu_node[id];
        return PAPI_OK;
    }
    if (id < 0 || id >= numa->nodes)
        return papi_error(PAPI_EINVAL, "no NUMA node %d (the machine has %d)", id, numa->nodes);
    *out = attr == PAPI_DEV_ATTR__CPU_UINT_NUMA_MEM_SIZE
               ? (unsigned int)(numa->mem_bytes[id] >> 20)
               : (unsigned int)count_threads_of_node(numa, id);
    return PAPI_OK;
}

static int cpu_attr(int id, PAPI_dev_attr_e attr, void *value)
{
    const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
    unsigned int *u = value;
    if (attr == PAPI_DEV_ATTR__CPU_UINT_NUMA_MEM_SIZE ||
        attr == PAPI_DEV_ATTR__CPU_UINT_THR_PER_NUMA ||
        attr == PAPI_DEV_ATTR__CPU_UINT_THR_NUMA_AFFINITY)
        return cpu_indexed_attr(id, attr, u);
    if (id != 0)
        return papi_error(PAPI_EINVAL, "CPU device %d does not exist (the CPU is device 0)", id);
    if (attr >= PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_SIZE &&
        attr <= PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_ASSOC)
        return cpu_cache_attr(hw, attr, u);
    switch (attr) {
    case PAPI_DEV_ATTR__CPU_CHAR_NAME:
        *(const char **)value = hwinfo_cpu_name();
        return PAPI_OK;
    case PAPI_DEV_ATTR__CPU_UINT_SOCKET_COUNT:
        *u = (unsigned)hw->sockets;
        return PAPI_OK;
    case PAPI_DEV_ATTR__CPU_UINT_NUMA_COUNT:
        *u = (unsigned)hw->nnodes;
        return PAPI_OK;
    case PAPI_DEV_ATTR__CPU_UINT_CORE_COUNT:
        *u = (unsigned)(hw->cores * hw->sockets);
        return PAPI_OK;
    case PAPI_DEV_ATTR__CPU_UINT_THREAD_COUNT:
        *u = (unsigned)hw->totalcpus;
        return PAPI_OK;
    case PAPI_DEV_ATTR__CPU_UINT_FAMILY:
        *u = (unsigned)hw->cpuid_family;
        return PAPI_OK;
    case PAPI_DEV_ATTR__CPU_UINT_MODEL:
        *u = (unsigned)hw->cpuid_model;
        return PAPI_OK;
    case PAPI_DEV_ATTR__CPU_UINT_STEPPING:
        *u = (unsigned)hw->cpuid_stepping;
        return PAPI_OK;
    default:
        return papi_error(PAPI_ENOSUPP, "attribute %d is not a CPU attribute", (int)attr);
    }
}

int PAPI_get_dev_attr(void *handle, int id, PAPI_dev_attr_e attr, void *value)
{
    PAPI_CHECK_INIT();
    const struct dev_type *t = type_of(handle);
    if (!t || !value)
        return papi_error(PAPI_EINVAL, "%s",
                          !t ? "handle is not from PAPI_enum_dev_type" : "value is NULL");
    if (t->id == PAPI_DEV_TYPE_ID__CPU)
        return cpu_attr(id, attr, value);
    return papi_error(PAPI_EINVAL, "%s device %d does not exist: %s", t->name, id, t->status);
}
