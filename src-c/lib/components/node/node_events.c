/* node_events.c: the node components' engine (node_events.h): the table each one found
 * at probe, named "prefix:::name" (the naming callbacks: ../event_table.c), and the read
 * function of their slots, which reads each file once for all its slots (the counting:
 * ../slot_engine.c). Values are system-wide (a network interface, a sensor): any target
 * sees the same. A counter unwraps at its width (32 or 64 bits) and is scaled; an
 * instantaneous value is scaled. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsroot.h"
#include "node_events.h"
#include "slot_engine.h"

static const struct node_source *src_of(const struct cmp_context *c)
{
    return (const struct node_source *)table_source_of(c);
}

static const struct node_event *event_of(const struct cmp_context *c, int slot)
{
    return (const struct node_event *)(const void *)table_slot_event(c, slot);
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

int node_scan_lines(const char *path, const char *unreadable, struct event_table *t,
                    node_line_fn each, void *arg, char *reason, size_t len)
{
    FILE *f = fsroot_fopen(path);
    if (!f) {
        snprintf(reason, len, "%s%s is not readable (%m): %s", fsroot(), path, unreadable);
        return PAPI_ECMP;
    }
    char line[1024];
    int ret = PAPI_OK, lineno = 0;
    while (ret == PAPI_OK && fgets(line, sizeof line, f))
        ret = each(t, line, ++lineno, arg, reason, len);
    fclose(f);
    return ret;
}

static void free_key(struct table_event *e)
{
    free(((struct node_event *)(void *)e)->key);
}

int node_probe(struct papi_component *self, struct cmp_status *out)
{
    struct node_source *src = self->instance;
    src->common.free_entry = free_key;
    int ret = table_probe_begin(self);
    if (ret != PAPI_OK)
        return ret;
    out->disabled = src->discover(&src->common.table, out->reason, sizeof out->reason);
    if (!out->disabled && src->common.table.n == 0) {
        out->disabled = PAPI_ECMP;
        if (src->none_found)
            snprintf(out->reason, sizeof out->reason, "%s%s", fsroot(), src->none_found);
        else
            snprintf(out->reason, sizeof out->reason, "%s found no events", self->name);
    }
    table_probe_end(self, out);
    return PAPI_OK;
}

/* ---- reading ---------------------------------------------------------------------- */
/* The numbers of slots from .. from + n - 1 now (unscaled) into raw[], one read per file
 * (the read function: async-signal-safe); f says what failed. */
static int numbers_now(struct cmp_context *c, enum slot_phase phase, int from, int n, uint64_t *raw,
                       struct slot_fail *f)
{
    (void)phase;
    char done[SLOT_READ_MAX] = {0};
    for (int i = 0; i < n; i++) {
        if (done[i])
            continue;
        int idx[SLOT_READ_MAX], k = 0, line = 0, bad = 0;
        const struct node_event *evs[SLOT_READ_MAX];
        uint64_t vals[SLOT_READ_MAX];
        const char *path = table_slot_path(c, from + i);
        for (int j = i; j < n; j++)
            if (!done[j] && strcmp(table_slot_path(c, from + j), path) == 0) {
                done[j] = 1;
                idx[k] = j;
                evs[k++] = event_of(c, from + j);
            }
        int err = node_read_file(path, evs, k, vals, &line, &bad);
        if (err) {
            *f = (struct slot_fail){.err = err, .slot = from + idx[bad], .where = line};
            return err == EACCES ? PAPI_EPERM : PAPI_ESYS;
        }
        for (int m = 0; m < k; m++)
            raw[idx[m]] = vals[m];
    }
    return PAPI_OK;
}

/* The reason of a failed read, given through papi_error (never on the read path). */
static int read_error(const struct cmp_context *c, const struct slot_fail *f)
{
    const struct node_event *e = event_of(c, f->slot);
    const char *file = table_slot_path(c, f->slot), *prefix = src_of(c)->common.prefix;
    if (f->err == NODE_TOO_BIG)
        return papi_error(PAPI_ESYS,
                          "%s%s: %s line %d: the number at place %d%s%s%s does not fit in 64 "
                          "bits (%s): refused rather than read wrapped",
                          prefix, e->name, file, f->where, e->column + 1, e->key ? " after '" : "",
                          e->key ? e->key : "", e->key ? "'" : "",
                          e->instant ? "a signed value past +-9223372036854775807"
                                     : "a counter past 18446744073709551615");
    if (f->err != NODE_MALFORMED)
        return papi_error(f->err == EACCES ? PAPI_EPERM : PAPI_ESYS, "%s%s: cannot read %s: %s",
                          prefix, e->name, file, strerror(f->err));
    if (!f->where)
        return papi_error(PAPI_ESYS, "%s%s: %s is malformed: it has no %s%s%s", prefix, e->name,
                          file, e->key ? "line '" : "first line", e->key ? e->key : "",
                          e->key ? "'" : "");
    return papi_error(PAPI_ESYS, "%s%s: %s line %d is malformed: no number at place %d%s%s%s",
                      prefix, e->name, file, f->where, e->column + 1, e->key ? " after '" : "",
                      e->key ? e->key : "", e->key ? "'" : "");
}

/* ---- slots ------------------------------------------------------------------------- */
static int open_slot(struct cmp_context *c, int local, void *data, struct slot_kind *kind)
{
    int ret = table_open_slot(c, local, data);
    if (ret != PAPI_OK)
        return ret;
    const struct node_event *e =
        (const struct node_event *)(void *)event_table_at(&src_of(c)->common.table, local);
    *kind = (struct slot_kind){e->instant, e->width == 32 ? SLOT_U32 : SLOT_U64, e->scale};
    return PAPI_OK;
}

static const struct slot_ops node_ops = {
    TABLE_SLOT_OPS, /* a missing or malformed file is said at once */
    .lost = SLOT_LOST_FAILS, .open = open_slot, .read = numbers_now, .explain = read_error,
};

int node_ctx_create(const struct papi_component *self, const struct cmp_target *target,
                    struct cmp_context **ctx)
{
    (void)target; /* system-wide numbers: every target sees the same */
    return table_ctx_create(self, &node_ops, ctx);
}
