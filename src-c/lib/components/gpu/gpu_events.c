/* gpu_events.c: the component callbacks of the GPU components (gpu_events.h): their
 * probe and event-set contexts that read their devices (the table and the naming
 * callbacks: ../event_table.c).
 * Values are the device's (a GPU's power is the board's, whoever asks): any target sees
 * the same. A counter's slot counts what grew while its set ran; an instantaneous slot
 * counts (its value frozen at the last stop) + (the value now), as the node components
 * do, so that the core's count since PAPI_start is the value now. A failed read on the
 * read path is recorded (atomic stores) and its reason given at the next call outside
 * it. The vendor libraries are not async-signal-safe: a GPU event in a set that uses the
 * software overflow timer is read from its signal handler at the user's risk. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fsroot.h"
#include "gpu_events.h"

#define GPU_MAX_SLOTS TABLE_MAX_SLOTS

struct gpu_slot {
    int event;
    char *path;         /* the event's file under the root in force at add, or NULL */
    uint64_t start_raw; /* counters: the value at the last start */
    uint64_t counted;   /* counters: earlier start..stop periods; instants: see above */
    uint64_t at_stop;   /* instants: the value at the last stop */
};

struct cmp_context {
    struct gpu_source *src;
    struct gpu_slot slots[GPU_MAX_SLOTS];
    int nslots;
    int running;
    uint64_t start_ns, ns;
    atomic_int failed;      /* the source's error code of a failed read; 0: none */
    atomic_int failed_slot; /* and which slot */
};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct gpu_source *source_of(const struct papi_component *self)
{
    return self->instance;
}

static const struct gpu_event *event_of(const struct cmp_context *ctx, int slot)
{
    return (const struct gpu_event *)(void *)event_table_at(&ctx->src->common.table,
                                                            ctx->slots[slot].event);
}

/* ---- the table ------------------------------------------------------------------ */
int gpu_table_add(struct event_table *t, const struct gpu_event *ev)
{
    return event_table_add(t, &ev->common, sizeof *ev);
}

void gpu_sanitize_name(char *name)
{
    for (char *p = name; *p; p++)
        if (*p == ' ')
            *p = '_';
}

int gpu_probe(struct papi_component *self, struct cmp_status *out)
{
    int ret = table_probe_begin(self);
    if (ret != PAPI_OK)
        return ret;
    struct gpu_source *src = source_of(self);
    out->disabled = src->discover(src, out->reason, sizeof out->reason);
    if (!out->disabled && src->common.table.n == 0) {
        out->disabled = PAPI_ECMP;
        snprintf(out->reason, sizeof out->reason, "%s found no readable event on any device",
                 self->name);
    }
    table_probe_end(self, out);
    return PAPI_OK;
}

/* ---- reading ---------------------------------------------------------------------- */
/* Every slot's value now into raw[]: 0, or the source's error code with *bad the slot. */
static int values_now(const struct cmp_context *ctx, uint64_t *raw, int *bad)
{
    for (int i = 0; i < ctx->nslots; i++) {
        int err = ctx->src->read(event_of(ctx, i), ctx->slots[i].path, &raw[i]);
        if (err) {
            *bad = i;
            return err;
        }
    }
    return 0;
}

/* The reason of a failed read, given through papi_error (never on the read path). */
static int read_error(const struct cmp_context *ctx, int slot, int err)
{
    const struct gpu_event *e = event_of(ctx, slot);
    char why[512];
    ctx->src->explain(e, err, why, sizeof why);
    return papi_error(PAPI_ESYS, "%s%s: %s", ctx->src->common.prefix, e->name, why);
}

static void report_failed_read(struct cmp_context *ctx)
{
    int err = atomic_exchange_explicit(&ctx->failed, 0, memory_order_relaxed);
    if (err)
        read_error(ctx, atomic_load(&ctx->failed_slot), err);
}

/* The core asks right after a failed read (component.h's read_reason). */
void gpu_read_reason(struct cmp_context *ctx)
{
    report_failed_read(ctx);
}

static int read_now(struct cmp_context *ctx, uint64_t *raw)
{
    report_failed_read(ctx);
    int bad = 0, err = values_now(ctx, raw, &bad);
    return err ? read_error(ctx, bad, err) : PAPI_OK;
}

/* ---- contexts ---------------------------------------------------------------------- */
int gpu_ctx_create(const struct papi_component *self, const struct cmp_target *target,
                   struct cmp_context **ctx)
{
    (void)target; /* device-wide numbers: every target sees the same */
    *ctx = calloc(1, sizeof **ctx);
    if (!*ctx)
        return papi_error(PAPI_ENOMEM, "no memory for a %s context", self->name);
    (*ctx)->src = source_of(self);
    return PAPI_OK;
}

void gpu_ctx_destroy(struct cmp_context *ctx)
{
    if (!ctx)
        return;
    report_failed_read(ctx);
    for (int i = 0; i < ctx->nslots; i++)
        free(ctx->slots[i].path);
    free(ctx);
}

