/* sysdetect_dump: every device type and CPU attribute of the sysdetect API
 * (PAPI_enum_dev_type, PAPI_get_dev_type_attr, PAPI_get_dev_attr) as "name=value"
 * lines. Built twice, against our papi.h and libpapi and against the system's PAPI 7,
 * so compare_sysdetect.sh can put the two descriptions side by side. */
#include <papi.h>
#include <stdio.h>

#define ATTR(a) {a, #a}
static const struct { int attr; const char *name; } cpu_attrs[] = {
    ATTR(PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_SIZE), ATTR(PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_SIZE),
    ATTR(PAPI_DEV_ATTR__CPU_UINT_L2U_CACHE_SIZE), ATTR(PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_SIZE),
    ATTR(PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_LINE_SIZE),
    ATTR(PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_LINE_SIZE),
    ATTR(PAPI_DEV_ATTR__CPU_UINT_L2U_CACHE_LINE_SIZE),
    ATTR(PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_LINE_SIZE),
    ATTR(PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_LINE_COUNT),
    ATTR(PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_LINE_COUNT),
    ATTR(PAPI_DEV_ATTR__CPU_UINT_L2U_CACHE_LINE_COUNT),
    ATTR(PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_LINE_COUNT),
    ATTR(PAPI_DEV_ATTR__CPU_UINT_L1I_CACHE_ASSOC), ATTR(PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_ASSOC),
    ATTR(PAPI_DEV_ATTR__CPU_UINT_L2U_CACHE_ASSOC), ATTR(PAPI_DEV_ATTR__CPU_UINT_L3U_CACHE_ASSOC),
    ATTR(PAPI_DEV_ATTR__CPU_UINT_SOCKET_COUNT), ATTR(PAPI_DEV_ATTR__CPU_UINT_NUMA_COUNT),
    ATTR(PAPI_DEV_ATTR__CPU_UINT_CORE_COUNT), ATTR(PAPI_DEV_ATTR__CPU_UINT_THREAD_COUNT),
    ATTR(PAPI_DEV_ATTR__CPU_UINT_FAMILY), ATTR(PAPI_DEV_ATTR__CPU_UINT_MODEL),
    ATTR(PAPI_DEV_ATTR__CPU_UINT_STEPPING),
};
/* Attributes of one NUMA node or hardware thread: asked for id 0. */
static const struct { int attr; const char *name; } cpu_id_attrs[] = {
    ATTR(PAPI_DEV_ATTR__CPU_UINT_NUMA_MEM_SIZE), ATTR(PAPI_DEV_ATTR__CPU_UINT_THR_NUMA_AFFINITY),
    ATTR(PAPI_DEV_ATTR__CPU_UINT_THR_PER_NUMA),
};

int main(void)
{
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
        printf("library_init failed\n");
        return 1;
    }
    void *handle;
    int types = 0;
    while (PAPI_enum_dev_type(PAPI_DEV_TYPE_ENUM__ALL, &handle) == PAPI_OK && types++ < 16) {
        int id = -1, vendor = -1, count = -1;
        const char *name = NULL, *status = NULL;
        PAPI_get_dev_type_attr(handle, PAPI_DEV_TYPE_ATTR__INT_PAPI_ID, &id);
        PAPI_get_dev_type_attr(handle, PAPI_DEV_TYPE_ATTR__INT_VENDOR_ID, &vendor);
        PAPI_get_dev_type_attr(handle, PAPI_DEV_TYPE_ATTR__CHAR_NAME, &name);
        PAPI_get_dev_type_attr(handle, PAPI_DEV_TYPE_ATTR__INT_COUNT, &count);
        PAPI_get_dev_type_attr(handle, PAPI_DEV_TYPE_ATTR__CHAR_STATUS, &status);
        printf("type%d.vendor_id=%d\ntype%d.name=%s\ntype%d.count=%d\ntype%d.status=%s\n", id,
               vendor, id, name ? name : "(null)", id, count, id, status ? status : "(null)");
        if (id != PAPI_DEV_TYPE_ID__CPU)
            continue;
        for (int dev = 0; dev < count; dev++) {
            const char *model = NULL;
            PAPI_get_dev_attr(handle, dev, PAPI_DEV_ATTR__CPU_CHAR_NAME, &model);
            printf("cpu%d.PAPI_DEV_ATTR__CPU_CHAR_NAME=%s\n", dev, model ? model : "(null)");
            for (size_t i = 0; i < sizeof cpu_attrs / sizeof cpu_attrs[0]; i++) {
                unsigned int v = 12345;
                int r = PAPI_get_dev_attr(handle, dev, cpu_attrs[i].attr, &v);
                printf("cpu%d.%s=%u (%d)\n", dev, cpu_attrs[i].name, v, r);
            }
        }
        for (size_t i = 0; i < sizeof cpu_id_attrs / sizeof cpu_id_attrs[0]; i++) {
            unsigned int v = 12345;
            int r = PAPI_get_dev_attr(handle, 0, cpu_id_attrs[i].attr, &v);
            printf("id0.%s=%u (%d)\n", cpu_id_attrs[i].name, v, r);
        }
    }
    printf("types=%d\n", types);
    return 0;
}
