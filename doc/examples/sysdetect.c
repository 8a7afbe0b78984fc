/* Example: the devices of the machine (PAPI 7's sysdetect).
 * Shows: PAPI_enum_dev_type PAPI_get_dev_type_attr PAPI_get_dev_attr */
#include <papi.h>
#include <stdio.h>

int main(void)
{
    void *handle;
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
        return 1;
    while (PAPI_enum_dev_type(PAPI_DEV_TYPE_ENUM__ALL, &handle) == PAPI_OK) {
        const char *name;
        int count;
        unsigned int l1d;
        PAPI_get_dev_type_attr(handle, PAPI_DEV_TYPE_ATTR__CHAR_NAME, &name);
        PAPI_get_dev_type_attr(handle, PAPI_DEV_TYPE_ATTR__INT_COUNT, &count);
        printf("%s: %d device(s)\n", name, count);
        if (count > 0 && PAPI_get_dev_attr(handle, 0, PAPI_DEV_ATTR__CPU_UINT_L1D_CACHE_SIZE,
                                           &l1d) == PAPI_OK)
            printf("  L1 data cache of device 0: %u bytes\n", l1d);
    }
    return 0;
}
