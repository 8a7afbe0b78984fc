/* cuda_component.c: the "cuda" component, NVIDIA GPUs' performance metrics through CUPTI's
 * Range Profiler and Profiler Host APIs (CUDA 12.6 update 2 and later, CUDA 13's only way).
 * libcupti and libcuda.so.1 are found at run time (cuda_libs.c), never linked. Events are
 * named as PAPI 7.2's cuda component names them:
 *     cuda:::<metric>:device=<N>                     (the listed form)
 *     cuda:::<base>[.<submetric>]:stat=<s>[:device=<N>]
 * where <metric> is CUPTI's full name (sm__cycles_active.sum, dram__bytes.sum.per_second,
 * smsp__average_inst_executed_per_warp.ratio) and <s> one of avg, max, min, sum, max_rate,
 * pct, ratio, put back after the base name. Without :stat, the first of those the metric
 * has; without :device, the first device that has it. A device's list comes from
 * cuda_metrics.c (cached per chip and driver version).
 *
 * Counting (cuda_session.c): PAPI_start opens a user range on each device of the set, in
 * the context the program made there (current on the thread that adds the event, or the
 * device's active primary context); a read or a reset closes it, evaluates it and opens
 * the next; PAPI_stop closes it. A .sum metric (and a .sum's .peak_sustained_active or
 * _elapsed: its most over the range) counts what the device did from start to stop over
 * every range; any other (avg, min, max, rates, ratios) reads as its last range's value. Values are CUPTI's doubles truncated to integers, as PAPI 7.2's. The
 * component never creates a context. Reading from the software overflow timer's signal
 * handler calls CUPTI there: at the user's risk, as the other GPU components. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_libs.h"
#include "cuda_metrics.h"
#include "cuda_session.h"
#include "event_table.h"
#include "slot_engine.h"

#define CUDA_MAX_DEVICES 16
#define CUDA_PREFIX      "cuda:::"

/* A listed event: its CUPTI name and device; instant unless a .sum count. */
struct cuda_event {
    union {
        struct table_event common;
        struct {
            TABLE_EVENT_FIELDS
        };
    };
    int device;
};

static struct {
    int ndevices;
    char *chip[CUDA_MAX_DEVICES];
    struct cuda_metric_list lists[CUDA_MAX_DEVICES]; /* the units point into them */
    int profiler_initialised;
} cu;

static void cuda_release(void)
{
    if (cu.profiler_initialised) {
        CUpti_Profiler_DeInitialize_Params p = {
            .structSize = PROFILER_SIZE(CUpti_Profiler_DeInitialize_Params, pPriv)};
        cuda_lib.cuptiProfilerDeInitialize(&p);
    }
    for (int i = 0; i < CUDA_MAX_DEVICES; i++) {
        free(cu.chip[i]);
        cuda_metrics_free(&cu.lists[i]);
    }
    memset(&cu, 0, sizeof cu);
    cuda_libs_unload();
}

static struct table_source cuda_source = {
    .prefix = CUDA_PREFIX,
    .description = "NVIDIA GPUs' performance metrics through CUPTI's Range Profiler "
                   "(libcupti and libcuda.so.1, loaded at run time)",
    .release = cuda_release,
};

static const struct cuda_event *event_at(int local)
{
    return (const struct cuda_event *)(const void *)event_table_at(&cuda_source.table, local);
}

/* ---- discovery ------------------------------------------------------------------------ */
/* A count over its range, summed over the ranges: a .sum, or a .sum's peak over the range's
 * active or elapsed cycles (the most the units could have counted: the denominator of a
 * percentage of peak, GPU_ACHIEVED_OCCUPANCY's). Anything else is a rate or a ratio. */
static int sums_over_ranges(const char *metric)
{
    static const char *const counts[] = {".sum", ".sum.peak_sustained_active",
                                         ".sum.peak_sustained_elapsed"};
    size_t n = strlen(metric);
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        size_t c = strlen(counts[i]);
        if (n > c && strcmp(metric + n - c, counts[i]) == 0)
            return 1;
    }
    return 0;
}

