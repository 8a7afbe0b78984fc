/* papif_sysdetect.c: the Fortran form of PAPI 7's device API. A device type is named
 * by its index (PAPI_DEV_TYPE_ID__*) instead of a handle; an attribute comes back in
 * `value` (INT, UINT, ULONG kinds) or in `string` (CHAR kinds), the other left alone. */
#include <stdio.h>

#include "papi.h"
#include "papif_helpers.h"
#include "sysdetect.h"

int papifh_enum_dev_type(int modifier, int *handle_index)
{
    void *handle;
    int ret = PAPI_enum_dev_type(modifier, &handle);
    if (ret == PAPI_OK)
        ret = PAPI_get_dev_type_attr(handle, PAPI_DEV_TYPE_ATTR__INT_PAPI_ID, handle_index);
    return ret;
}

int papifh_get_dev_type_attr(int handle_index, int attribute, int *value, char *string)
{
    void *handle = sysdetect_type_handle(handle_index);
    if (attribute == PAPI_DEV_TYPE_ATTR__CHAR_NAME || attribute == PAPI_DEV_TYPE_ATTR__CHAR_STATUS) {
        const char *s = NULL;
        int ret = PAPI_get_dev_type_attr(handle, attribute, &s);
        if (ret == PAPI_OK)
            snprintf(string, PAPI_HUGE_STR_LEN, "%s", s ? s : "");
        return ret;
    }
    return PAPI_get_dev_type_attr(handle, attribute, value);
}

static int is_char_attr(int a)
{
    return a == PAPI_DEV_ATTR__CPU_CHAR_NAME || a == PAPI_DEV_ATTR__CUDA_CHAR_DEVICE_NAME ||
           a == PAPI_DEV_ATTR__ROCM_CHAR_DEVICE_NAME;
}

int papifh_get_dev_attr(int handle_index, int id, int attribute, int *value, char *string)
{
    void *handle = sysdetect_type_handle(handle_index);
    if (is_char_attr(attribute)) {
        const char *s = NULL;
        int ret = PAPI_get_dev_attr(handle, id, attribute, &s);
        if (ret == PAPI_OK)
            snprintf(string, PAPI_HUGE_STR_LEN, "%s", s ? s : "");
        return ret;
    }
    /* UINT attributes fill the low half of v (little-endian, as x86-64 and arm64 Linux);
     * ULONG ones (GPU unique ids) are wider than a Fortran INTEGER: keep the low bits. */
    unsigned long v = 0;
    int ret = PAPI_get_dev_attr(handle, id, attribute, &v);
    if (ret == PAPI_OK)
        *value = (int)v;
    return ret;
}
