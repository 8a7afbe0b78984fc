/* node_events.c: the component callbacks of the node components (node_events.h): the
 * table each one found at probe, named "prefix:::name", and event-set contexts that read
 * their files (the table and the naming callbacks: ../event_table.c). Values are
 * system-wide (a network interface, a sensor): any target sees the same. A counter's slot counts what grew while its set ran, unwrapped at the
 * counter's width; an instantaneous slot counts (its value frozen at the last stop) +
 * (the value now), as powercap's limits do, so that the core's count since PAPI_start
 * is the value now. read() may run in a signal handler: a failed read is recorded (atomic
 * stores) and its reason given at the next call outside the read path. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fsroot.h"
#include "node_events.h"

#define NODE_MAX_SLOTS TABLE_MAX_SLOTS

struct node_slot {
    int event;
    char *path;         /* the event's file under the root in force at add */
    uint64_t start_raw; /* counters: the number at the last start */
    uint64_t counted;   /* counters: earlier start..stop periods; instants: see above */
    uint64_t at_stop;   /* instants: the value at the last stop */
};

struct cmp_context {
    struct node_source *src;
    struct node_slot slots[NODE_MAX_SLOTS];
    int nslots;
    int running;
    uint64_t start_ns, ns;
    atomic_int failed;      /* a read's errno, NODE_MALFORMED or NODE_TOO_BIG; 0: none */
    atomic_int failed_slot; /* and where */
    atomic_int failed_line;
};

/* What a read of the slots found wrong. */
struct node_fail {
    int err, slot, line;
};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct node_source *source_of(const struct papi_component *self)
{
    return self->instance;
}

static const struct node_event *event_of(const struct cmp_context *ctx, int slot)
{
    return (const struct node_event *)(void *)event_table_at(&ctx->src->common.table,
                                                             ctx->slots[slot].event);
}

/* ---- the table ------------------------------------------------------------------ */
int node_table_add(struct event_table *t, const struct node_event *ev)
{
    struct node_event copy = *ev;
    copy.key = ev->key ? strdup(ev->key) : NULL;
    if (ev->key && !copy.key)
        return papi_error(PAPI_ENOMEM, "no memory for the node events");
    int ret = event_table_add(t, &copy.common, sizeof copy);
    if (ret != PAPI_OK)
        free(copy.key);
    return ret;
}

static void free_key(struct table_event *e)
{
    free(((struct node_event *)(void *)e)->key);
}

int node_probe(struct papi_component *self, struct cmp_status *out)
{
    struct node_source *src = source_of(self);
    src->common.free_entry = free_key;
    int ret = table_probe_begin(self);
    if (ret != PAPI_OK)
        return ret;
    out->disabled = src->discover(&src->common.table, out->reason, sizeof out->reason);
    if (!out->disabled && src->common.table.n == 0) {
        out->disabled = PAPI_ECMP;
        snprintf(out->reason, sizeof out->reason, "%s found no events", self->name);
    }
    table_probe_end(self, out);
    return PAPI_OK;
}

/* ---- reading ---------------------------------------------------------------------- */
/* Every slot's number now (unscaled) into raw[], one read per file; 0, or f says what
 * failed. */
static int numbers_now(const struct cmp_context *ctx, uint64_t *raw, struct node_fail *f)
{
    char done[NODE_MAX_SLOTS] = {0};
    for (int i = 0; i < ctx->nslots; i++) {
        if (done[i])
            continue;
        int idx[NODE_MAX_SLOTS], k = 0, line = 0, bad = 0;
        const struct node_event *evs[NODE_MAX_SLOTS];
        uint64_t vals[NODE_MAX_SLOTS];
        for (int j = i; j < ctx->nslots; j++)
            if (!done[j] && strcmp(ctx->slots[j].path, ctx->slots[i].path) == 0) {
                done[j] = 1;
                idx[k] = j;
                evs[k++] = event_of(ctx, j);
            }
        int err = node_read_file(ctx->slots[i].path, evs, k, vals, &line, &bad);
        if (err) {
            *f = (struct node_fail){err, idx[bad], line};
            return err;
        }
        for (int m = 0; m < k; m++)
            raw[idx[m]] = vals[m];
    }
    return 0;
}

/* What a counter's slot grew by from start to now, unwrapped at its width and scaled. */
static uint64_t grown(const struct node_event *e, uint64_t start, uint64_t now)
{
    uint64_t d = now - start;
    return (e->width == 32 ? (uint64_t)(uint32_t)d : d) * e->scale;
}

/* The reason of a failed read, given through papi_error (never on the read path). */
static int read_error(const struct cmp_context *ctx, const struct node_fail *f)
{
    const struct node_event *e = event_of(ctx, f->slot);
    const char *file = ctx->slots[f->slot].path;
    if (f->err == NODE_TOO_BIG)
        return papi_error(PAPI_ESYS,
                          "%s%s: %s line %d: the number at place %d%s%s%s does not fit in 64 "
                          "bits (%s): refused rather than read wrapped",
                          ctx->src->common.prefix, e->name, file, f->line, e->column + 1,
                          e->key ? " after '" : "", e->key ? e->key : "", e->key ? "'" : "",
                          e->instant ? "a signed value past +-9223372036854775807"
                                     : "a counter past 18446744073709551615");
    if (f->err != NODE_MALFORMED)
        return papi_error(f->err == EACCES ? PAPI_EPERM : PAPI_ESYS, "%s%s: cannot read %s: %s",
                          ctx->src->common.prefix, e->name, file, strerror(f->err));
    if (!f->line)
        return papi_error(PAPI_ESYS, "%s%s: %s is malformed: it has no %s%s%s",
                          ctx->src->common.prefix, e->name, file, e->key ? "line '" : "first line",
                          e->key ? e->key : "", e->key ? "'" : "");
    return papi_error(PAPI_ESYS, "%s%s: %s line %d is malformed: no number at place %d%s%s%s",
                      ctx->src->common.prefix, e->name, file, f->line, e->column + 1,
                      e->key ? " after '" : "", e->key ? e->key : "", e->key ? "'" : "");
}

