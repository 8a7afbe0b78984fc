/* library_init.c: PAPI_library_init, PAPI_is_initialized, PAPI_shutdown and the
 * component descriptions. Initialisation is kept cheap: libpfm4, the preset tables and
 * the hardware description are loaded on first use, not here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "papi_internal.h"

struct papi_globals g_papi;
atomic_uint g_papi_generation;
struct pmu_access g_pmu;
pthread_mutex_t g_papi_lock = PTHREAD_MUTEX_INITIALIZER;

static char *perf_pmu_names[] = {"perf", "perf_raw", NULL};
static int disabled_by_user[NUM_COMPONENTS]; /* survives shutdown, applied at init */

static void component_init(PAPI_component_info_t *c, int cidx)
{
    struct utsname u;
    memset(c, 0, sizeof *c);
    c->CmpIdx = cidx;
    c->initialized = 1;
    papi_strcpy(c->version, sizeof c->version, "7.0.0");
    snprintf(c->support_version, sizeof c->support_version, "libpfm4");
    if (uname(&u) == 0)
        papi_strcpy(c->kernel_version, sizeof c->kernel_version, u.release);
    c->default_domain = PAPI_DOM_USER;
    c->available_domains = PAPI_DOM_USER | PAPI_DOM_KERNEL | PAPI_DOM_SUPERVISOR;
    c->default_granularity = PAPI_GRN_THR;
    c->available_granularities = PAPI_GRN_THR | PAPI_GRN_PROC | PAPI_GRN_SYS;
    c->hardware_intr_sig = SIGRTMIN + 2;
    c->kernel_multiplex = 1;
    c->kernel_profile = 0;
    c->fast_real_timer = 1;
    c->fast_virtual_timer = 1;
    c->attach = 1;
    c->cpu = 1;
    c->inherit = 1;
    c->cntr_umasks = 1;
    c->grouped_cntrs = 1;
    c->multiplex_timer_us = 10000;
    if (cidx == CMP_PERF_EVENT) {
        papi_strcpy(c->name, sizeof c->name, "perf_event");
        papi_strcpy(c->short_name, sizeof c->short_name, "perf");
        papi_strcpy(c->description, sizeof c->description,
                    "Linux perf_event CPU counters and software events");
        c->hardware_intr = g_pmu.hw_open_works;
        c->num_cntrs = g_pmu.num_hw_counters;
        c->num_mpx_cntrs = ES_MAX_NATIVES;
        c->num_preset_events = 0; /* counted when the preset table loads */
        c->fast_counter_read = 0; /* counts are always read with read(), never rdpmc */
        c->pmu_names[0] = perf_pmu_names[0];
        /* With only software PMUs, libpfm4 is limited to "perf" (native_events.c). */
        if (!g_pmu.software_pmus_only)
            c->pmu_names[1] = perf_pmu_names[1];
        papi_strcpy(c->disabled_reason, sizeof c->disabled_reason, g_pmu.reason);
        /* Software events still count when the hardware is missing; only a refusal of
         * perf_event_open itself disables the component. */
        if (!g_pmu.hw_open_works && (g_pmu.paranoid > 2 && !g_pmu.cap_perfmon))
            c->disabled = PAPI_EPERM;
    } else {
        papi_strcpy(c->name, sizeof c->name, "perf_event_uncore");
        papi_strcpy(c->short_name, sizeof c->short_name, "peu");
        papi_strcpy(c->description, sizeof c->description,
                    "Linux perf_event uncore (socket-level) counters");
        c->default_granularity = PAPI_GRN_SYS;
        c->available_granularities = PAPI_GRN_SYS;
        c->num_mpx_cntrs = ES_MAX_NATIVES;
        c->disabled = PAPI_ECMP_DISABLED;
        papi_strcpy(c->disabled_reason, sizeof c->disabled_reason,
                    "No uncore PMU is known to libpfm4 on this machine");
    }
}

void components_init(void)
{
    for (int i = 0; i < NUM_COMPONENTS; i++) {
        component_init(&g_papi.cmp[i], i);
        if (disabled_by_user[i]) {
            g_papi.cmp[i].disabled = PAPI_ECMP_DISABLED;
            papi_strcpy(g_papi.cmp[i].disabled_reason, sizeof g_papi.cmp[i].disabled_reason,
                        "disabled by PAPI_disable_component before PAPI_library_init");
        }
    }
}

