/* event_codes.c: the public event-naming calls, dispatching to presets or to the
 * component whose index the native code carries (component.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"
#include "events.h"
#include "call_guard.h"
#include "papi_globals.h"
#include "preset_tables.h"

/* A component the user disabled (PAPI_disable_component, PAPI_DISABLE_COMPONENTS) names
 * no event. */
static int user_disabled(int cidx)
{
    return g_papi.cmp_user_disabled[cidx];
}

struct papi_component *event_component_of(int code)
{
    if (!IS_NATIVE(code))
        return NULL;
    int cidx = cmp_of_code(code);
    return cidx < papi_num_components ? papi_components[cidx] : NULL;
}

static struct papi_component *native_component(int code)
{
    struct papi_component *c = event_component_of(code);
    if (!c)
        papi_error(PAPI_ENOEVNT, "0x%x is not a native event code of any component",
                   (unsigned)code);
    return c;
}

/* PAPI 7's component of a qualified name: its separate uncore component is our perf_event. */
static const struct {
    const char *papi7, *ours;
} component_aliases[] = {{"perf_event_uncore", "perf_event"}};

static int component_named(const char *name, size_t n)
{
    for (size_t a = 0; a < sizeof component_aliases / sizeof component_aliases[0]; a++)
        if (strlen(component_aliases[a].papi7) == n &&
            strncmp(name, component_aliases[a].papi7, n) == 0) {
            name = component_aliases[a].ours;
            n = strlen(name);
        }
    for (int i = 0; i < papi_num_components; i++)
        if (strlen(papi_components[i]->name) == n &&
            strncmp(papi_components[i]->name, name, n) == 0)
            return i;
    return -1;
}

/* "component:::event" (PAPI 7's spelling, APEX writes its metrics so): only the component
 * named is asked, with the whole name (powercap's and procio's names carry the prefix),
 * then with the event alone (perf_event's names do not; its reason is the one kept). */
static int qualified_name_to_code(const char *name, const char *sep, int *code)
{
    int i = component_named(name, (size_t)(sep - name));
    if (i < 0)
        return papi_error(PAPI_ENOEVNT,
                          "'%s': no component is named '%.*s' (papi_component_avail lists them)",
                          name, (int)(sep - name), name);
    struct papi_component *c = papi_components[i];
    if (user_disabled(i))
        return papi_error(PAPI_ENOEVNT, "'%s': component %s is %s", name, c->name,
                          g_papi.cmp[i].disabled_reason);
    int local;
    papi_error(PAPI_OK, "%s", ""); /* a component that refuses quietly leaves it empty */
    int ret = c->name_to_code(c, name, &local);
    if (ret != PAPI_OK)
        ret = c->name_to_code(c, sep + 3, &local);
    if (ret == PAPI_OK) {
        *code = cmp_code(i, local);
        return PAPI_OK;
    }
    if (papi_last_error_detail()[0])
        return ret; /* the component said why */
    return papi_error(ret, "'%s': component %s has no event '%s' (papi_native_avail lists them)",
                      name, c->name, sep + 3);
}

/* An unprefixed name asked of a component whose names carry "component:::" (the node
 * components, powercap, procio): PAPI 7 strips the prefix before asking its components,
 * so "eth0:rx:bytes" finds net's event; asked here with the prefix put back. A name of
 * a PMU ("pmu::event") is not (PAPI asks only the components of that PMU). */
static int prefixed_name_to_code(struct papi_component *c, const char *name, int *local)
{
    char full[PAPI_HUGE_STR_LEN];
    if (snprintf(full, sizeof full, "%s:::%s", c->name, name) >= (int)sizeof full)
        return PAPI_ENOEVNT;
    return c->name_to_code(c, full, local);
}

int event_native_name_to_code(const char *name, int *code)
{
    const char *sep = strstr(name, ":::");
    if (sep && sep > name)
        return qualified_name_to_code(name, sep, code);
    int first = PAPI_ENOEVNT;
    char *why = NULL; /* the first component's reason, whole (it may pass 1 KiB) */
    bool pmu_named = strstr(name, "::") != NULL; /* "pmu::event": a PMU's, never a node's */
    for (int i = 0; i < papi_num_components; i++) {
        struct papi_component *c = papi_components[i];
        int local;
        if (user_disabled(i))
            continue;
        int ret = c->name_to_code(c, name, &local);
        if (ret != PAPI_OK && i > 0 && !pmu_named)
            ret = prefixed_name_to_code(c, name, &local);
        if (ret == PAPI_OK) {
            free(why);
            *code = cmp_code(i, local);
            return PAPI_OK;
        }
        if (i == 0) {
            first = ret;
            why = papi_last_error_detail()[0] ? strdup(papi_last_error_detail()) : NULL;
        }
    }
    /* The first component's answer says why (libpfm4's error for a misspelt name). */
    if (!why)
        return first;
    papi_error(first, "%s", why);
    free(why);
    return first;
}

int event_native_exists(int code)
{
    char name[PAPI_HUGE_STR_LEN];
    struct papi_component *c = event_component_of(code);
    return c && c->code_to_name(c, cmp_local(code), name, sizeof name) == PAPI_OK;
}

int event_native_code_to_name(int code, char *out, size_t len)
{
    struct papi_component *c = native_component(code);
    return c ? c->code_to_name(c, cmp_local(code), out, len) : PAPI_ENOEVNT;
}

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
        struct papi_component *c = native_component(EventCode);
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
        struct papi_component *c = native_component(EventCode);
        int ret = c ? c->event_info(c, cmp_local(EventCode), info) : PAPI_ENOEVNT;
        if (ret == PAPI_OK) {
            info->event_code = (unsigned)EventCode;
            info->component_index = cmp_of_code(EventCode);
        }
        return ret;
    }
    return papi_error(PAPI_ENOTPRESET, "0x%x is not an event code", (unsigned)EventCode);
}

int event_native_scale(int code, double *scale, char *unit, size_t len)
{
    struct papi_component *c = IS_NATIVE(code) ? native_component(code) : NULL;
    if (!c || !c->event_scale)
        return PAPI_ENOEVNT;
    return c->event_scale(c, cmp_local(code), scale, unit, len);
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
