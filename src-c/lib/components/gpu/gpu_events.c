/* gpu_events.c: the GPU components' engine (gpu_events.h): their probe and the read
 * function of their slots, one event at a time through the source (the naming
 * callbacks: ../event_table.c; the counting: ../slot_engine.c). Values are the device's
 * (a GPU's power is the board's, whoever asks): any target sees the same. A counter
 * that went back (the driver reloaded) grew by 0 rather than wrapping to 2^64. A device
 * lost while counting fails the stop with its reason, but the set stops all the same
 * (the lost slots keep what they counted before this period), so that the set can be
 * cleaned up: a lost GPU never holds the component's running set of the thread. The
 * vendor libraries are not async-signal-safe: a GPU event in a set that uses the
 * software overflow timer is read from its signal handler at the user's risk. An
 * interval reading (NVML's GPM: gpu_events.h) keeps per slot the device's state where
 * its interval began (start, reset, add) and is valued from it at read and stop; the
 * reset is the slot engine's, so that PAPI_reset begins a new interval. */
#include <stdio.h>
#include <string.h>

#include "gpu_events.h"
#include "slot_engine.h"

static const struct gpu_source *src_of(const struct cmp_context *c)
{
    return (const struct gpu_source *)table_source_of(c);
}

static const struct gpu_event *event_of(const struct cmp_context *c, int slot)
{
    return (const struct gpu_event *)(const void *)table_slot_event(c, slot);
}

/* ---- the table ------------------------------------------------------------------ */
int gpu_table_add(struct event_table *t, const struct gpu_event *ev)
{
    return event_table_add(t, &ev->common, sizeof *ev);
}

int gpu_table_add_kind(struct event_table *t, const struct gpu_kind *k, int device, char *name,
                       char *descr)
{
    struct gpu_event ev = {.name = name,
                           .descr = descr,
                           .units = k->units,
                           .device = device,
                           .kind = k->kind,
                           .arg = k->arg,
                           .instant = k->instant};
    return gpu_table_add(t, &ev);
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
    struct gpu_source *src = self->instance;
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
/* A slot's data: the event's file (table_slot_path reads it first) and an interval
 * reading's state. */
struct gpu_slot {
    char *path;
    void *state;
};

static int papi_code_of(const struct gpu_source *src, int err)
{
    return src->papi_code ? src->papi_code(err) : PAPI_ESYS;
}

/* An interval reading: its interval begins at start, reset and add (the value then is
 * 0), and is read at read and stop. */
static int interval_now(const struct gpu_source *src, const struct gpu_event *e,
                        enum slot_phase phase, void *state, uint64_t *raw)
{
    *raw = 0;
    if (phase == SLOT_READ || phase == SLOT_STOP)
        return src->interval->value(e, state, raw);
    return src->interval->mark(e, state);
}

/* The values of slots from .. from + n - 1 now (the read function): the source's error
 * code in f. */
static int values_now(struct cmp_context *c, enum slot_phase phase, int from, int n, uint64_t *raw,
                      struct slot_fail *f)
{
    const struct gpu_source *src = src_of(c);
    for (int i = 0; i < n; i++) {
        const struct gpu_event *e = event_of(c, from + i);
        struct gpu_slot *s = slot_data(c, from + i);
        int err = e->interval ? interval_now(src, e, phase, s->state, &raw[i])
                              : src->read(e, s->path, &raw[i]);
        if (err) {
            *f = (struct slot_fail){.err = err, .slot = from + i};
            return papi_code_of(src, err);
        }
    }
    return PAPI_OK;
}

/* The reason of a failed read, given through papi_error (never on the read path). */
static int read_error(const struct cmp_context *c, const struct slot_fail *f)
{
    const struct gpu_event *e = event_of(c, f->slot);
    char why[512];
    src_of(c)->explain(e, f->err, why, sizeof why);
    return papi_error(papi_code_of(src_of(c), f->err), "%s%s: %s", src_of(c)->common.prefix,
                      e->name, why);
}

/* ---- slots ------------------------------------------------------------------------- */
static int open_slot(struct cmp_context *c, int local, void *data, struct slot_kind *kind)
{
    int ret = table_open_slot(c, local, data);
    if (ret != PAPI_OK)
        return ret;
    const struct gpu_source *src = src_of(c);
    const struct gpu_event *e = (const void *)event_table_at(&src->common.table, local);
    struct gpu_slot *s = data;
    if (e->interval && src->interval->open(e, &s->state) != 0) {
        table_close_slot(c, data);
        return papi_error(PAPI_ENOMEM, "%s%s: no memory for its interval's state",
                          src->common.prefix, e->name);
    }
    *kind = (struct slot_kind){.instant = e->instant, .growth = SLOT_CLAMP};
    return PAPI_OK;
}

static void close_slot(struct cmp_context *c, void *data)
{
    struct gpu_slot *s = data;
    if (s->state)
        src_of(c)->interval->close(s->state);
    s->state = NULL;
    table_close_slot(c, data);
}

/* TABLE_SLOT_OPS with the larger slot data and its close. */
static const struct slot_ops gpu_ops = {
    .own_size = sizeof(struct table_source *),
    .slot_size = sizeof(struct gpu_slot),
    .max_slots = TABLE_MAX_SLOTS,
    .read_at_add = 1,
    .close = close_slot, /* a device that is gone is said at once */
    .lost = SLOT_LOST_REPORTS,
    .open = open_slot,
    .read = values_now,
    .explain = read_error,
};

int gpu_ctx_create(const struct papi_component *self, const struct cmp_target *target,
                   struct cmp_context **ctx)
{
    (void)target; /* device-wide numbers: every target sees the same */
    return table_ctx_create(self, &gpu_ops, ctx);
}
