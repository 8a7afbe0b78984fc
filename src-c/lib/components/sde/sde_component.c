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
 * Values. A slot shows the core a count that only moves while its set runs: while
 * stopped, `shown`; while running, shown + the value PAPI reports, which for a
 * PAPI_SDE_DELTA counter is its change since PAPI_start (in its type: a double's or
 * float's difference, as bits) and for PAPI_SDE_INSTANT its value now. The core reports
 * count - count at start, that is exactly that value; stop adds it to `shown`. A counter
 * whose library unregistered it or shut down reads PAPI_ENOEVNT with its name.
 *
 * read() calls the library's callbacks (callback counters, groups of them), so it is
 * only as async-signal-safe as they are: PAPI's is the same. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "component.h"
#include "sde_lib.h"
#include "sde_papi7.h"
#include "sde_registry.h"

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

struct sde_slot {
    int id;
    long long key; /* with keys: the counter whatever its slot holds later */
    int mode, type;
    long long at_start; /* the value at the last start */
    uint64_t shown;     /* the count shown while stopped */
    char name[SDE_NAME_MAX];
};

struct cmp_context {
    const struct sde_registry_api *api;
    const struct sde_registry_keys *keys; /* NULL: read by id */
    struct sde_slot *slots;
    int nslots;
    int running;
    uint64_t ns, start_ns;
};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

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

static int ctx_create(const struct papi_component *self, const struct cmp_target *target,
                      struct cmp_context **ctx)
{
    (void)self;
    if ((target->tid > 0 && target->tid != getpid() && target->tid != gettid()) || target->cpu >= 0)
        return papi_error(PAPI_EINVAL, "software-defined events count in this process: they "
                                       "cannot be attached to another task or a CPU");
    *ctx = calloc(1, sizeof **ctx);
    if (!*ctx)
        return papi_error(PAPI_ENOMEM, "no memory for an sde context");
    return PAPI_OK;
}

static void ctx_destroy(struct cmp_context *ctx)
{
    if (!ctx)
        return;
    free(ctx->slots);
    free(ctx);
}

static int add(struct cmp_context *ctx, int local, int *slot)
{
    const struct sde_registry_api *api = registry();
    struct sde_reading r;
    if (ctx->nslots == SDE_MAX_SLOTS)
        return papi_error(PAPI_ECOUNT, "sde counts at most %d events per set", SDE_MAX_SLOTS);
    if (!(ctx->nslots & (ctx->nslots - 1))) { /* 0, 1, 2, 4 ...: room doubles */
        int cap = ctx->nslots ? 2 * ctx->nslots : 1;
        struct sde_slot *s = realloc(ctx->slots, (size_t)cap * sizeof *s);
        if (!s)
            return papi_error(PAPI_ENOMEM, "no memory for an sde slot");
        ctx->slots = s;
    }
    struct sde_slot *s = &ctx->slots[ctx->nslots];
    if (!api || api->name(local, s->name, sizeof s->name) != SDE_OK || api->read(local, &r))
        return gone(local);
    ctx->api = api;
    ctx->keys = __atomic_load_n(&found_keys, __ATOMIC_ACQUIRE);
    s->id = local;
    s->key = ctx->keys ? ctx->keys->key(local) : local;
    s->mode = r.mode;
    s->type = r.type;
    s->at_start = r.value;
    s->shown = 0;
    *slot = ctx->nslots++;
    return PAPI_OK;
}

static int remove_slot(struct cmp_context *ctx, int slot)
{
    if (slot < 0 || slot >= ctx->nslots)
        return papi_error(PAPI_EINVAL, "sde context has no slot %d", slot);
    memmove(&ctx->slots[slot], &ctx->slots[slot + 1],
            (size_t)(ctx->nslots - slot - 1) * sizeof *ctx->slots);
    ctx->nslots--;
    return PAPI_OK;
}

static uint64_t bits_of_double(double d)
{
    uint64_t v;
    memcpy(&v, &d, sizeof v);
    return v;
}

static uint64_t bits_of_float(float f)
{
    uint64_t v = 0;
    memcpy(&v, &f, sizeof f);
    return v;
}

/* What PAPI reports for slot s whose counter reads now (see Values above). */
static uint64_t reported(const struct sde_slot *s, long long now)
{
    if (s->mode & PAPI_SDE_INSTANT)
        return (uint64_t)now;
    if (s->type == PAPI_SDE_double) {
        double a, b;
        memcpy(&a, &s->at_start, sizeof a);
        memcpy(&b, &now, sizeof b);
        return bits_of_double(b - a);
    }
    if (s->type == PAPI_SDE_float) {
        float a, b;
        memcpy(&a, &s->at_start, sizeof a);
        memcpy(&b, &now, sizeof b);
        return bits_of_float(b - a);
    }
    return (uint64_t)now - (uint64_t)s->at_start;
}

static int read_gone(const struct sde_slot *s)
{
    return papi_error(PAPI_ENOEVNT,
                      "cannot read sde:::%s: the library unregistered it or shut down while "
                      "it was counted",
                      s->name);
}

/* A slot's counter now: by its key where the registry has keys (an id's generation
 * wraps after 64 reuses of its slot; the key's does not). */
static int read_slot(const struct cmp_context *ctx, const struct sde_slot *s, struct sde_reading *r)
{
    return ctx->keys ? ctx->keys->read_key(s->key, r) : ctx->api->read(s->id, r);
}

/* start, stop and reset read every slot then change the context. A counter gone since
 * start is refused by start and reset, and frozen at its last shown count by stop (a
 * set can always be stopped; its reads said the counter is gone). */
enum transition { START, STOP, RESET };

static int read_all(struct cmp_context *ctx, long long *now, char *ok, enum transition t)
{
    struct sde_reading r;
    for (int i = 0; i < ctx->nslots; i++) {
        ok[i] = read_slot(ctx, &ctx->slots[i], &r) == SDE_OK;
        if (!ok[i] && t != STOP)
            return read_gone(&ctx->slots[i]);
        now[i] = ok[i] ? r.value : 0;
        if (ok[i] && t == START) { /* a placeholder may have been registered since add */
            ctx->slots[i].mode = r.mode;
            ctx->slots[i].type = r.type;
        }
    }
    return PAPI_OK;
}

static int transition(struct cmp_context *ctx, enum transition t)
{
    long long *now = malloc((size_t)ctx->nslots * (sizeof *now + 1) + 1);
    if (!now)
        return papi_error(PAPI_ENOMEM, "no memory to read sde events");
    char *ok = (char *)(now + ctx->nslots);
    int ret = read_all(ctx, now, ok, t);
    for (int i = 0; i < ctx->nslots && ret == PAPI_OK; i++) {
        struct sde_slot *s = &ctx->slots[i];
        if (t == STOP)
            s->shown += ok[i] ? reported(s, now[i]) : 0;
        else
            s->at_start = now[i];
        if (t == RESET)
            s->shown = 0;
    }
    free(now);
    if (ret == PAPI_OK && t != RESET) {
        uint64_t ns = now_ns();
        if (t == STOP)
            ctx->ns += ns - ctx->start_ns;
        ctx->start_ns = ns;
        ctx->running = t == START;
    }
    return ret;
}

static int start(struct cmp_context *ctx)
{
    return transition(ctx, START);
}

static int stop(struct cmp_context *ctx)
{
    return transition(ctx, STOP);
}

/* A running set's counts start again from 0 (component.h): DELTA counters from their
 * value now, INSTANT ones still show their value. */
static int reset(struct cmp_context *ctx)
{
    return transition(ctx, RESET);
}

static int read_slots(struct cmp_context *ctx, struct cmp_count *out)
{
    uint64_t ns = ctx->ns + (ctx->running ? now_ns() - ctx->start_ns : 0);
    struct sde_reading r;
    for (int i = 0; i < ctx->nslots; i++) {
        const struct sde_slot *s = &ctx->slots[i];
        out[i].value = s->shown;
        if (ctx->running) {
            if (read_slot(ctx, s, &r) != SDE_OK)
                return read_gone(s);
            out[i].value += reported(s, r.value);
        }
        out[i].time_enabled = out[i].time_running = ns;
    }
    return PAPI_OK;
}

/* The fast path of PAPI_read and PAPI_accum (component.h): the counts without the
 * clock, which only a multiplexed set needs (CMP_READ_TIMES). */
static int read_values(struct cmp_context *ctx, struct cmp_count *out, uint64_t *baseline,
                       long long *values, int mode)
{
    uint64_t ns = 0;
    if (mode & CMP_READ_TIMES)
        ns = ctx->ns + (ctx->running ? now_ns() - ctx->start_ns : 0);
    struct sde_reading r;
    for (int i = 0; i < ctx->nslots; i++) {
        const struct sde_slot *s = &ctx->slots[i];
        if (ctx->running && read_slot(ctx, s, &r) != SDE_OK)
            return read_gone(s);
        out[i].value = s->shown + (ctx->running ? reported(s, r.value) : 0);
        if (mode & CMP_READ_TIMES)
            out[i].time_enabled = out[i].time_running = ns;
        uint64_t d = out[i].value - baseline[i];
        if (mode & CMP_READ_ACCUM) {
            values[i] += (long long)d;
            baseline[i] = out[i].value;
        } else {
            values[i] = (long long)d;
        }
    }
    return PAPI_OK;
}

/* The instance the registry lists (components/registry.c). */
struct papi_component sde_component PAPI_INTERNAL = {
    .name = "sde",
    .probe = probe,
    .fill_info = fill_info,
    .name_to_code = name_to_code,
    .code_to_name = code_to_name,
    .enumerate = enumerate,
    .event_info = event_info,
    .query = query,
    .ctx_create = ctx_create,
    .ctx_destroy = ctx_destroy,
    .add = add,
    .remove = remove_slot,
    .start = start,
    .stop = stop,
    .read = read_slots,
    .read_values = read_values,
    .reset = reset,
};
