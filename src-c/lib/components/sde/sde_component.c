/* sde_component.c: the "sde" component, software-defined events: the counters that
 * libraries export through libsde (sde_lib.h), named sde:::LIB::COUNTER as PAPI 7 names
 * them. libpapi does not link libsde: the registry entry (sde_registry.h) is looked up
 * at run time, in the process's global scope (a program linked with -lsde, shared or
 * static with -rdynamic) or in libsde.so.1 when something loaded it locally, until it
 * is found; a program without libsde has an enabled sde component with no events. When
 * the libsde loaded is another PAPI 7 one (Debian's libsde1), its tools interface is
 * read instead (sde_papi7.c).
 * Counters registered before or after PAPI_library_init are all found: libsde holds
 * them, and every name, enumeration and read asks it. Local code = libsde's id. As in
 * PAPI 7, a well-formed name that no library registered yet is a placeholder that reads
 * 0 until its library registers it (then counts from the next PAPI_start).
 *
 * Values (the slot engine's, slot_engine.h). A slot shows the core a count that only
 * moves while its set runs: while stopped, what it counted; while running, that + the
 * value PAPI reports, which for a PAPI_SDE_DELTA counter is its change since PAPI_start
 * (in its type: a double's or float's difference, as bits) and for PAPI_SDE_INSTANT its
 * value now. The core reports count - count at start, that is exactly that value; stop
 * adds it. A counter whose library unregistered it or shut down reads PAPI_ENOEVNT with
 * its name.
 *
 * read() calls the library's callbacks (callback counters, groups of them), so it is
 * only as async-signal-safe as they are: PAPI's is the same. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "component.h"
#include "sde_lib.h"
#include "sde_papi7.h"
#include "sde_registry.h"
#include "slot_engine.h"

#define SDE_PREFIX    "sde:::"
#define SDE_MAX_SLOTS 256

static const struct sde_registry_api *found; /* atomic; NULL until libsde is loaded */
/* atomic; NULL with ids only (a PAPI 7 libsde, or one of ours older than keys) */
static const struct sde_registry_keys *found_keys;

/* The registry of a libsde in handle: ours, else a PAPI 7 libsde's tools interface. */
static const struct sde_registry_api *registry_in(void *handle)
{
    sde_registry_fn entry = (sde_registry_fn)(uintptr_t)dlsym(handle, SDE_REGISTRY_ENTRY);
    const struct sde_registry_api *api = entry ? entry() : NULL;
    if (api && api->version == SDE_REGISTRY_VERSION) {
        sde_registry_keys_fn keys =
            (sde_registry_keys_fn)(uintptr_t)dlsym(handle, SDE_REGISTRY_KEYS_ENTRY);
        if (keys) /* before found is published: whoever sees found sees these */
            __atomic_store_n(&found_keys, keys(), __ATOMIC_RELEASE);
        return api;
    }
    return sde_papi7_registry(handle);
}

/* libsde's registry, or NULL when no libsde is loaded (yet). */
static const struct sde_registry_api *registry(void)
{
    const struct sde_registry_api *api = __atomic_load_n(&found, __ATOMIC_ACQUIRE);
    if (api)
        return api;
    api = registry_in(RTLD_DEFAULT);
    if (!api) {
        /* Loaded by a library opened RTLD_LOCAL: found by its soname, kept loaded. */
        void *h = dlopen("libsde.so.1", RTLD_LAZY | RTLD_NOLOAD);
        api = h ? registry_in(h) : NULL;
    }
    if (api)
        __atomic_store_n(&found, api, __ATOMIC_RELEASE);
    return api;
}

/* A slot's data (the engine counts it: slot_engine.h). */
struct sde_slot {
    int id;
    long long key; /* with keys: the counter whatever its slot holds later */
    char name[SDE_NAME_MAX];
};

/* A context's own data: the registry its slots were found in. */
struct sde_own {
    const struct sde_registry_api *api;
    const struct sde_registry_keys *keys; /* NULL: read by id */
};

static int probe(struct papi_component *self, struct cmp_status *out)
{
    (void)self;
    out->disabled = 0;
    out->num_counters = SDE_MAX_SLOTS;
    return PAPI_OK;
}

static int count_events(const struct sde_registry_api *api)
{
    int n = 0;
    for (int id = api ? api->next(-1) : -1; id >= 0; id = api->next(id))
        n++;
    return n;
}