static int add_device(int device, char *reason, size_t len)
{
    CUpti_Device_GetChipName_Params chip = {
        .structSize = PROFILER_SIZE(CUpti_Device_GetChipName_Params, pChipName),
        .deviceIndex = (size_t)device};
    CUptiResult r = cuda_lib.cuptiDeviceGetChipName(&chip);
    if (r != CUPTI_SUCCESS || !chip.pChipName) {
        snprintf(reason, len, "cuptiDeviceGetChipName for device %d failed: %s", device,
                 cuda_cupti_words(r));
        return PAPI_ECMP;
    }
    if (!(cu.chip[device] = strdup(chip.pChipName)))
        return PAPI_ENOMEM;
    struct cuda_metric_list *l = &cu.lists[device];
    int ret = cuda_metrics_list(cu.chip[device], cuda_lib.driver_version, l, reason, len);
    for (int i = 0; ret == PAPI_OK && i < l->n; i++) {
        char name[600], descr[1400];
        snprintf(name, sizeof name, "%s:device=%d", l->m[i].name, device);
        snprintf(descr, sizeof descr, "%s%s(device %d, chip %s)", l->m[i].descr,
                 l->m[i].descr[0] ? " " : "", device, cu.chip[device]);
        struct cuda_event ev = {.name = name,
                                .descr = descr,
                                .units = l->m[i].units,
                                .instant = !sums_over_ranges(l->m[i].name),
                                .device = device};
        ret = event_table_add(&cuda_source.table, &ev.common, sizeof ev);
    }
    return ret;
}

static int discover(char *reason, size_t len)
{
    int n = 0;
    int ret = cuda_libs_load(&n, reason, len);
    if (ret != PAPI_OK)
        return ret;
    CUpti_Profiler_Initialize_Params init = {
        .structSize = PROFILER_SIZE(CUpti_Profiler_Initialize_Params, pPriv)};
    CUptiResult r = cuda_lib.cuptiProfilerInitialize(&init);
    if (r != CUPTI_SUCCESS) {
        snprintf(reason, len, "cuptiProfilerInitialize of %s failed: %s", cuda_lib.cupti.path,
                 cuda_cupti_words(r));
        return PAPI_ECMP;
    }
    cu.profiler_initialised = 1;
    cu.ndevices = n < CUDA_MAX_DEVICES ? n : CUDA_MAX_DEVICES;
    /* A device that cannot be listed (a chip this CUPTI does not know) is left out and
     * said on the caveat line; the component is disabled only when none is listed. */
    char caveat[CMP_REASON_LEN] = "";
    for (int d = 0; ret != PAPI_ENOMEM && d < cu.ndevices; d++) {
        char why[1024];
        ret = add_device(d, why, sizeof why);
        size_t used = strlen(caveat);
        if (ret != PAPI_OK && ret != PAPI_ENOMEM)
            snprintf(caveat + used, sizeof caveat - used, "%sdevice %d not listed: %s",
                     used ? "; " : "", d, why);
    }
    if (n > CUDA_MAX_DEVICES) {
        size_t used = strlen(caveat);
        snprintf(caveat + used, sizeof caveat - used, "%sdevices %d to %d not listed (%d at most)",
                 used ? "; " : "", CUDA_MAX_DEVICES, n - 1, CUDA_MAX_DEVICES);
    }
    snprintf(reason, len, "%s", caveat);
    if (ret == PAPI_ENOMEM)
        snprintf(reason, len, "no memory for the cuda component's metric list");
    return ret == PAPI_ENOMEM || cuda_source.table.n == 0 ? PAPI_ECMP : PAPI_OK;
}

/* Discovery (the driver's cuInit, the devices, CUPTI, the metric lists) waits for the first
 * question about the component's events or state, not its probe: otherwise every
 * PAPI_library_init on a GPU node pays for the driver's start, and a program that starts
 * PAPI, then forks children that use CUDA, breaks CUDA's rule (no initialisation before a
 * fork: Python's multiprocessing). A program that never asks for a cuda::: event never
 * initialises the driver through PAPI; the probe only finds its library. */
static pthread_mutex_t discover_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    int done, disabled;
    char reason[PAPI_HUGE_STR_LEN]; /* why disabled, or a caveat (a device left out) */
} lazy;

/* PAPI_OK once the devices are listed, else why not (lazy.reason). */
static int ready(void)
{
    pthread_mutex_lock(&discover_lock);
    if (!lazy.done) {
        static char reason[CMP_REASON_LEN];
        reason[0] = '\0';
        lazy.done = 1;
        lazy.disabled = discover(reason, sizeof reason);
        if (lazy.disabled && !reason[0])
            snprintf(reason, sizeof reason, "cuda found no metric on any device");
        snprintf(lazy.reason, sizeof lazy.reason, "%s", reason);
        if (lazy.disabled) {
            event_table_clear(&cuda_source);
            cuda_release();
        }
    }
    int disabled = lazy.disabled;
    pthread_mutex_unlock(&discover_lock);
    return disabled;
}

