/* native_pfm.c: the libpfm4 route to native events: libpfm4 initialised on first use (it
 * costs ~2.5 ms, more than the whole of PAPI_library_init may), names encoded and
 * recorded in the table (native_table.h), its PMUs enumerated and described, and what it
 * knows of this machine (the core PMU's model, the uncore types it covers). */
#include <perfmon/pfmlib.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "fsroot.h"
#include "native_pfm.h"
#include "pfm_perf_encode.h"
#include "pfm_pmus.h"
#include "scoped_env.h"
#include "str_append.h"
#include "sysfs_pmus.h"

static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t covered_lock = PTHREAD_MUTEX_INITIALIZER;
static int covered[PFM_PMU_MAX], ncovered = -1; /* native_pfm_covers_type: one per PMU */
static int pfm_status = -1;

/* libpfm4 runs every CPU model's detection (each a cpuid, a VM exit under a hypervisor:
 * ~1.5 ms here). When the kernel exposes only its software PMUs, no hardware table of
 * libpfm4's can count anything, so only its "perf" table (generic and software events) is
 * activated, through libpfm4's own LIBPFM_FORCE_PMU. A user's LIBPFM_* choice wins. */
static void pfm_init_once(void)
{
    bool forced =
        scoped_env_begin("LIBPFM_FORCE_PMU", "perf",
                         g_pmu.software_pmus_only && !env_is_set("LIBPFM_ENCODE_INACTIVE"));
    pfm_status = pfm_initialize();
    scoped_env_end("LIBPFM_FORCE_PMU", forced);
    if (pfm_status == PFM_SUCCESS)
        pfm_pmus_load();
}

int native_pfm_init(void)
{
    pthread_once(&pfm_once, pfm_init_once);
    if (pfm_status != PFM_SUCCESS)
        return papi_error(PAPI_ECMP, "libpfm4 failed to initialise: %s", pfm_strerror(pfm_status));
    return PAPI_OK;
}

/* libpfm4's description of event pfm_idx in the OS layer os, the size field set as its ABI
 * asks: 1, or 0 when it has none. */
static int event_info(int pfm_idx, pfm_os_t os, pfm_event_info_t *einfo)
{
    memset(einfo, 0, sizeof *einfo);
    einfo->size = sizeof *einfo;
    return pfm_get_event_info(pfm_idx, os, einfo) == PFM_SUCCESS;
}

static enum pe_class pmu_class(pfm_pmu_t pmu)
{
    const pfm_pmu_info_t *pinfo = pfm_pmu(pmu);
    return pinfo && pinfo->type == PFM_PMU_TYPE_UNCORE ? PE_UNCORE : PE_CORE;
}

static int domain_to_plm(int domain)
{
    int plm = 0;
    if (domain & PAPI_DOM_USER)
        plm |= PFM_PLM3;
    if (domain & PAPI_DOM_KERNEL)
        plm |= PFM_PLM0;
    if (domain & PAPI_DOM_SUPERVISOR)
        plm |= PFM_PLMH;
    return plm ? plm : PFM_PLM3;
}

/* Does the modifier list (the part after the event name) set a privilege level? */
static int has_plm_modifier(const char *mods)
{
    const char *p = mods;
    while (p && *p) {
        if (*p == ':')
            p++;
        size_t n = strcspn(p, ":");
        if ((n == 1 || (n > 1 && p[1] == '=')) && (p[0] == 'u' || p[0] == 'k' || p[0] == 'h'))
            return 1;
        p += n;
    }
    return 0;
}

