/* component_registry.c: the component instances in index order and the public
 * component calls (PAPI_get_component_info, PAPI_num_components, PAPI_disable_component
 * ...). Moved here from library_init.c (components_init, fill_counts and the component
 * calls) over the instances of components/registry.c; what each component says about
 * itself comes from its probe and fill_info, the preset component's preset count from
 * the preset tables. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "component_registry.h"
#include "env.h"
#include "events.h"
#include "registry.h"

static int disabled_by_user[CMP_MAX]; /* survives shutdown, applied at init */
/* Each component's reason whole (PAPI_get_component_reason); the public disabled_reason
 * holds what fits, marked when cut. Replaced at each PAPI_library_init. */
static char *whole_reason[CMP_MAX];
static const char user_disabled[] = "disabled by PAPI_disable_component before PAPI_library_init";
/* PAPI_DISABLE_COMPONENTS (PAPI 7.3): names separated by ',' or ':', read at each
 * PAPI_library_init; a name no component has is ignored, as PAPI does. */
#define DISABLE_ENV "PAPI_DISABLE_COMPONENTS"
static int disabled_by_env[CMP_MAX];
static const char env_disabled[] = "disabled by PAPI_DISABLE_COMPONENTS";

static void read_disable_env(void)
{
    memset(disabled_by_env, 0, sizeof disabled_by_env);
    const char *list = env_get(DISABLE_ENV);
    while (list && *list) {
        size_t n = strcspn(list, ",:");
        for (int i = 0; i < papi_num_components; i++)
            if (n && strlen(papi_components[i]->name) == n &&
                strncmp(papi_components[i]->name, list, n) == 0)
                disabled_by_env[i] = 1;
        list += n + (list[n] != '\0');
    }
}

/* Why the user disabled component cidx, or NULL. */
static const char *user_reason(int cidx)
{
    return disabled_by_user[cidx] ? user_disabled : disabled_by_env[cidx] ? env_disabled : NULL;
}

/* A reason into disabled_reason: whole when it fits, else cut with a marker saying where
 * the whole one is. */
static void set_public_reason(PAPI_component_info_t *c, const char *why)
{
    static const char mark[] = " [cut: PAPI_get_component_reason() has it whole]";
    if (papi_strcpy(c->disabled_reason, sizeof c->disabled_reason, why))
        memcpy(c->disabled_reason + sizeof c->disabled_reason - sizeof mark, mark, sizeof mark);
}

struct papi_component *component_get(int cidx)
{
    if (cidx < 0 || cidx >= papi_num_components) {
        papi_error(PAPI_ENOCMP, "component index %d does not exist (0..%d)", cidx,
                   papi_num_components - 1);
        return NULL;
    }
    return papi_components[cidx];
}

static void apply_user_disable_to(int cidx, PAPI_component_info_t *c)
{
    const char *why = user_reason(cidx);
    if (!why)
        return;
    c->disabled = PAPI_ECMP_DISABLED;
    papi_strcpy(c->disabled_reason, sizeof c->disabled_reason, why);
}

static void apply_user_disable(int cidx)
{
    apply_user_disable_to(cidx, &g_papi.cmp[cidx]);
}

/* The library's lifecycle (papi_sdk.h): the whole reasons go at shutdown (a dlclose'd
 * library must leave no heap behind); a forked child keeps its parent's copy. */
static void registry_lifecycle(const struct papi_life *ev)
{
    if (ev->event != PAPI_LIFE_SHUTDOWN || ev->keep_machine)
        return;
    for (int i = 0; i < CMP_MAX; i++) {
        free(whole_reason[i]);
        whole_reason[i] = NULL;
    }
}

void components_init(void)
{
    papi_lifecycle_register(PAPI_LIFE_STAGE_BACKENDS, registry_lifecycle);
    read_disable_env();
    for (int i = 0; i < papi_num_components; i++) {
        struct papi_component *cmp = papi_components[i];
        PAPI_component_info_t *c = &g_papi.cmp[i];
        static struct cmp_status st; /* large: not on the caller's stack */
        memset(&st, 0, sizeof st);
        cmp->cidx = i;
        memset(c, 0, sizeof *c);
        if (cmp->probe(cmp, &st) != PAPI_OK && !st.disabled)
            st.disabled = PAPI_ECMP;
        c->CmpIdx = i;
        c->initialized = 1;
        c->disabled = st.disabled;
        c->num_cntrs = st.num_counters;
        free(whole_reason[i]);
        whole_reason[i] = st.reason[0] ? strdup(st.reason) : NULL;
        set_public_reason(c, st.reason);
        papi_strcpy(c->name, sizeof c->name, cmp->name);
        g_papi.cmp_user_disabled[i] = user_reason(i) != NULL;
        apply_user_disable(i);
    }
}