static int probe(struct papi_component *self, struct cmp_status *out)
{
    int ret = table_probe_begin(self); /* what a previous library init found, released */
    if (ret != PAPI_OK)
        return ret;
    memset(&lazy, 0, sizeof lazy);
    out->disabled = cuda_libs_driver(out->reason, sizeof out->reason);
    table_probe_end(self, out);
    out->num_counters = out->disabled ? 0 : TABLE_MAX_SLOTS; /* known once listed */
    return PAPI_OK;
}

/* The component's description: discovery first, unless the probe or the user disabled it. */
static void fill_info(const struct papi_component *self, PAPI_component_info_t *info)
{
    if (!info->disabled && ready() != PAPI_OK)
        info->disabled = lazy.disabled;
    table_fill_info(self, info);
    if (lazy.done && lazy.reason[0])
        snprintf(info->disabled_reason, sizeof info->disabled_reason, "%s", lazy.reason);
}

static int code_to_name(const struct papi_component *self, int local, char *out, size_t len)
{
    return ready() == PAPI_OK ? table_code_to_name(self, local, out, len) : PAPI_ENOEVNT;
}

static int enumerate(const struct papi_component *self, int *local, int modifier)
{
    return ready() == PAPI_OK ? table_enumerate(self, local, modifier) : PAPI_ENOEVNT;
}

static int event_info(const struct papi_component *self, int local, PAPI_event_info_t *info)
{
    return ready() == PAPI_OK ? table_event_info(self, local, info) : PAPI_ENOEVNT;
}

static int query(const struct papi_component *self, int local, int domain)
{
    return ready() == PAPI_OK ? table_query(self, local, domain) : PAPI_ENOEVNT;
}

/* ---- names ---------------------------------------------------------------------------- */
static const char *const stats[] = {"avg", "max", "min", "sum", "max_rate", "pct", "ratio"};
#define NSTATS ((int)(sizeof stats / sizeof stats[0]))

/* The event named metric on device (or the first device that has it, device < 0). */
static int find(const char *metric, int device, int *local)
{
    char want[640];
    size_t mlen = strlen(metric);
    for (int e = 0; e < cuda_source.table.n; e++) {
        const struct cuda_event *ev = event_at(e);
        if (device >= 0 && ev->device != device)
            continue;
        if (strncmp(ev->name, metric, mlen) != 0 || ev->name[mlen] != ':')
            continue;
        snprintf(want, sizeof want, "%s:device=%d", metric, ev->device);
        if (strcmp(ev->name, want) == 0) {
            *local = e;
            return PAPI_OK;
        }
    }
    return PAPI_ENOEVNT;
}

/* metric with the stat put back after its base name: base.stat[.rest]. */
static int with_stat(const char *head, const char *stat, char *out, size_t len)
{
    size_t base = strcspn(head, ".");
    return (size_t)snprintf(out, len, "%.*s.%s%s", (int)base, head, stat, head + base) < len ? 0
                                                                                             : -1;
}

static int name_to_code(const struct papi_component *self, const char *name, int *local)
{
    (void)self;
    size_t plen = strlen(CUDA_PREFIX);
    if (strncmp(name, CUDA_PREFIX, plen) != 0)
        return PAPI_ENOEVNT;
    /* Every CUPTI metric is unit__counter: any other name (a CPU event misspelt, which the
     * core also asks of cuda with its prefix put back) is refused before the devices are
     * listed, which costs CUPTI's libraries and up to seconds on a GPU node. */
    const char *colon = strchr(name + plen, ':');
    const char *dunder = strstr(name + plen, "__");
    if (!dunder || (colon && dunder > colon))
        return PAPI_ENOEVNT;
    if (ready() != PAPI_OK)
        return papi_error(PAPI_ENOEVNT, "'%s': component cuda is disabled: %s", name, lazy.reason);
    char head[512], stat[16] = "";
    int device = -1;
    const char *q = strchr(name + plen, ':');
    size_t hlen = q ? (size_t)(q - name - plen) : strlen(name + plen);
    if (hlen == 0 || hlen >= sizeof head)
        return PAPI_ENOEVNT;
    memcpy(head, name + plen, hlen);
    head[hlen] = '\0';
    while (q && *q == ':') { /* :stat=<s> and :device=<N>, each once */
        const char *v = strchr(q, '=');
        const char *end = strchr(q + 1, ':');
        size_t vlen = v ? (size_t)((end ? end : q + strlen(q)) - v - 1) : 0;
        if (!v || (end && v > end) || vlen == 0)
            return PAPI_ENOEVNT;
        if (strncmp(q, ":stat=", 6) == 0 && !stat[0] && vlen < sizeof stat) {
            memcpy(stat, v + 1, vlen);
            stat[vlen] = '\0';
            int known = 0;
            for (int s = 0; s < NSTATS; s++)
                known |= strcmp(stat, stats[s]) == 0;
            if (!known)
                return PAPI_ENOEVNT;
        } else if (strncmp(q, ":device=", 8) == 0 && device < 0 && vlen < 4 &&
                   strspn(v + 1, "0123456789") == vlen) {
            device = atoi(v + 1);
        } else {
            return PAPI_ENOEVNT;
        }
        q = end;
    }
    char metric[640];
    if (stat[0])
        return with_stat(head, stat, metric, sizeof metric) == 0 ? find(metric, device, local)
                                                                 : PAPI_ENOEVNT;
    if (find(head, device, local) == PAPI_OK)
        return PAPI_OK;
    for (int s = 0; s < NSTATS; s++) /* the first stat the metric has */
        if (with_stat(head, stats[s], metric, sizeof metric) == 0 &&
            find(metric, device, local) == PAPI_OK)
            return PAPI_OK;
    return PAPI_ENOEVNT;
}

