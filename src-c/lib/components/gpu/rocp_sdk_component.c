/* rocp_sdk_component.c: the "rocp_sdk" component, AMD GPUs' hardware counters through
 * rocprofiler-sdk's dispatch counting service. librocprofiler-sdk is found at run time
 * (rocp_sdk_libs.c), never linked. Events are named as PAPI 7.2's rocp_sdk component names
 * them:
 *     rocp_sdk:::<counter>:device=<N>                          (the listed form)
 *     rocp_sdk:::<counter>[:device=<N>][:<DIMENSION>=<i>]...   (any order, each once)
 * where <counter> is the SDK's name (SQ_WAVES, GRBM_COUNT, TCC_HIT ...) and <DIMENSION> one
 * of the counter's dimensions (DIMENSION_XCC, DIMENSION_SHADER_ENGINE ...): a dimension
 * named counts that instance only, the others are summed; without :device, device 0.
 *
 * Counting (rocp_sdk_dispatch.c): from PAPI_start to PAPI_stop, every kernel the set's
 * thread dispatches on one of the set's devices is counted (the SDK's counts of that
 * dispatch added to the set's events), as PAPI 7.2's dispatch mode counts; kernels of
 * other threads are theirs. The counts of a dispatch arrive when the kernel has finished:
 * a read after the kernel's completion (hipDeviceSynchronize) sees them. Values are the
 * SDK's doubles truncated to integers, as PAPI 7.2's.
 *
 * PAPI_library_init only finds the library; registering with the SDK (force_configure),
 * the agents and their counter lists wait for the first question about the component's
 * events or state, as cuda's discovery does. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_table.h"
#include "rocp_sdk_dispatch.h"
#include "rocp_sdk_libs.h"
#include "slot_engine.h"

#define ROCP_PREFIX        "rocp_sdk:::"
#define ROCP_QUALIFIED     (1 << 24) /* local codes of qualified names begin here */
#define ROCP_MAX_QUALIFIED 256
#define ROCP_DIM_NAME      48

/* A listed event: one counter of one device. */
struct rocp_event {
    union {
        struct table_event common;
        struct {
            TABLE_EVENT_FIELDS
        };
    };
    int device;
    uint64_t counter;
    int ndims;
    struct {
        char name[ROCP_DIM_NAME];
        size_t size;
        rocprofiler_counter_dimension_id_t id;
    } dims[ROCP_MAX_DIMS];
};

/* A name with dimension qualifiers: its listed event and the instances it picks. Made at
 * its first PAPI_event_name_to_code, never changed after (read without a lock). */
struct rocp_qualified {
    int base;
    int ndims;
    int dim_index[ROCP_MAX_DIMS]; /* into the base event's dims */
    size_t pos[ROCP_MAX_DIMS];
    char name[PAPI_MAX_STR_LEN];
};

static struct rocp_qualified qualified[ROCP_MAX_QUALIFIED];
static atomic_int nqualified;

static void rocp_release(void)
{
    atomic_store(&nqualified, 0); /* they name events of the table being cleared */
}

static struct table_source rocp_source = {
    .prefix = ROCP_PREFIX,
    .description = "AMD GPUs' hardware counters per kernel dispatch through rocprofiler-sdk "
                   "(librocprofiler-sdk, loaded at run time)",
    .release = rocp_release,
};

static const struct rocp_event *event_at(int index)
{
    return (const struct rocp_event *)(const void *)event_table_at(&rocp_source.table, index);
}

/* ---- discovery ---------------------------------------------------------------------- */
/* The GPU agents, copied in the callback (the SDK's agents are its to keep). */
struct agent_list {
    rocprofiler_agent_id_t gpu[ROCP_MAX_DEVICES];
    int seen[ROCP_MAX_DEVICES];
    char name[ROCP_MAX_DEVICES][64];     /* gfx90a */
    char product[ROCP_MAX_DEVICES][128]; /* the marketing name */
    int ngpus, ncpus, beyond;            /* GPUs past ROCP_MAX_DEVICES */
};

