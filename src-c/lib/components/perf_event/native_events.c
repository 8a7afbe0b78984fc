/* native_events.c: the table of native events, and the libpfm4 route to them (the
 * kernel's sysfs description, for what libpfm4 does not know, is in native_sysfs.c).
 *
 * An event's local code (component.h) is its index in a table of the events this
 * process has named or enumerated; both instances of the component share the table.
 * Entries are never moved or removed before shutdown,
 * so a code stays valid and code -> entry needs no lock. libpfm4 is initialised on the
 * first use (it costs ~2.5 ms, more than the whole of PAPI_library_init may). */
#include <perfmon/pfmlib.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "fsroot.h"
#include "perf_event_internal.h"
#include "scoped_env.h"
#include "str_append.h"
#include "pfm_perf_encode.h"
#include "pfm_pmus.h"
#include "sysfs_pmus.h"

#define CHUNK_BITS 10
#define CHUNK_SIZE (1 << CHUNK_BITS)
#define MAX_CHUNKS 1024 /* a million distinct native events per process */

static struct native_event *chunks[MAX_CHUNKS];
static atomic_int table_count;
/* Name -> index. A slot keeps its own key: an alias (the spelling a user gave, e.g.
 * "PAGE-FAULTS" for "perf::PAGE-FAULTS") must match by that spelling, or every lookup of
 * it would encode again and grow the table. */
struct name_slot {
    char *alias;    /* owned key when it differs from the entry's name, else NULL */
    unsigned value; /* index + 1, 0 = empty */
};
static struct name_slot *hash_slots;
static unsigned hash_size;
static unsigned hash_used;

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

int native_init(void)
{
    pthread_once(&pfm_once, pfm_init_once);
    if (pfm_status != PFM_SUCCESS)
        return papi_error(PAPI_ECMP, "libpfm4 failed to initialise: %s", pfm_strerror(pfm_status));
    return PAPI_OK;
}

void native_shutdown(void)
{
    int n = atomic_load(&table_count);
    for (int i = 0; i < n; i++) {
        struct native_event *e = &chunks[i >> CHUNK_BITS][i & (CHUNK_SIZE - 1)];
        free(e->name);
        pthread_mutex_destroy(&e->enc_lock);
    }
    for (int c = 0; c < MAX_CHUNKS && chunks[c]; c++) {
        free(chunks[c]);
        chunks[c] = NULL;
    }
    atomic_store(&table_count, 0);
    sysfs_pmus_reset(); /* the next init may replay another machine (fsroot.h) */
    pthread_mutex_lock(&covered_lock);
    ncovered = -1;
    pthread_mutex_unlock(&covered_lock);
    for (unsigned i = 0; i < hash_size; i++)
        free(hash_slots[i].alias);
    free(hash_slots);
    hash_slots = NULL;
    hash_size = 0;
    hash_used = 0;
    /* libpfm4 stays initialised: pfm_terminate + pfm_initialize again is not safe in
     * every libpfm4 release, and its tables are read-only. */
}

