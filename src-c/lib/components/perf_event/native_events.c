/* native_events.c: the perf_event component's native events, whichever route describes
 * them: a name goes to libpfm4 first (native_pfm.c), then to the kernel's sysfs
 * description (native_sysfs.c), or, named without a PMU, to each core type's
 * (native_hybrid.c); encodings, enumeration and descriptions follow the route an event
 * came by. Every event is an entry of the table (native_table.c), whose index is the
 * local code. The routes never call back here. */
#include <perfmon/pfmlib.h>
#include <stdlib.h>
#include <string.h>

#include "fsroot.h"
#include "native_events.h"
#include "native_hybrid.h"
#include "native_pfm.h"
#include "native_sysfs.h"
#include "str_append.h"
#include "sysfs_cpu_model.h"
#include "sysfs_pmus.h"

int native_init(void)
{
    return native_pfm_init();
}

void native_shutdown(void)
{
    native_table_shutdown();
    sysfs_pmus_reset(); /* the next init may replay another machine (fsroot.h) */
    native_pfm_reset();
    /* libpfm4 stays initialised: pfm_terminate + pfm_initialize again is not safe in
     * every libpfm4 release, and its tables are read-only. */
}

int native_name_to_code(const char *name, int *code)
{
    if (!name || !code)
        return papi_error(PAPI_EINVAL, "NULL event name or code pointer");
    size_t len = strnlen(name, PAPI_HUGE_STR_LEN);
    if (len == 0 || len >= PAPI_HUGE_STR_LEN)
        return papi_error(PAPI_EINVAL, "event name is empty or longer than %d characters",
                          PAPI_HUGE_STR_LEN - 1);
    int ret = native_init();
    if (ret != PAPI_OK)
        return ret;
    int idx = native_table_find(name);
    if (idx >= 0) {
        *code = idx;
        return PAPI_OK;
    }

    /* "perf::CYCLES@cpu_atom": a generic event on one core PMU of a hybrid machine. */
    const char *at = strrchr(name, '@');
    if (at && at > name && at[1] && !strchr(at, ':'))
        return native_hybrid_pinned_to_code(name, at, code);

    int pfm_ret = PFM_SUCCESS;
    ret = native_pfm_name_to_code(name, code, &pfm_ret);
    if (ret == PAPI_OK || pfm_ret == PFM_SUCCESS) /* counted, or libpfm4's reason said */
        return ret;
    if (!strstr(name, "::")) {
        /* No PMU named: the core PMU's (each core type's on a hybrid machine) sysfs event. */
        if (native_hybrid_name_to_code(name, code) == PAPI_OK)
            return PAPI_OK;
        char why[PAPI_HUGE_STR_LEN]; /* a copy: papi_error writes where the detail is */
        papi_strcpy(why, sizeof why, papi_last_error_detail());
        return papi_error(PAPI_ENOEVNT, "native event '%s': %s (libpfm4); %s (kernel sysfs)", name,
                          pfm_strerror(pfm_ret), why);
    }
    /* perf::PAGE-FAULT: perf:: is libpfm4's PMU, never a sysfs one; answer with its
     * names. A sysfs PMU of the same name still takes the name (checked first). */
    char pmu[PAPI_MIN_STR_LEN], closest[PAPI_HUGE_STR_LEN];
    size_t pl = (size_t)(strstr(name, "::") - name);
    snprintf(pmu, sizeof pmu, "%.*s", (int)(pl < sizeof pmu ? pl : 0), name);
    if (pfm_ret == PFM_ERR_NOTFOUND && !sysfs_pmu_find(pmu, NULL) &&
        native_pfm_closest(name, closest, sizeof closest))
        return papi_error(PAPI_ENOEVNT, "native event '%s': %s", name, closest);
    return native_sysfs_name_to_code(name, pfm_strerror(pfm_ret), code);
}

int native_code_to_name(int code, char *out, size_t len)
{
    struct native_event *e = native_lookup(code);
    if (!e)
        return papi_error(PAPI_ENOEVNT, "no native event has code 0x%x", (unsigned)code);
    if (papi_strcpy(out, len, e->name))
        return papi_error(PAPI_EBUF, "event name '%s' does not fit in the buffer", e->name);
    return PAPI_OK;
}

int native_encode(int code, int domain, struct perf_event_attr *attr)
{
    struct native_event *e = native_lookup(code);
    if (!e)
        return papi_error(PAPI_ENOEVNT, "no native event has code 0x%x", (unsigned)code);
    if (e->route == ROUTE_SYSFS)
        return native_sysfs_encode(e, domain, attr);
    if (e->route == ROUTE_HYBRID) {
        /* Counted through its per-core-type events (native_hybrid.c): each must encode. */
        for (int i = e->nsub - 1; i >= 0; i--) {
            int ret = native_encode(e->sub[i], domain, attr);
            if (ret != PAPI_OK)
                return ret;
        }
        return PAPI_OK;
    }
    return native_pfm_encode(e, domain, attr);
}

/* ---- enumeration: libpfm4's PMUs first, then the sysfs route's ---------------------- */

static int first_event_from(int pmu_start, enum pe_class cls, int *code)
{
    int ret = native_pfm_enum_first(pmu_start, cls, code);
    return ret == NATIVE_PFM_END ? native_sysfs_enum_first(0, cls, code) : ret;
}

