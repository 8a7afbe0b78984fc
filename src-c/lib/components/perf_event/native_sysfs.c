/* native_sysfs.c: the sysfs route to native events. For PMUs libpfm4 does not know (a
 * CPU newer than this libpfm4, uncore and data-fabric PMUs, hybrid core PMUs), the
 * kernel's own description under /sys/bus/event_source/devices (sysfs_pmus.h) names the
 * events and says which bits each field occupies (sysfs_encode.h). libpfm4 is asked
 * first (native_pfm.c, through native_events.c); this route answers what it does not.
 *
 * Listed (enumerated) are the sysfs PMUs that have named events, except the kernel's
 * software PMUs (libpfm4's "perf" table names those) and the core PMU when libpfm4
 * describes this CPU model; any PMU's events and raw fields resolve by name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsroot.h"
#include "native_pfm.h"
#include "native_sysfs.h"
#include "pmu_state.h"
#include "str_append.h"
#include "sysfs_encode.h"
#include "sysfs_pmus.h"

static enum pe_class class_of(const struct sysfs_pmu *p)
{
    return p->kind == SYSFS_PMU_UNCORE ? PE_UNCORE : PE_CORE;
}

/* A PMU is listed unless libpfm4 lists its events already: the core PMU of a CPU model
 * libpfm4 knows, and any PMU one of libpfm4's tables encodes to (its uncore PMUs). */
static bool listed(const struct sysfs_pmu *p, enum pe_class cls)
{
    if (!p->nevents || p->kind == SYSFS_PMU_SOFTWARE || class_of(p) != cls)
        return false;
    if (p->kind == SYSFS_PMU_CORE && native_pfm_knows_core())
        return false;
    return !native_pfm_covers_type(p->type);
}

/* PMU i with its events when it may be listed for cls, else NULL: what its name, type
 * and kind rule out is decided before its format and event files are read (counting the
 * events for PAPI_get_component_info read every PMU's, about 25 files here). */
static const struct sysfs_pmu *listed_pmu(int i, enum pe_class cls)
{
    const struct sysfs_pmu *b = sysfs_pmu_brief(i);
    if (!b || b->kind == SYSFS_PMU_SOFTWARE || class_of(b) != cls ||
        (b->kind == SYSFS_PMU_CORE && native_pfm_knows_core()) || native_pfm_covers_type(b->type))
        return NULL;
    const struct sysfs_pmu *p = sysfs_pmu_at(i);
    return p && listed(p, cls) ? p : NULL;
}

/* Whether named event i of p encodes (enumeration skips those that need a parameter). */
static bool encodable(const struct sysfs_pmu *p, int i)
{
    char name[PAPI_HUGE_STR_LEN];
    snprintf(name, sizeof name, "%s::%s", p->name, p->events[i].name);
    struct sysfs_encoding enc;
    char why[PAPI_MIN_STR_LEN];
    return sysfs_encode(name, &enc, why, sizeof why) == 0;
}

static void make_attr(const struct sysfs_encoding *enc, struct perf_event_attr *attr)
{
    memset(attr, 0, sizeof *attr);
    attr->size = sizeof *attr;
    attr->type = (uint32_t)enc->type;
    attr->config = enc->config[0];
    attr->config1 = enc->config[1];
    attr->config2 = enc->config[2];
}

int native_sysfs_name_to_code(const char *name, const char *pfm_why, int *local)
{
    struct sysfs_encoding enc;
    char why[PAPI_HUGE_STR_LEN];
    if (sysfs_encode(name, &enc, why, sizeof why) != 0) {
        /* A name of libpfm4's syntax that sysfs does not know either: libpfm4's answer
         * comes first, then why the kernel's description does not have it. */
        return papi_error(PAPI_ENOEVNT, "native event '%s': %s (libpfm4); %s (kernel sysfs)", name,
                          pfm_why, why);
    }
    const struct sysfs_pmu *p = sysfs_pmu_at(enc.pmu);
    struct perf_event_attr attr;
    make_attr(&enc, &attr);
    /* Canonical: the name as given (it carries its PMU); plm modifiers are kept in it. */
    int idx = native_intern_sysfs(name, NULL, enc.pmu, enc.event, class_of(p), enc.plm != 0, &attr);
    if (idx < 0)
        return papi_error(idx, "cannot record native event '%s'", name);
    *local = idx;
    return PAPI_OK;
}