static rocprofiler_status_t on_agents(rocprofiler_agent_version_t version, const void **agents,
                                      size_t n, void *data)
{
    (void)version;
    struct agent_list *l = data;
    size_t reach = offsetof(rocprofiler_agent_v0_t, logical_node_type_id) + sizeof(int32_t);
    int order = 0;
    for (size_t i = 0; i < n; i++) {
        const rocprofiler_agent_v0_t *a = agents[i];
        if (a->type == ROCPROFILER_AGENT_TYPE_CPU)
            l->ncpus++;
        if (a->type != ROCPROFILER_AGENT_TYPE_GPU)
            continue;
        /* The GPU's index as HIP numbers it, where the agent is recent enough to say. */
        int d = a->size >= reach ? a->logical_node_type_id : order;
        order++;
        if (d < 0 || d >= ROCP_MAX_DEVICES) {
            l->beyond++;
            continue;
        }
        l->gpu[d] = a->id;
        l->seen[d] = 1;
        snprintf(l->name[d], sizeof l->name[d], "%s", a->name ? a->name : "gpu");
        snprintf(l->product[d], sizeof l->product[d], "%s", a->product_name ? a->product_name : "");
        l->ngpus = d + 1 > l->ngpus ? d + 1 : l->ngpus;
    }
    return ROCPROFILER_STATUS_SUCCESS;
}

struct id_list {
    uint64_t *id;
    size_t n;
};

static rocprofiler_status_t on_counters(rocprofiler_agent_id_t agent,
                                        rocprofiler_counter_id_t *counters, size_t n, void *data)
{
    (void)agent;
    struct id_list *l = data;
    free(l->id);
    l->id = calloc(n ? n : 1, sizeof *l->id);
    l->n = l->id ? n : 0;
    for (size_t i = 0; i < l->n; i++)
        l->id[i] = counters[i].handle;
    return ROCPROFILER_STATUS_SUCCESS;
}

static rocprofiler_status_t on_dimensions(rocprofiler_counter_id_t id,
                                          const rocprofiler_record_dimension_info_t *dims, size_t n,
                                          void *data)
{
    (void)id;
    struct rocp_event *e = data;
    for (size_t i = 0; i < n && e->ndims < ROCP_MAX_DIMS; i++, e->ndims++) {
        snprintf(e->dims[e->ndims].name, ROCP_DIM_NAME, "%s", dims[i].name ? dims[i].name : "");
        e->dims[e->ndims].size = dims[i].instance_size;
        e->dims[e->ndims].id = dims[i].id;
    }
    return ROCPROFILER_STATUS_SUCCESS;
}

