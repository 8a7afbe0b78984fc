/* event_native.c: native event codes and names, routed to the component whose index a code
 * carries (component.h) or, for a name, asked of each component in index order. A leaf
 * of events/: the public calls (event_codes.c) and the preset tables reach it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_native.h"
#include "papi_globals.h"
#include "registry.h"

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

struct papi_component *event_native_component(int code)
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
    struct papi_component *c = event_native_component(code);
    return c ? c->code_to_name(c, cmp_local(code), out, len) : PAPI_ENOEVNT;
}

int event_native_scale(int code, double *scale, char *unit, size_t len)
{
    struct papi_component *c = IS_NATIVE(code) ? event_native_component(code) : NULL;
    if (!c || !c->event_scale)
        return PAPI_ENOEVNT;
    return c->event_scale(c, cmp_local(code), scale, unit, len);
}