/* The privilege levels of the name's own modifiers, re-read from it (cheap, not on the
 * counting path: only when an event is added). */
static int name_plm(const struct native_event *e)
{
    struct sysfs_encoding enc;
    char why[8];
    return sysfs_encode(e->name, &enc, why, sizeof why) == 0 ? enc.plm : 0;
}

void native_sysfs_attr(const struct native_event *e, int domain, struct perf_event_attr *attr)
{
    *attr = e->attr;
    attr->size = sizeof *attr;
    int plm = e->explicit_plm ? name_plm(e) : 0;
    if (plm) {
        attr->exclude_user = !(plm & SYSFS_PLM_USER);
        attr->exclude_kernel = !(plm & SYSFS_PLM_KERNEL);
        attr->exclude_hv = !(plm & SYSFS_PLM_HV);
    } else if (sysfs_pmu_brief(e->sysfs_pmu)->kind != SYSFS_PMU_CORE) {
        /* Uncore, data-fabric, msr, RAPL PMUs count whatever runs (the kernel refuses
         * exclude bits on them): the event set's domain does not apply. */
        attr->exclude_user = attr->exclude_kernel = attr->exclude_hv = 0;
    } else {
        attr->exclude_user = !(domain & PAPI_DOM_USER);
        attr->exclude_kernel = !(domain & PAPI_DOM_KERNEL);
        attr->exclude_hv = !(domain & PAPI_DOM_SUPERVISOR);
    }
}

/* Uncore PMUs count a whole socket (opened for a CPU, not a thread): the kernel opens
 * them only for CAP_PERFMON (or CAP_SYS_ADMIN) or at kernel.perf_event_paranoid <= 0. */
static int uncore_allowed(const struct native_event *e)
{
    const struct sysfs_pmu *p = sysfs_pmu_brief(e->sysfs_pmu);
    if (!p || p->kind != SYSFS_PMU_UNCORE || g_pmu.cap_perfmon || g_pmu.paranoid <= 0)
        return PAPI_OK;
    return papi_error(PAPI_EPERM,
                      "native event '%s': PMU %s counts a whole socket, which the kernel allows "
                      "only with CAP_PERFMON (or CAP_SYS_ADMIN) or kernel.perf_event_paranoid "
                      "<= 0; it is %d and this process lacks CAP_PERFMON (setcap "
                      "cap_perfmon+ep on the program, or lower kernel.perf_event_paranoid)",
                      e->name, p->name, g_pmu.paranoid);
}

int native_sysfs_encode(const struct native_event *e, int domain, struct perf_event_attr *attr)
{
    int ret = uncore_allowed(e);
    if (ret == PAPI_OK)
        ret = sysfs_pmu_here(e->sysfs_pmu, e->name);
    if (ret != PAPI_OK)
        return ret;
    native_sysfs_attr(e, domain, attr);
    return PAPI_OK;
}

static int intern_listed(int pmu, int event, int *local)
{
    const struct sysfs_pmu *p = sysfs_pmu_at(pmu);
    char name[PAPI_HUGE_STR_LEN];
    snprintf(name, sizeof name, "%s::%s", p->name, p->events[event].name);
    struct sysfs_encoding enc;
    char why[PAPI_HUGE_STR_LEN];
    if (sysfs_encode(name, &enc, why, sizeof why) != 0)
        return PAPI_ENOEVNT; /* e.g. an event that needs a parameter: skipped */
    struct perf_event_attr attr;
    make_attr(&enc, &attr);
    int idx = native_intern_sysfs(name, NULL, pmu, event, class_of(p), 0, &attr);
    if (idx < 0)
        return idx;
    *local = idx;
    return PAPI_OK;
}