/* Device d's counters into the table. */
static int list_device(int d, const struct agent_list *agents, char *reason, size_t len)
{
    struct id_list ids = {0};
    rocprofiler_status_t s =
        rocp_lib.rocprofiler_iterate_agent_supported_counters(agents->gpu[d], on_counters, &ids);
    if (s != ROCPROFILER_STATUS_SUCCESS) {
        free(ids.id);
        snprintf(reason, len,
                 "rocprofiler_iterate_agent_supported_counters for device %d failed: %s", d,
                 rocp_sdk_words(s));
        return PAPI_ECMP;
    }
    int ret = PAPI_OK;
    for (size_t i = 0; ret == PAPI_OK && i < ids.n; i++) {
        rocprofiler_counter_info_v0_t info = {0};
        rocprofiler_counter_id_t id = {ids.id[i]};
        if (rocp_lib.rocprofiler_query_counter_info(id, ROCPROFILER_COUNTER_INFO_VERSION_0,
                                                    &info) != ROCPROFILER_STATUS_SUCCESS ||
            !info.name || !info.name[0] || strchr(info.name, ':'))
            continue; /* a counter the SDK cannot describe is not listed */
        struct rocp_event ev = {.device = d, .counter = ids.id[i], .units = ""};
        rocp_lib.rocprofiler_iterate_counter_dimensions(id, on_dimensions, &ev);
        char name[PAPI_MAX_STR_LEN], descr[PAPI_HUGE_STR_LEN], dims[600] = "";
        for (int k = 0; k < ev.ndims; k++) {
            size_t used = strlen(dims);
            snprintf(dims + used, sizeof dims - used, "%s%s 0-%zu", k ? ", " : "", ev.dims[k].name,
                     ev.dims[k].size ? ev.dims[k].size - 1 : 0);
        }
        snprintf(name, sizeof name, "%s:device=%d", info.name, d);
        snprintf(descr, sizeof descr, "%s (device %d, %s%s%s)%s%s%s",
                 info.description ? info.description : "", d, agents->name[d],
                 agents->product[d][0] ? " " : "", agents->product[d],
                 ev.ndims ? "; dimensions " : "", dims,
                 ev.ndims ? ", summed unless one is named (:DIMENSION=i)" : "");
        ev.name = name;
        ev.descr = descr;
        ret = event_table_add(&rocp_source.table, &ev.common, sizeof ev);
    }
    free(ids.id);
    if (ret != PAPI_OK)
        snprintf(reason, len, "no memory for the rocp_sdk component's counter list");
    return ret;
}

static int discover(char *reason, size_t len)
{
    int ret = rocp_sdk_libs_load(reason, len); /* none: nothing of the SDK is called */
    if (ret == PAPI_OK)
        ret = rocp_dispatch_configure(reason, len);
    if (ret != PAPI_OK)
        return ret;
    struct agent_list agents = {0};
    rocprofiler_status_t s = rocp_lib.rocprofiler_query_available_agents(
        ROCPROFILER_AGENT_INFO_VERSION_0, on_agents, sizeof(rocprofiler_agent_v0_t), &agents);
    if (s != ROCPROFILER_STATUS_SUCCESS) {
        snprintf(reason, len, "no AMD GPU: rocprofiler_query_available_agents of %s failed: %s",
                 rocp_lib.path, rocp_sdk_words(s));
        return PAPI_ECMP;
    }
    if (agents.ngpus == 0) {
        snprintf(reason, len,
                 "no AMD GPU: rocprofiler_query_available_agents of %s lists no GPU agent "
                 "(%d CPU agent%s): no amdgpu driver (/dev/kfd) or no AMD GPU here",
                 rocp_lib.path, agents.ncpus, agents.ncpus == 1 ? "" : "s");
        return PAPI_ECMP;
    }
    rocp_dispatch_agents(agents.gpu, agents.ngpus);
    char caveat[CMP_REASON_LEN] = "";
    for (int d = 0; ret != PAPI_ENOMEM && d < agents.ngpus; d++) {
        char why[512];
        if (!agents.seen[d])
            continue;
        ret = list_device(d, &agents, why, sizeof why);
        size_t used = strlen(caveat);
        if (ret != PAPI_OK)
            snprintf(caveat + used, sizeof caveat - used, "%sdevice %d not listed: %s",
                     used ? "; " : "", d, why);
    }
    if (agents.beyond) {
        size_t used = strlen(caveat);
        snprintf(caveat + used, sizeof caveat - used, "%s%d GPUs not listed (%d at most)",
                 used ? "; " : "", agents.beyond, ROCP_MAX_DEVICES);
    }
    snprintf(reason, len, "%s", caveat);
    if (ret == PAPI_ENOMEM)
        snprintf(reason, len, "no memory for the rocp_sdk component's counter list");
    return ret == PAPI_ENOMEM || rocp_source.table.n == 0 ? PAPI_ECMP : PAPI_OK;
}

/* Discovery waits for the first question about the component's events or state, as cuda's
 * (cuda_component.c says why: the GPU runtime's start, CUDA's and HSA's rule against
 * initialising before a fork). */