static void fill_info(const struct papi_component *self, PAPI_component_info_t *info)
{
    snprintf(info->name, sizeof info->name, "%s", self->name);
    snprintf(info->short_name, sizeof info->short_name, "%s", self->name);
    snprintf(info->description, sizeof info->description,
             "Software-defined events: counters that libraries export through libsde");
    info->num_native_events = count_events(registry());
    info->num_cntrs = info->num_mpx_cntrs = SDE_MAX_SLOTS;
    info->default_domain = info->available_domains = PAPI_DOM_ALL;
    info->default_granularity = PAPI_GRN_THR;
    info->available_granularities = PAPI_GRN_THR | PAPI_GRN_PROC;
}

static int name_to_code(const struct papi_component *self, const char *name, int *local)
{
    (void)self;
    if (strncmp(name, SDE_PREFIX, strlen(SDE_PREFIX)) != 0)
        return PAPI_ENOEVNT; /* quietly: the core asks every component */
    const struct sde_registry_api *api = registry();
    int id = api ? api->find(name + strlen(SDE_PREFIX)) : -1;
    if (!api)
        return papi_error(PAPI_ENOEVNT,
                          "%s: libsde is not loaded in this process, so no library "
                          "exports software-defined events",
                          name);
    if (id < 0 || id > CMP_LOCAL_MASK)
        return papi_error(PAPI_ENOEVNT,
                          "%s is not a software-defined event name (sde:::LIB::COUNTER, "
                          "without white space or ':::' in LIB::COUNTER)",
                          name);
    *local = id;
    return PAPI_OK;
}

static int gone(int local)
{
    return papi_error(PAPI_ENOEVNT,
                      "the software-defined event %d is gone (unregistered, or its library "
                      "shut down)",
                      local);
}

static int code_to_name(const struct papi_component *self, int local, char *out, size_t len)
{
    (void)self;
    char name[SDE_NAME_MAX];
    const struct sde_registry_api *api = registry();
    if (!api || api->name(local, name, sizeof name) != SDE_OK)
        return gone(local);
    if ((size_t)snprintf(out, len, SDE_PREFIX "%s", name) >= len)
        return papi_error(PAPI_EBUF, "sde event name longer than %zu bytes", len - 1);
    return PAPI_OK;
}

static int enumerate(const struct papi_component *self, int *local, int modifier)
{
    (void)self;
    const struct sde_registry_api *api = registry();
    if (!api || (modifier != PAPI_ENUM_FIRST && modifier != PAPI_ENUM_EVENTS))
        return PAPI_ENOEVNT; /* no events, or qualifiers: SDEs have none */
    int next = api->next(modifier == PAPI_ENUM_FIRST ? -1 : *local);
    if (next < 0 || next > CMP_LOCAL_MASK)
        return PAPI_ENOEVNT;
    *local = next;
    return PAPI_OK;
}

static int event_info(const struct papi_component *self, int local, PAPI_event_info_t *info)
{
    const struct sde_registry_api *api = registry();
    char name[SDE_NAME_MAX], descr[PAPI_HUGE_STR_LEN];
    struct sde_reading r;
    if (!api || api->name(local, name, sizeof name) != SDE_OK ||
        api->describe(local, descr, sizeof descr) != SDE_OK || api->read(local, &r) != SDE_OK)
        return gone(local);
    snprintf(info->symbol, sizeof info->symbol, SDE_PREFIX "%.*s",
             (int)(sizeof info->symbol - sizeof SDE_PREFIX), name);
    snprintf(info->short_descr, sizeof info->short_descr, "%.63s", descr);
    snprintf(info->long_descr, sizeof info->long_descr, "%s", descr);
    info->component_index = self->cidx;
    info->data_type = r.type == PAPI_SDE_double || r.type == PAPI_SDE_float ? PAPI_DATATYPE_FP64
                                                                            : PAPI_DATATYPE_INT64;
    info->value_type =
        r.mode & PAPI_SDE_INSTANT ? PAPI_VALUETYPE_ABSOLUTE : PAPI_VALUETYPE_RUNNING_SUM;
    info->timescope = r.mode & PAPI_SDE_INSTANT ? PAPI_TIMESCOPE_POINT : PAPI_TIMESCOPE_SINCE_START;
    return PAPI_OK;
}

static int query(const struct papi_component *self, int local, int domain)
{
    (void)self, (void)domain;
    const struct sde_registry_api *api = registry();
    char name[8];
    return api && api->name(local, name, sizeof name) == SDE_OK ? PAPI_OK : PAPI_ENOEVNT;
}