/* Enumeration end is not an error worth reporting: return the code without papi_error. */
int native_enum(int *code, int modifier, enum pe_class cls)
{
    int ret = native_init();
    if (ret != PAPI_OK)
        return ret;
    if (modifier == PAPI_ENUM_FIRST)
        return first_event_from(0, cls, code);
    struct native_event *e = native_lookup(*code);
    if (!e)
        return papi_error(PAPI_ENOEVNT, "no native event has code 0x%x", (unsigned)*code);
    if (modifier != PAPI_ENUM_EVENTS && modifier != PAPI_NTV_ENUM_UMASKS)
        return papi_error(PAPI_EINVAL, "enumeration modifier %d is not supported for native events",
                          modifier);
    if (e->route == ROUTE_HYBRID) /* made by name only: not part of any listing */
        return PAPI_ENOEVNT;
    if (e->route == ROUTE_SYSFS) /* sysfs events have no unit masks */
        return modifier == PAPI_ENUM_EVENTS ? native_sysfs_enum_next(e, code) : PAPI_ENOEVNT;
    ret = native_pfm_enum_next(e, modifier, cls, code);
    return ret == NATIVE_PFM_END ? native_sysfs_enum_first(0, cls, code) : ret;
}

int native_count_for_class(enum pe_class cls)
{
    if (native_init() != PAPI_OK)
        return 0;
    return native_pfm_count(cls) + native_sysfs_count(cls);
}

int native_get_scale(int code, double *scale, char *unit, size_t len)
{
    struct native_event *e = native_lookup(code);
    return e ? native_sysfs_scale(e, scale, unit, len) : PAPI_ENOEVNT;
}

int native_get_info(int code, PAPI_event_info_t *info)
{
    struct native_event *e = native_lookup(code);
    if (!e)
        return papi_error(PAPI_ENOEVNT, "no native event has code 0x%x", (unsigned)code);
    memset(info, 0, sizeof *info);
    info->event_code = (unsigned)code;
    papi_strcpy(info->symbol, sizeof info->symbol, e->name);
    info->data_type = PAPI_DATATYPE_UINT64;
    info->value_type = PAPI_VALUETYPE_RUNNING_SUM;
    info->timescope = PAPI_TIMESCOPE_SINCE_START;
    info->update_type = PAPI_UPDATETYPE_ARBITRARY;
    char hybrid[PAPI_HUGE_STR_LEN];
    native_hybrid_describe(code, hybrid, sizeof hybrid);
    if (e->route == ROUTE_HYBRID) {
        papi_strcpy(info->short_descr, sizeof info->short_descr, e->name);
        papi_strcpy(info->long_descr, sizeof info->long_descr, hybrid);
        papi_strcpy(info->note, sizeof info->note,
                    "described by the kernel's sysfs (events/, format/) of each core PMU");
        return PAPI_OK;
    }
    if (e->route == ROUTE_SYSFS) {
        native_sysfs_info(e, info);
        return PAPI_OK;
    }
    papi_strcpy(info->note, sizeof info->note,
                hybrid[0] ? "described by libpfm4 (generic event), counted on each core PMU"
                          : "described by libpfm4");
    native_pfm_describe(e, info);
    if (e->sysfs_pmu >= 0) { /* pinned to one core PMU */
        const struct sysfs_pmu *p = sysfs_pmu_brief(e->sysfs_pmu);
        snprintf(hybrid, sizeof hybrid, "on core PMU %s only (CPUs %s)", p ? p->name : "?",
                 p && p->cpus[0] ? p->cpus : "all");
    }
    if (hybrid[0])
        str_appendf(info->long_descr, sizeof info->long_descr, "%s%s",
                    info->long_descr[0] ? "; " : "", hybrid);
    return PAPI_OK;
}

/* The kernel publishes no counter count in sysfs (x86 caps/: max_precise, pmu_name,
 * branches; arm64 caps/: slots, bus_slots, bus_width), so a core PMU known only from
 * sysfs is given the smallest count of the cores it serves: 4 general counters per
 * hardware thread (Intel cores with Hyper-Threading; AMD Zen and Intel Atom cores have
 * 6 or more). An underestimate only makes PAPI_start check more groups (perf_context.c). */
#define SYSFS_CORE_COUNTERS 4

/* General plus fixed counters of the core PMU libpfm4 detected; SYSFS_CORE_COUNTERS for
 * a core PMU only the kernel's sysfs describes; 0 when there is none. */
int native_core_counters(void)
{
    if (native_init() != PAPI_OK)
        return 0;
    int n = native_pfm_core_counters();
    if (n > 0)
        return n;
    for (int i = 0, np = sysfs_pmu_count(); i < np; i++)
        if (sysfs_pmu_brief(i)->kind == SYSFS_PMU_CORE)
            return SYSFS_CORE_COUNTERS;
    return 0;
}

/* The preset tables' CPU (component.h preset_pmu): libpfm4's model name when it knows
 * this CPU, else the name of the CPU model the kernel's sysfs core PMU belongs to
 * (sysfs_cpu_model.c), else libpfm4's architectural or generic one. */
const char *native_core_pmu_name(void)
{
    if (native_pfm_knows_core())
        return native_pfm_core_pmu_name();
    const char *model = sysfs_cpu_model_table();
    if (model || fsroot_replaying())
        return model; /* a recorded CPU without a table of its own: generic presets */
    return native_pfm_core_pmu_name();
}