static pthread_mutex_t rocp_discover_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    int done, disabled;
    char reason[PAPI_HUGE_STR_LEN];
} lazy;

static int ready(void)
{
    pthread_mutex_lock(&rocp_discover_lock);
    if (!lazy.done) {
        static char reason[CMP_REASON_LEN];
        reason[0] = '\0';
        lazy.done = 1;
        lazy.disabled = discover(reason, sizeof reason);
        if (lazy.disabled && !reason[0])
            snprintf(reason, sizeof reason, "rocp_sdk found no counter on any device");
        snprintf(lazy.reason, sizeof lazy.reason, "%s", reason);
        if (lazy.disabled)
            event_table_clear(&rocp_source);
    }
    int disabled = lazy.disabled;
    pthread_mutex_unlock(&rocp_discover_lock);
    return disabled;
}

static int probe(struct papi_component *self, struct cmp_status *out)
{
    int ret = table_probe_begin(self);
    if (ret != PAPI_OK)
        return ret;
    memset(&lazy, 0, sizeof lazy);
    out->disabled = rocp_sdk_libs_load(out->reason, sizeof out->reason);
    table_probe_end(self, out);
    out->num_counters = out->disabled ? 0 : TABLE_MAX_SLOTS;
    return PAPI_OK;
}

static void fill_info(const struct papi_component *self, PAPI_component_info_t *info)
{
    if (!info->disabled && ready() != PAPI_OK)
        info->disabled = lazy.disabled;
    table_fill_info(self, info);
    /* The counts are of the dispatches of the set's thread, not the device's whoever asks
     * (a region file's "scope": "thread"). */
    info->default_granularity = info->available_granularities = PAPI_GRN_THR;
    if (lazy.done && lazy.reason[0])
        snprintf(info->disabled_reason, sizeof info->disabled_reason, "%s", lazy.reason);
}

/* ---- names ---------------------------------------------------------------------------- */
/* The listed event and dimension instances of local; -1 when there is none. */
static int resolve(int local, const struct rocp_qualified **q)
{
    *q = NULL;
    if (local >= ROCP_QUALIFIED) {
        int k = local - ROCP_QUALIFIED;
        if (k >= atomic_load(&nqualified))
            return -1;
        *q = &qualified[k];
        return qualified[k].base;
    }
    return table_valid(&rocp_source, local) ? local : -1;
}

static int code_to_name(const struct papi_component *self, int local, char *out, size_t len)
{
    const struct rocp_qualified *q;
    if (ready() != PAPI_OK)
        return PAPI_ENOEVNT;
    if (local < ROCP_QUALIFIED)
        return table_code_to_name(self, local, out, len);
    if (resolve(local, &q) < 0)
        return papi_error(PAPI_ENOEVNT, "rocp_sdk has no event %d", local);
    if ((size_t)snprintf(out, len, "%s%s", ROCP_PREFIX, q->name) >= len)
        return papi_error(PAPI_EBUF, "rocp_sdk event name longer than %zu bytes", len - 1);
    return PAPI_OK;
}

static int enumerate(const struct papi_component *self, int *local, int modifier)
{
    return ready() == PAPI_OK ? table_enumerate(self, local, modifier) : PAPI_ENOEVNT;
}

static int event_info(const struct papi_component *self, int local, PAPI_event_info_t *info)
{
    const struct rocp_qualified *q;
    if (ready() != PAPI_OK)
        return PAPI_ENOEVNT;
    int base = resolve(local, &q);
    if (base < 0)
        return papi_error(PAPI_ENOEVNT, "rocp_sdk has no event %d", local);
    int ret = table_event_info(self, base, info);
    if (ret == PAPI_OK && q) {
        snprintf(info->symbol, sizeof info->symbol, "%s%s", ROCP_PREFIX, q->name);
        size_t used = strlen(info->long_descr);
        snprintf(info->long_descr + used, sizeof info->long_descr - used,
                 "; this name counts the dimension instances it names");
    }
    return ret;
}

