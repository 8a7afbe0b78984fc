/* event_codes.c: the public event-naming calls, dispatching to presets or natives. */
#include <string.h>

#include "papi_internal.h"

int PAPI_event_name_to_code(const char *in, int *out)
{
    PAPI_CHECK_INIT();
    if (!in || !out)
        return papi_error(PAPI_EINVAL, "NULL event name or code pointer");
    if (strnlen(in, PAPI_HUGE_STR_LEN) >= PAPI_HUGE_STR_LEN)
        return papi_error(PAPI_EINVAL, "event name longer than %d characters", PAPI_HUGE_STR_LEN - 1);
    if (strncmp(in, "PAPI_", 5) == 0) {
        if (preset_name_to_code(in, out) == PAPI_OK)
            return PAPI_OK;
        return papi_error(PAPI_ENOEVNT, "'%s' is not a PAPI preset name", in);
    }
    return native_name_to_code(in, out);
}

int PAPI_event_code_to_name(int EventCode, char *out)
{
    PAPI_CHECK_INIT();
    if (!out)
        return papi_error(PAPI_EINVAL, "output buffer is NULL");
    /* The documented buffer is PAPI_MAX_STR_LEN; native names longer than that are
     * reported as PAPI_EBUF instead of overflowing the caller's buffer. */
    if (IS_PRESET(EventCode))
        return preset_code_to_name(EventCode, out, PAPI_MAX_STR_LEN);
    if (IS_NATIVE(EventCode))
        return native_code_to_name(EventCode, out, PAPI_MAX_STR_LEN);
    return papi_error(PAPI_ENOEVNT, "0x%x is neither a preset nor a native event code",
                      (unsigned)EventCode);
}

int PAPI_query_event(int EventCode)
{
    PAPI_CHECK_INIT();
    if (IS_PRESET(EventCode)) {
        char name[PAPI_MAX_STR_LEN];
        if (preset_code_to_name(EventCode, name, sizeof name) != PAPI_OK)
            return PAPI_ENOTPRESET;
        if (!preset_lookup(EventCode))
            return papi_error(PAPI_ENOEVNT, "preset %s is not available on this machine", name);
        return PAPI_OK;
    }
    if (IS_NATIVE(EventCode)) {
        struct perf_event_attr attr;
        if (!native_lookup(EventCode))
            return papi_error(PAPI_ENOEVNT, "no native event has code 0x%x", (unsigned)EventCode);
        return native_encode(EventCode, g_papi.default_domain, &attr);
    }
    return papi_error(PAPI_ENOEVNT, "0x%x is not an event code", (unsigned)EventCode);
}

int PAPI_query_named_event(const char *EventName)
{
    int code;
    int ret = PAPI_event_name_to_code(EventName, &code);
    if (ret != PAPI_OK)
        return ret;
    return PAPI_query_event(code);
}

int PAPI_enum_cmp_event(int *EventCode, int modifier, int cidx)
{
    PAPI_CHECK_INIT();
    if (!EventCode)
        return papi_error(PAPI_EINVAL, "EventCode pointer is NULL");
    if (cidx < 0 || cidx >= NUM_COMPONENTS)
        return papi_error(PAPI_ENOCMP, "component index %d does not exist", cidx);
    if (IS_PRESET(*EventCode)) {
        if (cidx != CMP_PERF_EVENT)
            return PAPI_ENOEVNT;
        return preset_enum(EventCode, modifier);
    }
    if (modifier == PAPI_ENUM_FIRST || IS_NATIVE(*EventCode))
        return native_enum(EventCode, modifier, cidx);
    return papi_error(PAPI_ENOEVNT, "0x%x is not an event code", (unsigned)*EventCode);
}

int PAPI_enum_event(int *EventCode, int modifier)
{
    PAPI_CHECK_INIT();
    if (!EventCode)
        return papi_error(PAPI_EINVAL, "EventCode pointer is NULL");
    if (IS_PRESET(*EventCode))
        return preset_enum(EventCode, modifier);
    if (IS_NATIVE(*EventCode)) /* natives of every component, in component order */
        return native_enum(EventCode, modifier, -1);
    return papi_error(PAPI_ENOEVNT, "0x%x is not an event code", (unsigned)*EventCode);
}

int PAPI_get_event_info(int EventCode, PAPI_event_info_t *info)
{
    PAPI_CHECK_INIT();
    if (!info)
        return papi_error(PAPI_EINVAL, "info pointer is NULL");
    if (IS_PRESET(EventCode))
        return preset_get_info(EventCode, info);
    if (IS_NATIVE(EventCode))
        return native_get_info(EventCode, info);
    return papi_error(PAPI_ENOTPRESET, "0x%x is not an event code", (unsigned)EventCode);
}

int PAPI_get_event_component(int EventCode)
{
    PAPI_CHECK_INIT();
    if (IS_PRESET(EventCode))
        return CMP_PERF_EVENT;
    struct native_event *e = native_lookup(EventCode);
    if (!e)
        return papi_error(PAPI_ENOEVNT, "no native event has code 0x%x", (unsigned)EventCode);
    return e->component;
}