/* The component's own description, refreshed (its lazily known counts) on each call.
 * Threads ask concurrently and keep the pointer: the refresh is made on a copy under a
 * lock, and the shared description is written only when something changed. */
static pthread_mutex_t info_lock = PTHREAD_MUTEX_INITIALIZER;
static void fill_info(int cidx)
{
    static PAPI_component_info_t fresh; /* large: not on the caller's stack */
    pthread_mutex_lock(&info_lock);
    fresh = g_papi.cmp[cidx];
    papi_components[cidx]->fill_info(papi_components[cidx], &fresh);
    if (cidx == PRESET_COMPONENT) /* the tables' lock comes after info_lock */
        fresh.num_preset_events = preset_defined_count();
    apply_user_disable_to(cidx, &fresh);
    if (memcmp(&fresh, &g_papi.cmp[cidx], sizeof fresh) != 0)
        g_papi.cmp[cidx] = fresh;
    pthread_mutex_unlock(&info_lock);
}

const PAPI_component_info_t *PAPI_get_component_info(int cidx)
{
    if (g_papi.init_state == PAPI_NOT_INITED || cidx < 0 || cidx >= papi_num_components)
        return NULL;
    fill_info(cidx);
    return &g_papi.cmp[cidx];
}

const char *PAPI_get_component_reason(int cidx)
{
    if (g_papi.init_state == PAPI_NOT_INITED || cidx < 0 || cidx >= papi_num_components)
        return NULL;
    fill_info(cidx); /* a component may clear its reason once it knows more */
    const char *pub = g_papi.cmp[cidx].disabled_reason;
    if (!pub[0])
        return "";
    if (user_reason(cidx))
        return user_reason(cidx);
    return whole_reason[cidx] ? whole_reason[cidx] : pub;
}

const PAPI_component_info_t *component_info(int cidx)
{
    return PAPI_get_component_info(cidx);
}

const PAPI_substrate_info_t *PAPI_get_substrate_info(void)
{
    return PAPI_get_component_info(0);
}

int PAPI_num_components(void)
{
    return papi_num_components;
}

int PAPI_get_component_index(const char *name)
{
    PAPI_CHECK_INIT();
    if (!name)
        return papi_error(PAPI_EINVAL, "component name is NULL");
    for (int i = 0; i < papi_num_components; i++) {
        fill_info(i);
        if (strcmp(g_papi.cmp[i].name, name) == 0 || strcmp(g_papi.cmp[i].short_name, name) == 0)
            return i;
    }
    return papi_error(PAPI_ENOCMP, "no component is named '%s'", name);
}

int PAPI_disable_component(int cidx)
{
    if (g_papi.init_state != PAPI_NOT_INITED)
        return papi_error(PAPI_ENOINIT, "components can only be disabled before PAPI_library_init");
    if (cidx < 0 || cidx >= papi_num_components)
        return papi_error(PAPI_ENOCMP, "component index %d does not exist", cidx);
    disabled_by_user[cidx] = 1;
    return PAPI_OK;
}

int PAPI_disable_component_by_name(const char *name)
{
    if (!name)
        return papi_error(PAPI_EINVAL, "component name is NULL");
    for (int i = 0; i < papi_num_components; i++)
        if (strcmp(papi_components[i]->name, name) == 0)
            return PAPI_disable_component(i);
    return papi_error(PAPI_ENOCMP, "no component is named '%s'", name);
}

int PAPI_num_cmp_hwctrs(int cidx)
{
    PAPI_CHECK_INIT();
    if (!component_get(cidx))
        return PAPI_ENOCMP;
    fill_info(cidx);
    return g_papi.cmp[cidx].num_cntrs;
}

int PAPI_num_hwctrs(void)
{
    if (g_papi.init_state == PAPI_NOT_INITED)
        return 0;
    return PAPI_num_cmp_hwctrs(0);
}