/* ---- counting --------------------------------------------------------------------------- */
struct cuda_slot {
    char *metric; /* CUPTI's name */
    CUcontext ctx;
    int device;
    int retained; /* the device's primary context, retained */
    int session;  /* index in the context's sessions while running */
    int index;    /* the metric's index in its session */
    double total; /* a .sum's count over the ranges since the slot was added */
    double last;  /* the last range's value */
};

struct cuda_own {
    struct table_source *src; /* first: table_ctx_create's */
    int nsessions;
    int running; /* between a start that began every session and the stop */
    struct cuda_session session[CUDA_MAX_DEVICES];
    char why[1024]; /* a failed read's reason, given by explain */
    int code;
};

static struct cuda_own *own_of(const struct cmp_context *c)
{
    return slot_own(c);
}

static int open_slot(struct cmp_context *c, int local, void *data, struct slot_kind *kind)
{
    if (!table_valid(&cuda_source, local))
        return papi_error(PAPI_ENOEVNT, "cuda has no event %d", local);
    const struct cuda_event *e = event_at(local);
    struct cuda_slot *s = data;
    s->device = e->device;
    char full[640];
    snprintf(full, sizeof full, "%s%s", CUDA_PREFIX, e->name);
    int ret = cuda_context_find(full, e->device, &s->ctx, &s->retained);
    if (ret != PAPI_OK)
        return ret;
    s->metric = strndup(e->name, strcspn(e->name, ":"));
    const char **names = calloc((size_t)slot_count(c) + 1, sizeof *names);
    if (!s->metric || !names) {
        ret = papi_error(PAPI_ENOMEM, "no memory for a cuda slot");
    } else {
        int n = 0; /* the device's metrics in the set, this one last */
        for (int i = 0; i < slot_count(c); i++)
            if (event_at(slot_event(c, i))->device == e->device)
                names[n++] = ((struct cuda_slot *)slot_data(c, i))->metric;
        names[n++] = s->metric;
        ret = cuda_session_check(cu.chip[e->device], e->device, s->ctx, names, n);
    }
    free(names);
    if (ret != PAPI_OK) {
        free(s->metric);
        if (s->retained)
            cuda_context_release(e->device);
        return ret;
    }
    *kind = (struct slot_kind){.instant = e->instant, .growth = SLOT_U64};
    return PAPI_OK;
}

static void close_slot(struct cmp_context *c, void *data)
{
    struct cuda_slot *s = data;
    (void)c;
    if (s->retained)
        cuda_context_release(s->device);
    free(s->metric);
}

static void end_sessions(struct cuda_own *o)
{
    for (int i = 0; i < o->nsessions; i++) {
        cuda_session_end(&o->session[i]);
        free(o->session[i].values);
        free(o->session[i].names);
    }
    memset(o->session, 0, sizeof o->session);
    o->nsessions = 0;
}

static void release(struct cmp_context *c, void *own)
{
    (void)c;
    end_sessions(own);
}