int gpu_add(struct cmp_context *ctx, int local, int *slot)
{
    report_failed_read(ctx);
    if (!table_valid(&ctx->src->common, local))
        return papi_error(PAPI_ENOEVNT, "%s has no event %d", ctx->src->common.prefix, local);
    if (ctx->nslots == GPU_MAX_SLOTS)
        return papi_error(PAPI_ECOUNT, "%s counts at most %d events per set",
                          ctx->src->common.prefix, GPU_MAX_SLOTS);
    const struct gpu_event *e =
        (const struct gpu_event *)(void *)event_table_at(&ctx->src->common.table, local);
    struct gpu_slot *s = &ctx->slots[ctx->nslots];
    *s = (struct gpu_slot){.event = local};
    if (e->path) {
        char path[4096];
        if (fsroot_path(e->path, path, sizeof path) != 0)
            return papi_error(PAPI_EINVAL, "%s%s: its file's path is too long",
                              ctx->src->common.prefix, e->name);
        if (!(s->path = strdup(path)))
            return papi_error(PAPI_ENOMEM, "no memory for a %s slot", ctx->src->common.prefix);
    }
    uint64_t raw[GPU_MAX_SLOTS];
    ctx->nslots++;
    int ret = read_now(ctx, raw); /* a device that is gone is said now */
    if (ret != PAPI_OK) {
        free(s->path);
        ctx->nslots--;
        return ret;
    }
    *slot = ctx->nslots - 1;
    return PAPI_OK;
}

int gpu_remove(struct cmp_context *ctx, int slot)
{
    report_failed_read(ctx);
    if (slot < 0 || slot >= ctx->nslots)
        return papi_error(PAPI_EINVAL, "%s context has no slot %d", ctx->src->common.prefix, slot);
    free(ctx->slots[slot].path);
    memmove(&ctx->slots[slot], &ctx->slots[slot + 1],
            (size_t)(ctx->nslots - slot - 1) * sizeof ctx->slots[0]);
    ctx->nslots--;
    return PAPI_OK;
}

int gpu_start(struct cmp_context *ctx)
{
    uint64_t raw[GPU_MAX_SLOTS];
    int ret = read_now(ctx, raw);
    if (ret != PAPI_OK)
        return ret;
    for (int i = 0; i < ctx->nslots; i++) {
        struct gpu_slot *s = &ctx->slots[i];
        s->start_raw = raw[i];
        s->counted += s->at_stop; /* 0 for counters */
        s->at_stop = 0;
    }
    ctx->start_ns = now_ns();
    ctx->running = 1;
    return PAPI_OK;
}

/* A device lost while counting fails the stop with its reason, but the context stops
 * all the same (the lost slots keep what they counted before this period), so that the
 * next PAPI_stop succeeds and the set can be cleaned up: a lost GPU never holds the
 * component's running set of the thread. */
int gpu_stop(struct cmp_context *ctx)
{
    if (!ctx->running)
        return PAPI_OK; /* stopped by a stop that failed */
    report_failed_read(ctx);
    int bad = -1, bad_err = 0;
    for (int i = 0; i < ctx->nslots; i++) {
        struct gpu_slot *s = &ctx->slots[i];
        uint64_t raw = 0;
        int err = ctx->src->read(event_of(ctx, i), s->path, &raw);
        if (err && bad < 0)
            bad = i, bad_err = err;
        if (event_of(ctx, i)->instant)
            s->at_stop = err ? 0 : raw;
        else if (!err)
            s->counted += raw >= s->start_raw ? raw - s->start_raw : 0;
    }
    ctx->ns += now_ns() - ctx->start_ns;
    ctx->running = 0;
    return bad >= 0 ? read_error(ctx, bad, bad_err) : PAPI_OK;
}

/* The read path: the devices read, nothing of the counts written to ctx. A counter that
 * went back (the driver reloaded) counts 0 rather than wrapping to 2^64. */
int gpu_read(struct cmp_context *ctx, struct cmp_count *out)
{
    uint64_t raw[GPU_MAX_SLOTS], ns = 0;
    if (ctx->running) {
        int bad = 0, err = values_now(ctx, raw, &bad);
        if (err) {
            atomic_store_explicit(&ctx->failed_slot, bad, memory_order_relaxed);
            atomic_store_explicit(&ctx->failed, err, memory_order_relaxed);
            return PAPI_ESYS;
        }
        ns = now_ns() - ctx->start_ns;
    }
    for (int i = 0; i < ctx->nslots; i++) {
        const struct gpu_slot *s = &ctx->slots[i];
        uint64_t v = 0;
        if (event_of(ctx, i)->instant)
            v = ctx->running ? raw[i] : s->at_stop;
        else if (ctx->running && raw[i] >= s->start_raw)
            v = raw[i] - s->start_raw;
        out[i].value = s->counted + v;
        out[i].time_enabled = out[i].time_running = ctx->ns + ns;
    }
    return PAPI_OK;
}