int native_pfm_name_to_code(const char *name, int *code, int *pfm_ret)
{
    struct perf_event_attr attr;
    int pfm_idx = -1;
    int ret = pfm_perf_encode(name, PFM_PLM3, &attr, sizeof attr, NULL, &pfm_idx);
    *pfm_ret = ret;
    if (ret != PFM_SUCCESS)
        return PAPI_ENOEVNT; /* quietly: the caller asks the other routes */

    /* Canonical name: "pmu::" + the event and modifiers as the user spelled them. */
    pfm_event_info_t einfo;
    const pfm_pmu_info_t *pinfo;
    if (!event_info(pfm_idx, PFM_OS_NONE, &einfo) || !(pinfo = pfm_pmu(einfo.pmu)))
        return papi_error(PAPI_EBUG, "libpfm4 encoded '%s' but cannot describe it", name);
    const char *ev = strstr(name, "::");
    ev = ev ? ev + 2 : name;
    const char *mods = strchr(ev, ':');
    char canon[PAPI_HUGE_STR_LEN];
    int n = snprintf(canon, sizeof canon, "%s::%s", pinfo->name, ev);
    if (n < 0 || (size_t)n >= sizeof canon)
        return papi_error(PAPI_EINVAL, "event name '%s' is too long", name);
    int idx = native_intern_pfm(canon, name, pfm_idx, -1, pmu_class(einfo.pmu),
                                has_plm_modifier(mods), &attr, PFM_PLM3, 0);
    if (idx < 0)
        return papi_error(idx, "cannot record native event '%s'", name);
    *code = idx;
    return PAPI_OK;
}

int native_pfm_encode(struct native_event *e, int domain, struct perf_event_attr *attr)
{
    if (e->sysfs_pmu >= 0) {
        int ret = sysfs_pmu_here(e->sysfs_pmu, e->name);
        if (ret != PAPI_OK)
            return ret;
    }
    int plm = domain_to_plm(domain);
    pthread_mutex_lock(&e->enc_lock);
    if (e->attr_plm < 0 || (!e->explicit_plm && e->attr_plm != plm)) {
        int ret = native_pfm_init();
        if (ret == PAPI_OK) {
            struct perf_event_attr a;
            char base[PAPI_HUGE_STR_LEN];
            papi_strcpy(base, sizeof base, e->name);
            if (e->sysfs_pmu >= 0 && strrchr(base, '@'))
                *strrchr(base, '@') = '\0'; /* pinned: libpfm4 encodes the generic event */
            ret = pfm_perf_encode(base, plm, &a, sizeof a, NULL, NULL);
            if (ret == PFM_SUCCESS && e->sysfs_pmu >= 0)
                a.config = (a.config & PERF_HW_EVENT_MASK) |
                           (uint64_t)sysfs_pmu_brief(e->sysfs_pmu)->type << PERF_PMU_TYPE_SHIFT;
            if (ret != PFM_SUCCESS) {
                pthread_mutex_unlock(&e->enc_lock);
                return papi_error(PAPI_ENOEVNT, "native event '%s' cannot be encoded: %s", e->name,
                                  pfm_strerror(ret));
            }
            e->attr = a;
            e->attr_plm = plm;
        } else {
            pthread_mutex_unlock(&e->enc_lock);
            return ret;
        }
    }
    *attr = e->attr;
    pthread_mutex_unlock(&e->enc_lock);
    attr->size = sizeof *attr;
    if (!e->explicit_plm) {
        /* PAPI_DOM_OTHER has no perf_event bit; kernel/user/hv follow the domain. */
        attr->exclude_user = !(domain & PAPI_DOM_USER);
        attr->exclude_kernel = !(domain & PAPI_DOM_KERNEL);
        attr->exclude_hv = !(domain & PAPI_DOM_SUPERVISOR);
    }
    return PAPI_OK;
}

/* The PMU's description when libpfm4 activated it and its events are of class cls,
 * else NULL. */
static const pfm_pmu_info_t *pmu_in_class(pfm_pmu_t pmu, enum pe_class cls)
{
    const pfm_pmu_info_t *pinfo = pfm_pmu(pmu);
    if (!pinfo || !pinfo->is_present)
        return NULL;
    /* libpfm4 detects this host's CPU and uncore (cpuid, live sysfs), never a recorded
     * machine's: while replaying, only its generic tables describe the machine. */
    if (fsroot_replaying() && strcmp(pinfo->name, "perf") && strcmp(pinfo->name, "perf_raw"))
        return NULL;
    enum pe_class c = pinfo->type == PFM_PMU_TYPE_UNCORE ? PE_UNCORE : PE_CORE;
    return c == cls ? pinfo : NULL;
}

