/* Example: the devices of the machine (PAPI 7's sysdetect): each type, how many, and
 * attributes of the first CPU.
 * Shows: PAPI_enum_dev_type PAPI_get_dev_type_attr PAPI_get_dev_attr */
#include <papi.h>
#include <stdio.h>

int main(void)
{
    void *handle;
    int types = 0;
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
        return 1;
    while (PAPI_enum_dev_type(PAPI_DEV_TYPE_ENUM__ALL, &handle) == PAPI_OK) {
        const char *name;
        int count, id;
        if (PAPI_get_dev_type_attr(handle, PAPI_DEV_TYPE_ATTR__CHAR_NAME, &name) != PAPI_OK ||
            PAPI_get_dev_type_attr(handle, PAPI_DEV_TYPE_ATTR__INT_COUNT, &count) != PAPI_OK ||
            PAPI_get_dev_type_attr(handle, PAPI_DEV_TYPE_ATTR__INT_PAPI_ID, &id) != PAPI_OK)
            return 1;
        printf("device type %d (%s): %d device(s)\n", id, name, count);
        types++;
        if (id != PAPI_DEV_TYPE_ID__CPU || count < 1)
            continue;
        const char *cpu;
        unsigned int threads;
        if (PAPI_get_dev_attr(handle, 0, PAPI_DEV_ATTR__CPU_CHAR_NAME, &cpu) != PAPI_OK ||
            PAPI_get_dev_attr(handle, 0, PAPI_DEV_ATTR__CPU_UINT_THREAD_COUNT, &threads) != PAPI_OK)
            return 1;
        printf("  CPU 0: %s, %u hardware threads\n", cpu, threads);
    }
    printf("%d device type(s)\n", types);
    return types > 0 ? 0 : 1;
}