static int query(const struct papi_component *self, int local, int domain)
{
    (void)self;
    (void)domain;
    const struct rocp_qualified *q;
    return ready() == PAPI_OK && resolve(local, &q) >= 0 ? PAPI_OK : PAPI_ENOEVNT;
}

/* The listed event of counter on device, or -1. */
static int find(const char *counter, size_t clen, int device)
{
    char want[PAPI_MAX_STR_LEN];
    if ((size_t)snprintf(want, sizeof want, "%.*s:device=%d", (int)clen, counter, device) >=
        sizeof want)
        return -1;
    for (int e = 0; e < rocp_source.table.n; e++)
        if (strcmp(event_at(e)->name, want) == 0)
            return e;
    return -1;
}

/* The qualified name q (canonical: device first, then the dimensions in the counter's
 * order), found or made. */
static int qualified_code(struct rocp_qualified *q, int *local)
{
    const struct rocp_event *e = event_at(q->base);
    size_t used = (size_t)snprintf(q->name, sizeof q->name, "%s", e->name);
    for (int k = 0; k < e->ndims; k++)
        for (int j = 0; j < q->ndims; j++)
            if (q->dim_index[j] == k && used < sizeof q->name)
                used += (size_t)snprintf(q->name + used, sizeof q->name - used, ":%s=%zu",
                                         e->dims[k].name, q->pos[j]);
    if (used >= sizeof q->name)
        return PAPI_ENOEVNT;
    pthread_mutex_lock(&rocp_discover_lock);
    int n = atomic_load(&nqualified), k = 0;
    while (k < n && strcmp(qualified[k].name, q->name) != 0)
        k++;
    int ret = PAPI_OK;
    if (k == n && n == ROCP_MAX_QUALIFIED)
        ret = papi_error(PAPI_ENOMEM, "rocp_sdk: %d names with dimension qualifiers at most",
                         ROCP_MAX_QUALIFIED);
    else if (k == n) {
        qualified[n] = *q;
        atomic_store(&nqualified, n + 1);
    }
    pthread_mutex_unlock(&rocp_discover_lock);
    *local = ROCP_QUALIFIED + k;
    return ret;
}

