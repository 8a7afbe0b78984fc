/* event_codes.c: the public event-naming calls, dispatching to presets or to the
 * component whose index the native code carries (component.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "call_guard.h"
#include "event_native.h"
#include "papi_globals.h"
#include "preset_events.h"
#include "preset_tables.h"
#include "registry.h"

int PAPI_event_name_to_code(const char *in, int *out)
{
    PAPI_CALL_GUARD();
    PAPI_CHECK_INIT();
    if (!in || !out)
        return papi_error(PAPI_EINVAL, "NULL event name or code pointer");
    if (strnlen(in, PAPI_HUGE_STR_LEN) >= PAPI_HUGE_STR_LEN)
        return papi_error(PAPI_EINVAL, "event name longer than %d characters",
                          PAPI_HUGE_STR_LEN - 1);
    if (strncmp(in, "PAPI_", 5) == 0) {
        if (preset_name_to_code(in, out) == PAPI_OK)
            return PAPI_OK;
        return papi_error(PAPI_ENOEVNT, "'%s' is not a PAPI preset name", in);
    }
    return event_native_name_to_code(in, out);
}

int PAPI_event_code_to_name(int EventCode, char *out)
{
    PAPI_CALL_GUARD();
    PAPI_CHECK_INIT();
    if (!out)
        return papi_error(PAPI_EINVAL, "output buffer is NULL");
    /* The documented buffer is PAPI_MAX_STR_LEN; native names longer than that are
     * reported as PAPI_EBUF instead of overflowing the caller's buffer. */
    if (IS_PRESET(EventCode))
        return preset_code_to_name(EventCode, out, PAPI_MAX_STR_LEN);
    if (IS_NATIVE(EventCode))
        return event_native_code_to_name(EventCode, out, PAPI_MAX_STR_LEN);
    return papi_error(PAPI_ENOEVNT, "0x%x is neither a preset nor a native event code",
                      (unsigned)EventCode);
}

int PAPI_query_event(int EventCode)
{
    PAPI_CALL_GUARD();
    PAPI_CHECK_INIT();
    if (IS_PRESET(EventCode)) {
        char name[PAPI_MAX_STR_LEN];
        if (preset_code_to_name(EventCode, name, sizeof name) != PAPI_OK)
            return PAPI_ENOTPRESET;
        if (!preset_lookup(EventCode))
            return preset_unavailable_error(EventCode, name);
        return PAPI_OK;
    }
    if (IS_NATIVE(EventCode)) {
        struct papi_component *c = event_native_component(EventCode);
        return c ? c->query(c, cmp_local(EventCode), g_papi.default_domain) : PAPI_ENOEVNT;
    }
    return papi_error(PAPI_ENOEVNT, "0x%x is not an event code", (unsigned)EventCode);
}

int PAPI_query_named_event(const char *EventName)
{
    PAPI_CALL_GUARD();
    int code;
    int ret = PAPI_event_name_to_code(EventName, &code);
    if (ret != PAPI_OK)
        return ret;
    return PAPI_query_event(code);
}

int PAPI_enum_cmp_event(int *EventCode, int modifier, int cidx)
{
    PAPI_CALL_GUARD();
    PAPI_CHECK_INIT();
    if (!EventCode)
        return papi_error(PAPI_EINVAL, "EventCode pointer is NULL");
    if (cidx < 0 || cidx >= papi_num_components)
        return papi_error(PAPI_ENOCMP, "component index %d does not exist (0..%d)", cidx,
                          papi_num_components - 1);
    struct papi_component *c = papi_components[cidx];
    if (IS_PRESET(*EventCode)) {
        if (cidx != PRESET_COMPONENT)
            return PAPI_ENOEVNT;
        return preset_enum(EventCode, modifier);
    }
    if (modifier != PAPI_ENUM_FIRST && (!IS_NATIVE(*EventCode) || cmp_of_code(*EventCode) != cidx))
        return papi_error(PAPI_ENOEVNT, "0x%x is not an event code of component %d",
                          (unsigned)*EventCode, cidx);
    int local = cmp_local(*EventCode);
    int ret = c->enumerate(c, &local, modifier);
    if (ret == PAPI_OK)
        *EventCode = cmp_code(cidx, local);
    return ret;
}

int PAPI_enum_event(int *EventCode, int modifier)
{
    PAPI_CALL_GUARD();
    PAPI_CHECK_INIT();
    if (!EventCode)
        return papi_error(PAPI_EINVAL, "EventCode pointer is NULL");
    if (IS_PRESET(*EventCode))
        return preset_enum(EventCode, modifier);
    if (IS_NATIVE(*EventCode)) { /* natives of every component, in component order */
        int cidx = cmp_of_code(*EventCode);
        if (cidx >= papi_num_components)
            return papi_error(PAPI_ENOEVNT, "0x%x is not a native event code",
                              (unsigned)*EventCode);
        int ret = PAPI_enum_cmp_event(EventCode, modifier, cidx);
        while (ret == PAPI_ENOEVNT &&
               (modifier == PAPI_ENUM_EVENTS || modifier == PAPI_ENUM_FIRST) &&
               ++cidx < papi_num_components)
            ret = PAPI_enum_cmp_event(EventCode, PAPI_ENUM_FIRST, cidx);
        return ret;
    }
    return papi_error(PAPI_ENOEVNT, "0x%x is not an event code", (unsigned)*EventCode);
}

int PAPI_get_event_info(int EventCode, PAPI_event_info_t *info)
{
    PAPI_CALL_GUARD();
    PAPI_CHECK_INIT();
    if (!info)
        return papi_error(PAPI_EINVAL, "info pointer is NULL");
    if (IS_PRESET(EventCode))
        return preset_get_info(EventCode, info);
    if (IS_NATIVE(EventCode)) {
        struct papi_component *c = event_native_component(EventCode);
        int ret = c ? c->event_info(c, cmp_local(EventCode), info) : PAPI_ENOEVNT;
        if (ret == PAPI_OK) {
            info->event_code = (unsigned)EventCode;
            info->component_index = cmp_of_code(EventCode);
        }
        return ret;
    }
    return papi_error(PAPI_ENOTPRESET, "0x%x is not an event code", (unsigned)EventCode);
}

int PAPI_get_event_component(int EventCode)
{
    PAPI_CALL_GUARD();
    PAPI_CHECK_INIT();
    if (IS_PRESET(EventCode))
        return PRESET_COMPONENT;
    char name[PAPI_HUGE_STR_LEN];
    int ret = event_native_code_to_name(EventCode, name, sizeof name);
    return ret == PAPI_OK ? cmp_of_code(EventCode) : ret;
}