int PAPI_library_init(int version)
{
    if (version != PAPI_VER_CURRENT)
        return papi_error(PAPI_EINVAL,
                          "PAPI_library_init(0x%x): this library is version 0x%x; recompile against "
                          "its papi.h", (unsigned)version, (unsigned)PAPI_VER_CURRENT);
    pthread_mutex_lock(&g_papi_lock);
    if (g_papi.init_state != PAPI_NOT_INITED) {
        g_papi.init_state |= PAPI_LOW_LEVEL_INITED;
        pthread_mutex_unlock(&g_papi_lock);
        return PAPI_VER_CURRENT;
    }
    g_papi.default_domain = PAPI_DOM_USER;
    g_papi.default_granularity = PAPI_GRN_THR;
    g_papi.mpx_slice_ns = 10000000;
    pmu_access_probe(&g_pmu);
    g_pmu.num_hw_counters = 0;
    components_init();
    g_papi.init_state = PAPI_LOW_LEVEL_INITED;
    pthread_mutex_unlock(&g_papi_lock);
    return PAPI_VER_CURRENT;
}

int PAPI_is_initialized(void)
{
    return g_papi.init_state;
}

void PAPI_shutdown(void)
{
    if (g_papi.init_state == PAPI_NOT_INITED)
        return;
    es_free_all();
    preset_shutdown();
    native_shutdown();
    threads_shutdown();
    hwinfo_shutdown();
    sysinfo_shutdown();
    pthread_mutex_lock(&g_papi_lock);
    PAPI_debug_handler_t h = g_papi.debug_handler;
    int level = g_papi.debug_level;
    memset(&g_papi, 0, sizeof g_papi);
    atomic_fetch_add(&g_papi_generation, 1);
    g_papi.debug_handler = h;
    g_papi.debug_level = level;
    pthread_mutex_unlock(&g_papi_lock);
}

/* ---- components ------------------------------------------------------------------- */

static void fill_counts(int cidx)
{
    PAPI_component_info_t *c = &g_papi.cmp[cidx];
    if (c->num_native_events == 0)
        c->num_native_events = native_count_for_component(cidx);
    /* Counters are claimed only when a hardware event really opens. */
    if (cidx == CMP_PERF_EVENT && g_pmu.hw_open_works && c->num_cntrs == 0)
        c->num_cntrs = c->num_mpx_cntrs = native_core_counters();
    if (cidx == CMP_UNCORE && c->num_native_events > 0 && c->disabled == PAPI_ECMP_DISABLED) {
        c->disabled = 0;
        c->disabled_reason[0] = '\0';
    }
}

const PAPI_component_info_t *PAPI_get_component_info(int cidx)
{
    if (g_papi.init_state == PAPI_NOT_INITED || cidx < 0 || cidx >= NUM_COMPONENTS)
        return NULL;
    fill_counts(cidx);
    return &g_papi.cmp[cidx];
}

const PAPI_substrate_info_t *PAPI_get_substrate_info(void)
{
    return PAPI_get_component_info(CMP_PERF_EVENT);
}

int PAPI_num_components(void)
{
    return NUM_COMPONENTS;
}

int PAPI_get_component_index(const char *name)
{
    PAPI_CHECK_INIT();
    if (!name)
        return papi_error(PAPI_EINVAL, "component name is NULL");
    for (int i = 0; i < NUM_COMPONENTS; i++)
        if (strcmp(g_papi.cmp[i].name, name) == 0 || strcmp(g_papi.cmp[i].short_name, name) == 0)
            return i;
    return papi_error(PAPI_ENOCMP, "no component is named '%s'", name);
}

int PAPI_disable_component(int cidx)
{
    if (g_papi.init_state != PAPI_NOT_INITED)
        return papi_error(PAPI_ENOINIT,
                          "components can only be disabled before PAPI_library_init");
    if (cidx < 0 || cidx >= NUM_COMPONENTS)
        return papi_error(PAPI_ENOCMP, "component index %d does not exist", cidx);
    disabled_by_user[cidx] = 1;
    return PAPI_OK;
}

int PAPI_disable_component_by_name(const char *name)
{
    if (!name)
        return papi_error(PAPI_EINVAL, "component name is NULL");
    if (strcmp(name, "perf_event") == 0)
        return PAPI_disable_component(CMP_PERF_EVENT);
    if (strcmp(name, "perf_event_uncore") == 0)
        return PAPI_disable_component(CMP_UNCORE);
    return papi_error(PAPI_ENOCMP, "no component is named '%s'", name);
}

int PAPI_num_cmp_hwctrs(int cidx)
{
    PAPI_CHECK_INIT();
    if (cidx < 0 || cidx >= NUM_COMPONENTS)
        return papi_error(PAPI_ENOCMP, "component index %d does not exist", cidx);
    fill_counts(cidx);
    return g_papi.cmp[cidx].num_cntrs;
}

int PAPI_num_hwctrs(void)
{
    if (g_papi.init_state == PAPI_NOT_INITED)
        return 0;
    return PAPI_num_cmp_hwctrs(CMP_PERF_EVENT);
}