static int name_to_code(const struct papi_component *self, const char *name, int *local)
{
    (void)self;
    size_t plen = strlen(ROCP_PREFIX);
    if (strncmp(name, ROCP_PREFIX, plen) != 0)
        return PAPI_ENOEVNT;
    if (ready() != PAPI_OK)
        return papi_error(PAPI_ENOEVNT, "'%s': component rocp_sdk is disabled: %s", name,
                          lazy.reason);
    const char *counter = name + plen;
    size_t clen = strcspn(counter, ":");
    struct {
        const char *name;
        size_t nlen;
        size_t value;
    } quals[ROCP_MAX_DIMS + 1];
    int nquals = 0, device = -1;
    for (const char *q = counter + clen; *q == ':'; q += strcspn(q + 1, ":") + 1) {
        const char *eq = strchr(q + 1, '=');
        size_t qlen = strcspn(q + 1, ":");
        if (!eq || eq > q + 1 + qlen || eq == q + 1 || qlen - (size_t)(eq - q) == 0)
            return papi_error(PAPI_ENOEVNT, "'%s': a qualifier is NAME=VALUE", name);
        size_t vlen = qlen - (size_t)(eq - q);
        if (strspn(eq + 1, "0123456789") != vlen || vlen > 6)
            return papi_error(PAPI_ENOEVNT, "'%s': %.*s is not a number", name, (int)vlen, eq + 1);
        size_t nlen = (size_t)(eq - q - 1), value = (size_t)strtoul(eq + 1, NULL, 10);
        if (nlen == 6 && strncmp(q + 1, "device", 6) == 0) {
            if (device >= 0)
                return papi_error(PAPI_ENOEVNT, "'%s': device given twice", name);
            device = (int)value;
            continue;
        }
        if (nquals == ROCP_MAX_DIMS)
            return papi_error(PAPI_ENOEVNT, "'%s': too many qualifiers", name);
        quals[nquals].name = q + 1;
        quals[nquals].nlen = nlen;
        quals[nquals++].value = value;
    }
    int base = find(counter, clen, device < 0 ? 0 : device);
    if (base < 0)
        return papi_error(PAPI_ENOEVNT, "'%s': device %d has no counter %.*s", name,
                          device < 0 ? 0 : device, (int)clen, counter);
    if (nquals == 0) {
        *local = base;
        return PAPI_OK;
    }
    const struct rocp_event *e = event_at(base);
    struct rocp_qualified q = {.base = base, .ndims = nquals};
    for (int j = 0; j < nquals; j++) {
        int k = 0;
        while (k < e->ndims && (strlen(e->dims[k].name) != quals[j].nlen ||
                                strncmp(e->dims[k].name, quals[j].name, quals[j].nlen) != 0))
            k++;
        if (k == e->ndims)
            return papi_error(PAPI_ENOEVNT, "'%s': %.*s has no dimension %.*s", name, (int)clen,
                              counter, (int)quals[j].nlen, quals[j].name);
        if (quals[j].value >= e->dims[k].size)
            return papi_error(PAPI_ENOEVNT, "'%s': %s has %zu instances (0-%zu)", name,
                              e->dims[k].name, e->dims[k].size,
                              e->dims[k].size ? e->dims[k].size - 1 : 0);
        for (int i = 0; i < j; i++)
            if (q.dim_index[i] == k)
                return papi_error(PAPI_ENOEVNT, "'%s': %s given twice", name, e->dims[k].name);
        q.dim_index[j] = k;
        q.pos[j] = quals[j].value;
    }
    return qualified_code(&q, local);
}

/* ---- counting --------------------------------------------------------------------------- */
struct rocp_own {
    struct table_source *src; /* first: table_ctx_create's */
    struct rocp_run run;
    struct rocp_counted *counted[TABLE_MAX_SLOTS];
    int running;
    char why[1024];
    int code;
};

static struct rocp_own *own_of(const struct cmp_context *c)
{
    return slot_own(c);
}

/* The distinct counters of the set on device (and extra, when not 0), into out. */
static int counters_on(struct cmp_context *c, int device, uint64_t extra, uint64_t *out)
{
    int n = 0;
    for (int i = 0; i <= slot_count(c); i++) {
        uint64_t id;
        if (i < slot_count(c)) {
            const struct rocp_counted *s = slot_data(c, i);
            if (s->device != device)
                continue;
            id = s->counter;
        } else if (extra) {
            id = extra;
        } else {
            break;
        }
        int k = 0;
        while (k < n && out[k] != id)
            k++;
        if (k == n)
            out[n++] = id;
    }
    return n;
}

static int open_slot(struct cmp_context *c, int local, void *data, struct slot_kind *kind)
{
    const struct rocp_qualified *q;
    int base = resolve(local, &q);
    if (base < 0)
        return papi_error(PAPI_ENOEVNT, "rocp_sdk has no event %d", local);
    const struct rocp_event *e = event_at(base);
    struct rocp_counted *s = data;
    *s = (struct rocp_counted){.device = e->device, .counter = e->counter};
    for (int j = 0; q && j < q->ndims; j++) {
        s->dim[j].id = e->dims[q->dim_index[j]].id;
        s->dim[j].pos = q->pos[j];
        s->ndims++;
    }
    /* The set's counters on the device with this one must make one configuration. */
    uint64_t ids[TABLE_MAX_SLOTS + 1];
    int n = counters_on(c, e->device, e->counter, ids);
    rocprofiler_counter_config_id_t config;
    int ret = rocp_dispatch_config(e->device, ids, n, &config);
    if (ret != PAPI_OK)
        return ret;
    rocp_dispatch_config_free(&config);
    *kind = (struct slot_kind){.instant = 0, .growth = SLOT_U64};
    return PAPI_OK;
}