static int intern_enumerated(int pfm_idx, int umask_idx, int *code)
{
    pfm_event_info_t einfo;
    const pfm_pmu_info_t *pinfo;
    if (!event_info(pfm_idx, PFM_OS_PERF_EVENT_EXT, &einfo) || !(pinfo = pfm_pmu(einfo.pmu)))
        return PAPI_ENOEVNT;
    char name[PAPI_HUGE_STR_LEN];
    if (umask_idx >= 0) {
        pfm_event_attr_info_t ainfo;
        memset(&ainfo, 0, sizeof ainfo);
        ainfo.size = sizeof ainfo;
        if (pfm_get_event_attr_info(pfm_idx, umask_idx, PFM_OS_PERF_EVENT_EXT, &ainfo) !=
            PFM_SUCCESS)
            return PAPI_ENOEVNT;
        snprintf(name, sizeof name, "%s::%s:%s", pinfo->name, einfo.name, ainfo.name);
    } else {
        snprintf(name, sizeof name, "%s::%s", pinfo->name, einfo.name);
    }
    int idx =
        native_intern_pfm(name, NULL, pfm_idx, umask_idx, pmu_class(einfo.pmu), 0, NULL, -1, 1);
    if (idx < 0)
        return idx;
    *code = idx;
    return PAPI_OK;
}

static int next_umask(int pfm_idx, int after, int *code)
{
    pfm_event_info_t einfo;
    if (!event_info(pfm_idx, PFM_OS_PERF_EVENT_EXT, &einfo))
        return PAPI_ENOEVNT;
    for (int a = after + 1; a < einfo.nattrs; a++) {
        pfm_event_attr_info_t ainfo;
        memset(&ainfo, 0, sizeof ainfo);
        ainfo.size = sizeof ainfo;
        if (pfm_get_event_attr_info(pfm_idx, a, PFM_OS_PERF_EVENT_EXT, &ainfo) != PFM_SUCCESS)
            continue;
        if (ainfo.type == PFM_ATTR_UMASK)
            return intern_enumerated(pfm_idx, a, code);
    }
    return PAPI_ENOEVNT;
}

int native_pfm_enum_first(int pmu_start, enum pe_class cls, int *code)
{
    for (int pmu = pmu_start; pmu < PFM_PMU_MAX; pmu++) {
        const pfm_pmu_info_t *pinfo = pmu_in_class((pfm_pmu_t)pmu, cls);
        if (pinfo && pinfo->nevents > 0)
            return intern_enumerated(pinfo->first_event, -1, code);
    }
    return NATIVE_PFM_END;
}

int native_pfm_enum_next(const struct native_event *e, int modifier, enum pe_class cls, int *code)
{
    if (modifier == PAPI_NTV_ENUM_UMASKS)
        return next_umask(e->pfm_idx, e->umask_idx, code);
    int next = pfm_get_event_next(e->pfm_idx);
    if (next >= 0)
        return intern_enumerated(next, -1, code);
    pfm_event_info_t einfo;
    if (!event_info(e->pfm_idx, PFM_OS_NONE, &einfo))
        return PAPI_ENOEVNT;
    return native_pfm_enum_first((int)einfo.pmu + 1, cls, code);
}

int native_pfm_count(enum pe_class cls)
{
    int total = 0;
    for (int pmu = 0; pmu < PFM_PMU_MAX; pmu++) {
        const pfm_pmu_info_t *pinfo = pmu_in_class((pfm_pmu_t)pmu, cls);
        if (pinfo)
            total += pinfo->nevents;
    }
    return total;
}