/* The first encodable event from (pmu, event) on, in listed PMUs of cls. */
static int first_from(int pmu, int event, enum pe_class cls, int *local)
{
    for (int n = sysfs_pmu_count(); pmu < n; pmu++, event = 0) {
        const struct sysfs_pmu *p = listed_pmu(pmu, cls);
        if (!p)
            continue;
        for (; event < p->nevents; event++)
            if (intern_listed(pmu, event, local) == PAPI_OK)
                return PAPI_OK;
    }
    return PAPI_ENOEVNT;
}

int native_sysfs_enum_first(int pmu_start, enum pe_class cls, int *local)
{
    return first_from(pmu_start, 0, cls, local);
}

int native_sysfs_enum_next(const struct native_event *e, int *local)
{
    if (e->sysfs_event < 0) /* raw fields: not part of any listing */
        return PAPI_ENOEVNT;
    return first_from(e->sysfs_pmu, e->sysfs_event + 1, e->cls, local);
}

/* The events enumeration lists: the encodable named events of the listed PMUs. */
int native_sysfs_count(enum pe_class cls)
{
    int total = 0;
    for (int i = 0, n = sysfs_pmu_count(); i < n; i++) {
        const struct sysfs_pmu *p = listed_pmu(i, cls);
        if (p)
            for (int k = 0; k < p->nevents; k++)
                total += encodable(p, k);
    }
    return total;
}

void native_sysfs_info(const struct native_event *e, PAPI_event_info_t *info)
{
    const struct sysfs_pmu *p = sysfs_pmu_at(e->sysfs_pmu);
    const char *pmu = p ? p->name : "?";
    const char *spec = p && e->sysfs_event >= 0 ? p->events[e->sysfs_event].spec : NULL;
    const char *ev = strstr(e->name, "::");
    papi_strcpy(info->short_descr, sizeof info->short_descr, ev ? ev + 2 : e->name);
    /* The encoding itself: what the library opens (perf type and config words). */
    char what[PAPI_HUGE_STR_LEN];
    if (spec)
        snprintf(what, sizeof what, "%s event %s (%s); ", pmu, p->events[e->sysfs_event].name,
                 spec);
    else
        snprintf(what, sizeof what, "%s raw event; ", pmu);
    papi_strcpy(info->long_descr, sizeof info->long_descr, what);
    str_appendf(info->long_descr, sizeof info->long_descr,
                "perf_event_attr type %u config 0x%llx config1 0x%llx config2 0x%llx", e->attr.type,
                (unsigned long long)e->attr.config, (unsigned long long)e->attr.config1,
                (unsigned long long)e->attr.config2);
    double scale;
    if (native_sysfs_scale(e, &scale, info->units, sizeof info->units) == PAPI_OK)
        str_appendf(info->long_descr, sizeof info->long_descr,
                    "; one count is %.10g %s (the kernel's .scale and .unit; counts stay raw)",
                    scale, info->units);
    int hybrid[NATIVE_MAX_CORE_TYPES];
    if (p && p->kind == SYSFS_PMU_CORE && p->own_cpus &&
        sysfs_hybrid_pmus(hybrid, NATIVE_MAX_CORE_TYPES) >= 2)
        snprintf(info->note, sizeof info->note,
                 "described by the kernel's sysfs (events/, format/); core type of CPUs %s",
                 p->cpus);
    else
        papi_strcpy(info->note, sizeof info->note,
                    "described by the kernel's sysfs (events/, format/)");
}

int native_sysfs_scale(const struct native_event *e, double *scale, char *unit, size_t len)
{
    const struct sysfs_pmu *p = e->route == ROUTE_SYSFS ? sysfs_pmu_at(e->sysfs_pmu) : NULL;
    if (!p || e->sysfs_event < 0 || e->sysfs_event >= p->nevents ||
        !(p->events[e->sysfs_event].scale > 0))
        return PAPI_ENOEVNT;
    *scale = p->events[e->sysfs_event].scale;
    papi_strcpy(unit, len, p->events[e->sysfs_event].unit);
    return PAPI_OK;
}