static void report_failed_read(struct cmp_context *ctx)
{
    int err = atomic_exchange_explicit(&ctx->failed, 0, memory_order_relaxed);
    if (err) {
        struct node_fail f = {err, atomic_load(&ctx->failed_slot), atomic_load(&ctx->failed_line)};
        read_error(ctx, &f);
    }
}

/* The core asks right after a failed read (component.h's read_reason). */
void node_read_reason(struct cmp_context *ctx)
{
    report_failed_read(ctx);
}

static int read_now(struct cmp_context *ctx, uint64_t *raw)
{
    report_failed_read(ctx);
    struct node_fail f;
    return numbers_now(ctx, raw, &f) ? read_error(ctx, &f) : PAPI_OK;
}

/* ---- contexts ---------------------------------------------------------------------- */
int node_ctx_create(const struct papi_component *self, const struct cmp_target *target,
                    struct cmp_context **ctx)
{
    (void)target; /* system-wide numbers: every target sees the same */
    *ctx = calloc(1, sizeof **ctx);
    if (!*ctx)
        return papi_error(PAPI_ENOMEM, "no memory for a %s context", self->name);
    (*ctx)->src = source_of(self);
    return PAPI_OK;
}

void node_ctx_destroy(struct cmp_context *ctx)
{
    if (!ctx)
        return;
    report_failed_read(ctx);
    for (int i = 0; i < ctx->nslots; i++)
        free(ctx->slots[i].path);
    free(ctx);
}

int node_add(struct cmp_context *ctx, int local, int *slot)
{
    report_failed_read(ctx);
    if (!table_valid(&ctx->src->common, local))
        return papi_error(PAPI_ENOEVNT, "%s has no event %d", ctx->src->common.prefix, local);
    if (ctx->nslots == NODE_MAX_SLOTS)
        return papi_error(PAPI_ECOUNT, "%s counts at most %d events per set",
                          ctx->src->common.prefix, NODE_MAX_SLOTS);
    char path[4096];
    const struct table_event *e = event_table_at(&ctx->src->common.table, local);
    if (fsroot_path(e->path, path, sizeof path) != 0)
        return papi_error(PAPI_EINVAL, "%s%s: its file's path is too long", ctx->src->common.prefix,
                          e->name);
    struct node_slot *s = &ctx->slots[ctx->nslots];
    *s = (struct node_slot){.event = local, .path = strdup(path)};
    if (!s->path)
        return papi_error(PAPI_ENOMEM, "no memory for a %s slot", ctx->src->common.prefix);
    uint64_t raw[NODE_MAX_SLOTS];
    ctx->nslots++;
    int ret = read_now(ctx, raw); /* a missing or malformed file is said now */
    if (ret != PAPI_OK) {
        free(s->path);
        ctx->nslots--;
        return ret;
    }
    *slot = ctx->nslots - 1;
    return PAPI_OK;
}

int node_remove(struct cmp_context *ctx, int slot)
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

int node_start(struct cmp_context *ctx)
{
    uint64_t raw[NODE_MAX_SLOTS];
    int ret = read_now(ctx, raw);
    if (ret != PAPI_OK)
        return ret;
    for (int i = 0; i < ctx->nslots; i++) {
        struct node_slot *s = &ctx->slots[i];
        s->start_raw = raw[i];
        s->counted += s->at_stop; /* 0 for counters */
        s->at_stop = 0;
    }
    ctx->start_ns = now_ns();
    ctx->running = 1;
    return PAPI_OK;
}

int node_stop(struct cmp_context *ctx)
{
    uint64_t raw[NODE_MAX_SLOTS];
    int ret = read_now(ctx, raw);
    if (ret != PAPI_OK)
        return ret;
    for (int i = 0; i < ctx->nslots; i++) {
        struct node_slot *s = &ctx->slots[i];
        const struct node_event *e = event_of(ctx, i);
        if (e->instant)
            s->at_stop = raw[i] * e->scale;
        else
            s->counted += grown(e, s->start_raw, raw[i]);
    }
    ctx->ns += now_ns() - ctx->start_ns;
    ctx->running = 0;
    return PAPI_OK;
}

/* The read path: the files read, nothing of the counts written to ctx. */
int node_read(struct cmp_context *ctx, struct cmp_count *out)
{
    uint64_t raw[NODE_MAX_SLOTS], ns = 0;
    if (ctx->running) {
        struct node_fail f;
        if (numbers_now(ctx, raw, &f)) {
            atomic_store_explicit(&ctx->failed_slot, f.slot, memory_order_relaxed);
            atomic_store_explicit(&ctx->failed_line, f.line, memory_order_relaxed);
            atomic_store_explicit(&ctx->failed, f.err, memory_order_relaxed);
            return f.err == EACCES ? PAPI_EPERM : PAPI_ESYS;
        }
        ns = now_ns() - ctx->start_ns;
    }
    for (int i = 0; i < ctx->nslots; i++) {
        const struct node_slot *s = &ctx->slots[i];
        const struct node_event *e = event_of(ctx, i);
        uint64_t v = e->instant ? (ctx->running ? raw[i] * e->scale : s->at_stop)
                                : (ctx->running ? grown(e, s->start_raw, raw[i]) : 0);
        out[i].value = s->counted + v;
        out[i].time_enabled = out[i].time_running = ctx->ns + ns;
    }
    return PAPI_OK;
}