/* What a counter of this mode and type counts (see Values above). */
static struct slot_kind kind_of(int mode, int type)
{
    return (struct slot_kind){
        .instant = (mode & PAPI_SDE_INSTANT) != 0,
        .growth = type == PAPI_SDE_double  ? SLOT_F64
                  : type == PAPI_SDE_float ? SLOT_F32
                                           : SLOT_U64,
    };
}

static int open_slot(struct cmp_context *c, int local, void *data, struct slot_kind *kind)
{
    const struct sde_registry_api *api = registry();
    struct sde_own *own = slot_own(c);
    struct sde_slot *s = data;
    struct sde_reading r;
    if (!api || api->name(local, s->name, sizeof s->name) != SDE_OK || api->read(local, &r))
        return gone(local);
    own->api = api;
    own->keys = __atomic_load_n(&found_keys, __ATOMIC_ACQUIRE);
    s->id = local;
    s->key = own->keys ? own->keys->key(local) : local;
    *kind = kind_of(r.mode, r.type);
    return PAPI_OK;
}

/* The counter of slot i, whose data is s, now: by key where the registry has keys (an
 * id's generation wraps after 64 reuses of its slot; the key's does not). */
static inline int read_slot(const struct cmp_context *c, const struct sde_slot *s, int i,
                            struct sde_reading *r, struct slot_fail *f)
{
    const struct sde_own *own = slot_own(c);
    if ((own->keys ? own->keys->read_key(s->key, r) : own->api->read(s->id, r)) == SDE_OK)
        return PAPI_OK;
    *f = (struct slot_fail){.err = 1, .slot = i};
    return PAPI_ENOEVNT;
}

/* The counters of slots from .. from + n - 1 now (the read function). At start, a
 * placeholder may have been registered since add: its mode and type are taken again. */
static int read_counters(struct cmp_context *c, enum slot_phase phase, int from, int n,
                         uint64_t *raw, struct slot_fail *f)
{
    for (int i = 0; i < n; i++) {
        struct sde_reading r;
        if (read_slot(c, slot_data(c, from + i), from + i, &r, f) != PAPI_OK)
            return PAPI_ENOEVNT;
        if (phase == SLOT_START) {
            struct slot_kind kind = kind_of(r.mode, r.type);
            slot_set_kind(c, from + i, &kind);
        }
        raw[i] = (uint64_t)r.value;
    }
    return PAPI_OK;
}

/* One slot's counter for PAPI_read's fast path (slot_read_values_each). */
static inline int read_one(const struct cmp_context *c, const void *data, int i, uint64_t *raw,
                           struct slot_fail *f)
{
    struct sde_reading r;
    int ret = read_slot(c, data, i, &r, f);
    *raw = ret == PAPI_OK ? (uint64_t)r.value : 0;
    return ret;
}

static int read_gone(const struct cmp_context *c, const struct slot_fail *f)
{
    const struct sde_slot *s = slot_data(c, f->slot);
    return papi_error(PAPI_ENOEVNT,
                      "cannot read sde:::%s: the library unregistered it or shut down while "
                      "it was counted",
                      s->name);
}

/* A counter gone since start is refused by start and reset, and frozen at its last
 * count by stop (a set can always be stopped; its reads said the counter is gone). */
static const struct slot_ops sde_ops = {
    .own_size = sizeof(struct sde_own),
    .slot_size = sizeof(struct sde_slot),
    .max_slots = SDE_MAX_SLOTS,
    .lost = SLOT_LOST_FREEZES,
    .open = open_slot,
    .read = read_counters,
    .explain = read_gone,
};

static int ctx_create(const struct papi_component *self, const struct cmp_target *target,
                      struct cmp_context **ctx)
{
    if ((target->tid > 0 && target->tid != getpid() && target->tid != gettid()) || target->cpu >= 0)
        return papi_error(PAPI_EINVAL, "software-defined events count in this process: they "
                                       "cannot be attached to another task or a CPU");
    return slot_ctx_create(self, &sde_ops, "sde", ctx);
}

/* PAPI_read's fast path: the engine's, each slot read by read_one inlined in its pass
 * (bench/README.md: no call through the engine's read function per read). */
static int read_values(struct cmp_context *c, struct cmp_count *out, uint64_t *baseline,
                       long long *values, int mode)
{
    return slot_read_values_each(c, out, baseline, values, mode, read_one);
}

/* The instance the registry lists (components/registry.c). The engine's reset: a
 * running set's counts start again from 0 (component.h), DELTA counters from their
 * value now, INSTANT ones still show their value. */
struct papi_component sde_component PAPI_INTERNAL = {
    .name = "sde",
    SLOT_COMPONENT_CALLBACKS,
    .read_values = read_values,
    .reset = slot_reset,
};