int native_pfm_core_counters(void)
{
    if (!native_pfm_knows_core())
        return 0;
    for (int pmu = 0; pmu < PFM_PMU_MAX; pmu++) {
        const pfm_pmu_info_t *pinfo = pmu_in_class((pfm_pmu_t)pmu, PE_CORE);
        if (pinfo && pinfo->type == PFM_PMU_TYPE_CORE && strcmp(pinfo->name, "perf") &&
            strcmp(pinfo->name, "perf_raw"))
            return pinfo->num_cntrs + pinfo->num_fixed_cntrs;
    }
    return 0;
}

void native_pfm_describe(const struct native_event *e, PAPI_event_info_t *info)
{
    pfm_event_info_t einfo;
    if (!event_info(e->pfm_idx, PFM_OS_PERF_EVENT_EXT, &einfo))
        return;
    papi_strcpy(info->long_descr, sizeof info->long_descr, einfo.desc ? einfo.desc : "");
    if (e->umask_idx >= 0) {
        pfm_event_attr_info_t ainfo;
        memset(&ainfo, 0, sizeof ainfo);
        ainfo.size = sizeof ainfo;
        if (pfm_get_event_attr_info(e->pfm_idx, e->umask_idx, PFM_OS_PERF_EVENT_EXT, &ainfo) ==
                PFM_SUCCESS &&
            ainfo.desc) {
            str_appendf(info->long_descr, sizeof info->long_descr, ", masks:%s", ainfo.desc);
        }
    }
    papi_strcpy(info->short_descr, sizeof info->short_descr, einfo.name);
}

void native_pfm_reset(void)
{
    pthread_mutex_lock(&covered_lock);
    ncovered = -1;
    pthread_mutex_unlock(&covered_lock);
}

/* The perf types libpfm4's uncore tables encode to (uncore_imc_0 for skx_unc_imc0, ...),
 * found once by encoding an event of each present uncore PMU. */

static void find_covered_locked(void)
{
    ncovered = 0;
    for (int p = 0; p < PFM_PMU_MAX; p++) {
        const pfm_pmu_info_t *pi = pmu_in_class((pfm_pmu_t)p, PE_UNCORE);
        if (!pi || pi->type != PFM_PMU_TYPE_UNCORE || pi->nevents <= 0)
            continue;
        /* Some events need a unit mask: the first of a few that encodes says the type. */
        int ev = pi->first_event;
        for (int tries = 0; ev >= 0 && tries < 8; tries++, ev = pfm_get_event_next(ev)) {
            pfm_event_info_t einfo;
            if (!event_info(ev, PFM_OS_NONE, &einfo))
                continue;
            char name[PAPI_HUGE_STR_LEN];
            struct perf_event_attr attr;
            snprintf(name, sizeof name, "%s::%s", pi->name, einfo.name);
            if (pfm_perf_encode(name, PFM_PLM3, &attr, sizeof attr, NULL, NULL) != PFM_SUCCESS)
                continue;
            if (ncovered < (int)(sizeof covered / sizeof covered[0]))
                covered[ncovered++] = (int)attr.type;
            break;
        }
    }
}

bool native_pfm_covers_type(int type)
{
    if (native_pfm_init() != PAPI_OK)
        return false;
    pthread_mutex_lock(&covered_lock);
    if (ncovered < 0)
        find_covered_locked();
    bool found = false;
    for (int i = 0; i < ncovered && !found; i++)
        found = covered[i] == type;
    pthread_mutex_unlock(&covered_lock);
    return found;
}

bool native_pfm_knows_core(void)
{
    /* libpfm4 detects this machine's CPU (cpuid), never a recorded one: a replayed
     * machine's core PMU is described by its own sysfs tree and cpuinfo. */
    if (fsroot_replaying() || native_pfm_init() != PAPI_OK)
        return false;
    for (int p = 0; p < PFM_PMU_MAX; p++) {
        const pfm_pmu_info_t *pi = pfm_pmu((pfm_pmu_t)p);
        if (pi && pi->is_present && pi->type == PFM_PMU_TYPE_CORE && strcmp(pi->name, "perf") &&
            strcmp(pi->name, "perf_raw") && strcmp(pi->name, "ix86arch") &&
            strcmp(pi->name, "arm_v8"))
            return true;
    }
    return false;
}