static unsigned name_hash(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

struct native_event *native_lookup(int idx)
{
    if (idx < 0 || idx >= atomic_load_explicit(&table_count, memory_order_acquire))
        return NULL;
    return &chunks[idx >> CHUNK_BITS][idx & (CHUNK_SIZE - 1)];
}

static const char *slot_key(const struct name_slot *s)
{
    unsigned v = s->value;
    return s->alias ? s->alias : chunks[(v - 1) >> CHUNK_BITS][(v - 1) & (CHUNK_SIZE - 1)].name;
}

/* Caller holds the library lock (papi_sdk.h: fork takes it, so the table is whole in a
 * forked child). */
static int find_locked(const char *name)
{
    if (!hash_size)
        return -1;
    for (unsigned h = name_hash(name) & (hash_size - 1);; h = (h + 1) & (hash_size - 1)) {
        if (!hash_slots[h].value)
            return -1;
        if (strcmp(slot_key(&hash_slots[h]), name) == 0)
            return (int)hash_slots[h].value - 1;
    }
}

/* name is the entry's own name (stored there) or an alias (copied here). */
static int hash_insert_locked(const char *name, unsigned value, int alias)
{
    if (hash_used * 2 >= hash_size) {
        unsigned nsize = hash_size ? hash_size * 2 : 1024;
        struct name_slot *n = calloc(nsize, sizeof *n);
        if (!n)
            return PAPI_ENOMEM;
        for (unsigned i = 0; i < hash_size; i++) {
            if (!hash_slots[i].value)
                continue;
            unsigned h = name_hash(slot_key(&hash_slots[i])) & (nsize - 1);
            while (n[h].value)
                h = (h + 1) & (nsize - 1);
            n[h] = hash_slots[i];
        }
        free(hash_slots);
        hash_slots = n;
        hash_size = nsize;
    }
    char *copy = NULL;
    if (alias && !(copy = strdup(name)))
        return PAPI_ENOMEM;
    unsigned h = name_hash(name) & (hash_size - 1);
    while (hash_slots[h].value)
        h = (h + 1) & (hash_size - 1);
    hash_slots[h].value = value;
    hash_slots[h].alias = copy;
    hash_used++;
    return PAPI_OK;
}

static enum pe_class pmu_class(pfm_pmu_t pmu)
{
    const pfm_pmu_info_t *pinfo = pfm_pmu(pmu);
    return pinfo && pinfo->type == PFM_PMU_TYPE_UNCORE ? PE_UNCORE : PE_CORE;
}

/* A new entry called name (not yet in the hash); NULL when the table is full. */
static struct native_event *new_entry_locked(const char *name, int *out_idx)
{
    int idx = atomic_load(&table_count);
    if (idx >= MAX_CHUNKS * CHUNK_SIZE)
        return NULL;
    if (!chunks[idx >> CHUNK_BITS]) {
        chunks[idx >> CHUNK_BITS] = calloc(CHUNK_SIZE, sizeof(struct native_event));
        if (!chunks[idx >> CHUNK_BITS])
            return NULL;
    }
    struct native_event *e = &chunks[idx >> CHUNK_BITS][idx & (CHUNK_SIZE - 1)];
    memset(e, 0, sizeof *e);
    e->name = strdup(name);
    if (!e->name)
        return NULL;
    *out_idx = idx;
    return e;
}

/* Publish entry idx (filled by the caller) under its name. */
static int publish_locked(struct native_event *e, int idx)
{
    pthread_mutex_init(&e->enc_lock, NULL);
    if (hash_insert_locked(e->name, (unsigned)idx + 1, 0) != PAPI_OK) {
        pthread_mutex_destroy(&e->enc_lock);
        free(e->name);
        e->name = NULL;
        return PAPI_ENOMEM;
    }
    atomic_store_explicit(&table_count, idx + 1, memory_order_release);
    return idx;
}

int native_intern_sysfs(const char *canon, const char *alias, int pmu, int event, enum pe_class cls,
                        int explicit_plm, const struct perf_event_attr *attr)
{
    papi_library_lock();
    int idx = find_locked(canon);
    if (idx < 0) {
        struct native_event *e = new_entry_locked(canon, &idx);
        if (!e) {
            idx = PAPI_ENOMEM;
        } else {
            e->route = ROUTE_SYSFS;
            e->pfm_idx = e->umask_idx = -1;
            e->sysfs_pmu = pmu;
            e->sysfs_event = event;
            e->cls = cls;
            e->explicit_plm = explicit_plm;
            e->attr = *attr;
            e->attr_plm = PFM_PLM3;
            idx = publish_locked(e, idx);
        }
    }
    if (idx >= 0 && alias && strcmp(canon, alias) != 0 && find_locked(alias) < 0)
        hash_insert_locked(alias, (unsigned)idx + 1, 1);
    papi_library_unlock();
    return idx;
}

int native_intern_hybrid(const char *name, const int *subs, int nsub)
{
    papi_library_lock();
    int idx = find_locked(name);
    if (idx < 0) {
        struct native_event *e = new_entry_locked(name, &idx);
        if (!e) {
            idx = PAPI_ENOMEM;
        } else {
            e->route = ROUTE_HYBRID;
            e->pfm_idx = e->umask_idx = -1;
            e->sysfs_pmu = e->sysfs_event = -1;
            e->cls = PE_CORE;
            e->attr_plm = -1;
            e->nsub = nsub;
            memcpy(e->sub, subs, (size_t)nsub * sizeof *subs);
            e->hybrid_known = 1;
            idx = publish_locked(e, idx);
        }
    }
    papi_library_unlock();
    return idx;
}

int native_intern_pinned(const char *name, int pfm_idx, int pmu, int explicit_plm,
                         const struct perf_event_attr *attr)
{
    papi_library_lock();
    int idx = find_locked(name);
    if (idx < 0) {
        struct native_event *e = new_entry_locked(name, &idx);
        if (!e) {
            idx = PAPI_ENOMEM;
        } else {
            e->route = ROUTE_PFM;
            e->pfm_idx = pfm_idx;
            e->umask_idx = -1;
            e->sysfs_pmu = pmu;
            e->sysfs_event = -1;
            e->cls = PE_CORE;
            e->explicit_plm = explicit_plm;
            e->attr = *attr;
            e->attr_plm = PFM_PLM3;
            e->hybrid_known = 1; /* one core PMU: never summed */
            idx = publish_locked(e, idx);
        }
    }
    papi_library_unlock();
    return idx;
}

/* Get or insert; returns the table index or a negative PAPI error. Caller holds the lock. */
static int intern_locked(const char *name, int pfm_idx, int umask_idx, int explicit_plm,
                         const struct perf_event_attr *attr, int attr_plm)
{
    int found = find_locked(name);
    if (found >= 0)
        return found;
    int idx;
    struct native_event *e = new_entry_locked(name, &idx);
    if (!e)
        return PAPI_ENOMEM;
    e->route = ROUTE_PFM;
    e->pfm_idx = pfm_idx;
    e->umask_idx = umask_idx;
    e->sysfs_pmu = -1;
    e->explicit_plm = explicit_plm;
    pfm_event_info_t einfo;
    memset(&einfo, 0, sizeof einfo);
    einfo.size = sizeof einfo;
    e->cls = PE_CORE;
    if (pfm_get_event_info(pfm_idx, PFM_OS_NONE, &einfo) == PFM_SUCCESS)
        e->cls = pmu_class(einfo.pmu);
    if (attr) {
        e->attr = *attr;
        e->attr_plm = attr_plm;
    } else {
        e->attr_plm = -1;
    }
    return publish_locked(e, idx);
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

    papi_library_lock();
    int idx = find_locked(name);
    papi_library_unlock();
    if (idx >= 0) {
        *code = idx;
        return PAPI_OK;
    }

    /* "perf::CYCLES@cpu_atom": a generic event on one core PMU of a hybrid machine. */
    const char *at = strrchr(name, '@');
    if (at && at > name && at[1] && !strchr(at, ':'))
        return native_hybrid_pinned_to_code(name, at, code);

    struct perf_event_attr attr;
    int pfm_idx = -1;
    ret = pfm_perf_encode(name, PFM_PLM3, &attr, sizeof attr, NULL, &pfm_idx);
    if (ret != PFM_SUCCESS && !strstr(name, "::")) {
        /* No PMU named: the core PMU's (each core type's on a hybrid machine) sysfs event. */
        if (native_hybrid_name_to_code(name, code) == PAPI_OK)
            return PAPI_OK;
        char why[PAPI_HUGE_STR_LEN]; /* a copy: papi_error writes where the detail is */
        papi_strcpy(why, sizeof why, papi_last_error_detail());
        return papi_error(PAPI_ENOEVNT, "native event '%s': %s (libpfm4); %s (kernel sysfs)", name,
                          pfm_strerror(ret), why);
    }
    if (ret != PFM_SUCCESS)
        return native_sysfs_name_to_code(name, pfm_strerror(ret), code);

    /* Canonical name: "pmu::" + the event and modifiers as the user spelled them. */
    pfm_event_info_t einfo;
    const pfm_pmu_info_t *pinfo;
    memset(&einfo, 0, sizeof einfo);
    einfo.size = sizeof einfo;
    if (pfm_get_event_info(pfm_idx, PFM_OS_NONE, &einfo) != PFM_SUCCESS ||
        !(pinfo = pfm_pmu(einfo.pmu)))
        return papi_error(PAPI_EBUG, "libpfm4 encoded '%s' but cannot describe it", name);
    const char *ev = strstr(name, "::");
    ev = ev ? ev + 2 : name;
    const char *mods = strchr(ev, ':');
    char canon[PAPI_HUGE_STR_LEN];
    int n = snprintf(canon, sizeof canon, "%s::%s", pinfo->name, ev);
    if (n < 0 || (size_t)n >= sizeof canon)
        return papi_error(PAPI_EINVAL, "event name '%s' is too long", name);

    int explicit_plm = has_plm_modifier(mods);
    papi_library_lock();
    idx = intern_locked(canon, pfm_idx, -1, explicit_plm, &attr, PFM_PLM3);
    /* The spelling the user gave maps to the same entry. */
    if (idx >= 0 && strcmp(canon, name) != 0 && find_locked(name) < 0)
        hash_insert_locked(name, (unsigned)idx + 1, 1);
    papi_library_unlock();
    if (idx < 0)
        return papi_error(idx, "cannot record native event '%s'", name);
    *code = idx;
    return PAPI_OK;
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
    if (e->sysfs_pmu >= 0) {
        int ret = native_sysfs_pmu_here(e->sysfs_pmu, e->name);
        if (ret != PAPI_OK)
            return ret;
    }
    int plm = domain_to_plm(domain);
    pthread_mutex_lock(&e->enc_lock);
    if (e->attr_plm < 0 || (!e->explicit_plm && e->attr_plm != plm)) {
        int ret = native_init();
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

/* ---- enumeration -------------------------------------------------------------------- */

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
    memset(&einfo, 0, sizeof einfo);
    einfo.size = sizeof einfo;
    if (pfm_get_event_info(pfm_idx, PFM_OS_PERF_EVENT_EXT, &einfo) != PFM_SUCCESS ||
        !(pinfo = pfm_pmu(einfo.pmu)))
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
    papi_library_lock();
    int idx = intern_locked(name, pfm_idx, umask_idx, 0, NULL, -1);
    /* An entry made by name may carry the index of the event an alias stands for;
     * enumeration must continue from the alias's own place in libpfm4's table. */
    if (idx >= 0) {
        struct native_event *e = &chunks[idx >> CHUNK_BITS][idx & (CHUNK_SIZE - 1)];
        e->pfm_idx = pfm_idx;
        e->umask_idx = umask_idx;
    }
    papi_library_unlock();
    if (idx < 0)
        return idx;
    *code = idx;
    return PAPI_OK;
}

/* libpfm4's PMUs first, then the sysfs route's. */
static int first_event_from(int pmu_start, enum pe_class cls, int *code)
{
    for (int pmu = pmu_start; pmu < PFM_PMU_MAX; pmu++) {
        const pfm_pmu_info_t *pinfo = pmu_in_class((pfm_pmu_t)pmu, cls);
        if (pinfo && pinfo->nevents > 0)
            return intern_enumerated(pinfo->first_event, -1, code);
    }
    return native_sysfs_enum_first(0, cls, code);
}

static int next_umask(int pfm_idx, int after, int *code)
{
    pfm_event_info_t einfo;
    memset(&einfo, 0, sizeof einfo);
    einfo.size = sizeof einfo;
    if (pfm_get_event_info(pfm_idx, PFM_OS_PERF_EVENT_EXT, &einfo) != PFM_SUCCESS)
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
    if (modifier == PAPI_NTV_ENUM_UMASKS)
        return next_umask(e->pfm_idx, e->umask_idx, code);
    int next = pfm_get_event_next(e->pfm_idx);
    if (next >= 0)
        return intern_enumerated(next, -1, code);
    pfm_event_info_t einfo;
    memset(&einfo, 0, sizeof einfo);
    einfo.size = sizeof einfo;
    if (pfm_get_event_info(e->pfm_idx, PFM_OS_NONE, &einfo) != PFM_SUCCESS)
        return PAPI_ENOEVNT;
    return first_event_from((int)einfo.pmu + 1, cls, code);
}

int native_count_for_class(enum pe_class cls)
{
    if (native_init() != PAPI_OK)
        return 0;
    int total = 0;
    for (int pmu = 0; pmu < PFM_PMU_MAX; pmu++) {
        const pfm_pmu_info_t *pinfo = pmu_in_class((pfm_pmu_t)pmu, cls);
        if (pinfo)
            total += pinfo->nevents;
    }
    return total + native_sysfs_count(cls);
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
    pfm_event_info_t einfo;
    memset(&einfo, 0, sizeof einfo);
    einfo.size = sizeof einfo;
    if (pfm_get_event_info(e->pfm_idx, PFM_OS_PERF_EVENT_EXT, &einfo) == PFM_SUCCESS) {
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
    if (native_pfm_knows_core())
        for (int pmu = 0; pmu < PFM_PMU_MAX; pmu++) {
            const pfm_pmu_info_t *pinfo = pmu_in_class((pfm_pmu_t)pmu, PE_CORE);
            if (pinfo && pinfo->type == PFM_PMU_TYPE_CORE && strcmp(pinfo->name, "perf") &&
                strcmp(pinfo->name, "perf_raw"))
                return pinfo->num_cntrs + pinfo->num_fixed_cntrs;
        }
    for (int i = 0, n = sysfs_pmu_count(); i < n; i++)
        if (sysfs_pmu_brief(i)->kind == SYSFS_PMU_CORE)
            return SYSFS_CORE_COUNTERS;
    return 0;
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
            memset(&einfo, 0, sizeof einfo);
            einfo.size = sizeof einfo;
            if (pfm_get_event_info(ev, PFM_OS_NONE, &einfo) != PFM_SUCCESS)
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
    if (native_init() != PAPI_OK)
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
    if (fsroot_replaying() || native_init() != PAPI_OK)
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
static const char *pfm_core_pmu_name(void)
{
    if (native_init() != PAPI_OK)
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

/* The preset tables' CPU (component.h preset_pmu): libpfm4's model name when it knows
 * this CPU, else the name of the CPU model the kernel's sysfs core PMU belongs to
 * (sysfs_cpu_model.c), else libpfm4's architectural or generic one. */
const char *native_core_pmu_name(void)
{
    if (native_pfm_knows_core())
        return pfm_core_pmu_name();
    const char *model = sysfs_cpu_model_table();
    if (model || fsroot_replaying())
        return model; /* a recorded CPU without a table of its own: generic presets */
    return pfm_core_pmu_name();
}