/* PAPI_start: a session per device of the set, each begun. */
static int begin(struct cmp_context *c, struct cuda_own *o)
{
    end_sessions(o);
    int ret = PAPI_OK;
    for (int i = 0; ret == PAPI_OK && i < slot_count(c); i++) {
        struct cuda_slot *s = slot_data(c, i);
        int device = event_at(slot_event(c, i))->device, k = 0;
        while (k < o->nsessions && o->session[k].device != device)
            k++;
        struct cuda_session *ss = &o->session[k];
        if (k == o->nsessions) {
            o->nsessions++;
            *ss = (struct cuda_session){.device = device, .ctx = s->ctx};
        }
        const char **names = realloc(ss->names, (size_t)(ss->n + 1) * sizeof *names);
        if (!names) {
            ret = papi_error(PAPI_ENOMEM, "no memory for a cuda session");
            break;
        }
        ss->names = names;
        s->session = k;
        s->index = ss->n;
        names[ss->n++] = s->metric;
    }
    for (int k = 0; ret == PAPI_OK && k < o->nsessions; k++)
        ret = cuda_session_begin(&o->session[k], cu.chip[o->session[k].device]);
    if (ret != PAPI_OK)
        end_sessions(o);
    for (int i = 0; i < slot_count(c); i++) /* no range read yet in this period */
        ((struct cuda_slot *)slot_data(c, i))->last = 0;
    o->running = ret == PAPI_OK;
    return ret;
}

/* A read or reset (again) or a stop: every session's range closed and evaluated. */
static int collect(struct cmp_context *c, struct cuda_own *o, int again)
{
    int ret = PAPI_OK;
    for (int k = 0; k < o->nsessions; k++) {
        int r;
        if (!o->running)
            continue;                /* stopped: nothing to close */
        if (!o->session[k].profiler) /* ended by an earlier failure: never a stale count */
            r = papi_error(PAPI_ECMP,
                           "cuda: device %d's range ended at an earlier error (said then): "
                           "stop the set and start it again",
                           o->session[k].device);
        else
            r = cuda_session_collect(&o->session[k], again);
        if (r != PAPI_OK && ret == PAPI_OK) {
            ret = r;
            snprintf(o->why, sizeof o->why, "%s", papi_last_error_detail());
        }
        if (r != PAPI_OK)
            continue;
        for (int i = 0; i < slot_count(c); i++) {
            struct cuda_slot *s = slot_data(c, i);
            if (s->session != k)
                continue;
            s->last = o->session[k].values[s->index];
            s->total += s->last;
        }
    }
    return ret;
}

static int values_now(struct cmp_context *c, enum slot_phase phase, int from, int n, uint64_t *raw,
                      struct slot_fail *f)
{
    struct cuda_own *o = own_of(c);
    int ret = PAPI_OK;
    if (from == 0 && phase != SLOT_ADD) {
        o->why[0] = '\0';
        if (phase == SLOT_START) {
            ret = begin(c, o);
            if (ret != PAPI_OK)
                snprintf(o->why, sizeof o->why, "%s", papi_last_error_detail());
        } else {
            ret = collect(c, o, phase != SLOT_STOP);
            if (phase == SLOT_STOP)
                o->running = 0;
        }
    }
    if (ret != PAPI_OK) {
        o->code = ret;
        *f = (struct slot_fail){.err = 1, .slot = from};
        return ret;
    }
    for (int i = 0; i < n; i++) {
        const struct cuda_slot *s = slot_data(c, from + i);
        const struct cuda_event *e = event_at(slot_event(c, from + i));
        raw[i] = (uint64_t)(long long)(e->instant ? s->last : s->total);
    }
    return PAPI_OK;
}

static int explain(const struct cmp_context *c, const struct slot_fail *f)
{
    (void)f;
    const struct cuda_own *o = own_of(c);
    return papi_error(o->code ? o->code : PAPI_ECMP, "%s", o->why[0] ? o->why : "cuda failed");
}

static const struct slot_ops cuda_ops = {
    .own_size = sizeof(struct cuda_own),
    .slot_size = sizeof(struct cuda_slot),
    .max_slots = TABLE_MAX_SLOTS,
    .lost = SLOT_LOST_REPORTS,
    .open = open_slot,
    .close = close_slot,
    .release = release,
    .read = values_now,
    .explain = explain,
};

static int ctx_create(const struct papi_component *self, const struct cmp_target *target,
                      struct cmp_context **ctx)
{
    (void)target; /* the device's work in the program's contexts, whoever asks */
    return table_ctx_create(self, &cuda_ops, ctx);
}

/* The instance the registry lists (components/registry.c). */
struct papi_component cuda_component PAPI_INTERNAL = {
    .name = "cuda",
    .instance = &cuda_source,
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

const char *cuda_device_chip(int device, const char **why)
{
    *why = NULL;
    if (ready() != PAPI_OK) {
        *why = lazy.reason;
        return NULL;
    }
    if (device < 0 || device >= cu.ndevices || !cu.chip[device]) {
        *why = "no such device listed";
        return NULL;
    }
    return cu.chip[device];
}
