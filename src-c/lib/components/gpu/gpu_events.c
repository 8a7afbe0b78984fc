/* gpu_events.c: the GPU components' engine (gpu_events.h): their probe and the read
 * function of their slots, one event at a time through the source (the naming
 * callbacks: ../event_table.c; the counting: ../slot_engine.c). Values are the device's
 * (a GPU's power is the board's, whoever asks): any target sees the same. A counter
 * that went back (the driver reloaded) grew by 0 rather than wrapping to 2^64. A device
 * lost while counting fails the stop with its reason, but the set stops all the same
 * (the lost slots keep what they counted before this period), so that the set can be
 * cleaned up: a lost GPU never holds the component's running set of the thread. The
 * vendor libraries are not async-signal-safe: a GPU event in a set that uses the
 * software overflow timer is read from its signal handler at the user's risk. */
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
/* The values of slots from .. from + n - 1 now (the read function): the source's error
 * code in f. */
static int values_now(struct cmp_context *c, enum slot_phase phase, int from, int n, uint64_t *raw,
                      struct slot_fail *f)
{
    (void)phase;
    const struct gpu_source *src = src_of(c);
    for (int i = 0; i < n; i++) {
        int err = src->read(event_of(c, from + i), table_slot_path(c, from + i), &raw[i]);
        if (err) {
            *f = (struct slot_fail){.err = err, .slot = from + i};
            return PAPI_ESYS;
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
    return papi_error(PAPI_ESYS, "%s%s: %s", src_of(c)->common.prefix, e->name, why);
}

/* ---- slots ------------------------------------------------------------------------- */
static int open_slot(struct cmp_context *c, int local, void *data, struct slot_kind *kind)
{
    int ret = table_open_slot(c, local, data);
    if (ret == PAPI_OK)
        *kind =
            (struct slot_kind){.instant = event_table_at(&src_of(c)->common.table, local)->instant,
                               .growth = SLOT_CLAMP};
    return ret;
}

static const struct slot_ops gpu_ops = {
    TABLE_SLOT_OPS, /* a device that is gone is said at once */
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