static void end_run(struct rocp_own *o)
{
    if (o->running)
        rocp_dispatch_end(&o->run);
    o->running = 0;
    for (int d = 0; d < ROCP_MAX_DEVICES; d++)
        rocp_dispatch_config_free(&o->run.config[d]);
}

static void release(struct cmp_context *c, void *own)
{
    (void)c;
    end_run(own);
}

/* PAPI_start: a configuration per device of the set, then its dispatches counted. */
static int begin(struct cmp_context *c, struct rocp_own *o)
{
    end_run(o);
    memset(&o->run, 0, sizeof o->run);
    int ret = PAPI_OK;
    for (int d = 0; ret == PAPI_OK && d < ROCP_MAX_DEVICES; d++) {
        uint64_t ids[TABLE_MAX_SLOTS];
        int n = counters_on(c, d, 0, ids);
        if (n)
            ret = rocp_dispatch_config(d, ids, n, &o->run.config[d]);
    }
    for (int i = 0; i < slot_count(c); i++)
        o->counted[i] = slot_data(c, i);
    o->run.counted = o->counted;
    o->run.n = slot_count(c);
    if (ret == PAPI_OK)
        ret = rocp_dispatch_begin(&o->run);
    o->running = ret == PAPI_OK;
    if (ret != PAPI_OK)
        end_run(o);
    return ret;
}

static int values_now(struct cmp_context *c, enum slot_phase phase, int from, int n, uint64_t *raw,
                      struct slot_fail *f)
{
    struct rocp_own *o = own_of(c);
    if (from == 0 && phase == SLOT_START) {
        int ret = begin(c, o);
        if (ret != PAPI_OK) {
            snprintf(o->why, sizeof o->why, "%s", papi_last_error_detail());
            o->code = ret;
            *f = (struct slot_fail){.err = 1, .slot = from};
            return ret;
        }
    }
    rocp_dispatch_lock();
    for (int i = 0; i < n; i++) {
        const struct rocp_counted *s = slot_data(c, from + i);
        raw[i] = (uint64_t)(long long)s->total;
    }
    rocp_dispatch_unlock();
    if (from == 0 && phase == SLOT_STOP)
        end_run(o); /* after the last read: what arrived until now is counted */
    return PAPI_OK;
}

static int explain(const struct cmp_context *c, const struct slot_fail *f)
{
    (void)f;
    const struct rocp_own *o = own_of(c);
    return papi_error(o->code ? o->code : PAPI_ECMP, "%s", o->why[0] ? o->why : "rocp_sdk failed");
}

static const struct slot_ops rocp_ops = {
    .own_size = sizeof(struct rocp_own),
    .slot_size = sizeof(struct rocp_counted),
    .max_slots = TABLE_MAX_SLOTS,
    .lost = SLOT_LOST_REPORTS,
    .open = open_slot,
    .release = release,
    .read = values_now,
    .explain = explain,
};

static int ctx_create(const struct papi_component *self, const struct cmp_target *target,
                      struct cmp_context **ctx)
{
    (void)target; /* the dispatches of the thread that starts the set */
    return table_ctx_create(self, &rocp_ops, ctx);
}

/* The instance the registry lists (components/registry.c). */
struct papi_component rocp_sdk_component PAPI_INTERNAL = {
    .name = "rocp_sdk",
    .instance = &rocp_source,
    .probe = probe,
    .fill_info = fill_info,
    .name_to_code = name_to_code,
    .code_to_name = code_to_name,
    .enumerate = enumerate,
    .event_info = event_info,
    .query = query,
    .ctx_create = ctx_create,
    .reset = slot_reset,
    SLOT_ENGINE_CALLBACKS,
};