/* The model-specific core PMU libpfm4 detected (an architectural one, ix86arch or arm_v8,
 * only when there is no other), or NULL. */
const char *native_pfm_core_pmu_name(void)
{
    if (native_pfm_init() != PAPI_OK)
        return NULL;
    const char *arch = NULL;
    for (int p = 0; p < PFM_PMU_MAX; p++) {
        const pfm_pmu_info_t *pi = pfm_pmu((pfm_pmu_t)p);
        if (!pi || !pi->is_present || pi->type != PFM_PMU_TYPE_CORE)
            continue;
        if (strcmp(pi->name, "ix86arch") != 0 && strcmp(pi->name, "arm_v8") != 0)
            return pi->name;
        if (!arch)
            arch = pi->name;
    }
    return arch;
}

/* ---- the closest names, for a typo under one of libpfm4's PMUs ----------------------- */

/* Case-blind edit distance of a and b (b cut to 63 characters). */
static int distance(const char *a, const char *b)
{
    int row[64], lb = (int)strnlen(b, 63);
    for (int j = 0; j <= lb; j++)
        row[j] = j;
    for (int i = 1; a[i - 1]; i++) {
        int diag = row[0];
        row[0] = i;
        for (int j = 1; j <= lb; j++) {
            int up = row[j];
            int same = (a[i - 1] | 0x20) == (b[j - 1] | 0x20);
            int best = diag + !same;
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

bool native_pfm_closest(const char *name, char *out, size_t len)
{
    const char *sep = strstr(name, "::");
    if (!sep || native_pfm_init() != PAPI_OK)
        return false;
    char pmu[PAPI_MIN_STR_LEN], event[64];
    size_t pl = (size_t)(sep - name), el = strcspn(sep + 2, ":");
    if (pl >= sizeof pmu || el >= sizeof event)
        return false;
    memcpy(pmu, name, pl);
    pmu[pl] = '\0';
    memcpy(event, sep + 2, el);
    event[el] = '\0';
    pfm_pmu_info_t pi;
    int found = 0;
    for (int p = 0; p < PFM_PMU_MAX && !found; p++) {
        memset(&pi, 0, sizeof pi);
        pi.size = sizeof pi;
        found = pfm_get_pmu_info((pfm_pmu_t)p, &pi) == PFM_SUCCESS && pi.name &&
                strcmp(pi.name, pmu) == 0;
    }
    if (!found)
        return false;
    out[0] = '\0';
    if (!pi.is_present) {
        snprintf(out, len, "libpfm4's PMU '%s' is not this machine's", pmu);
        return true;
    }
    enum { KEEP = 3 };
    const char *best[KEEP] = {0};
    int dist[KEEP], most = el < 6 ? 2 : (int)el / 3;
    for (int ev = pi.first_event; ev >= 0; ev = pfm_get_event_next(ev)) {
        pfm_event_info_t info;
        if (!event_info(ev, PFM_OS_NONE, &info) || !info.name)
            continue;
        int d = distance(event, info.name);
        for (int k = 0; k < KEEP && d <= most; k++)
            if (!best[k] || d < dist[k]) {
                for (int m = KEEP - 1; m > k; m--) {
                    best[m] = best[m - 1];
                    dist[m] = dist[m - 1];
                }
                best[k] = info.name;
                dist[k] = d;
                break;
            }
    }
    str_appendf(out, len, "libpfm4's PMU '%s' has no event '%s'", pmu, event);
    for (int k = 0; k < KEEP && best[k]; k++)
        str_appendf(out, len, "%s%s::%s", k ? ", " : "; the closest: ", pmu, best[k]);
    if (!best[0])
        str_appendf(out, len, " (papi_native_avail lists its events)");
    return true;
}
