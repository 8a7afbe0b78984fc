/* event_table.c: the table components' events and the callbacks that name them
 * (event_table.h). Values are the node's or a device's, so every event reads the same
 * for any target and domain; events have no qualifiers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_table.h"
#include "fsroot.h"

#define TABLE_MAX_SOURCES 16

static struct table_source *sources[TABLE_MAX_SOURCES];

static struct table_source *source_of(const struct papi_component *self)
{
    return self->instance;
}

int event_table_add(struct event_table *t, const struct table_event *ev, size_t size)
{
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 32;
        char *grown = realloc(t->ev, (size_t)cap * size);
        if (!grown)
            return papi_error(PAPI_ENOMEM, "no memory for the events of %s", ev->name);
        t->ev = grown;
        t->cap = cap;
    }
    t->size = size;
    struct table_event *e = event_table_at(t, t->n);
    memcpy(e, ev, size);
    e->name = strdup(ev->name);
    e->descr = strdup(ev->descr);
    e->path = ev->path ? strdup(ev->path) : NULL;
    if (!e->name || !e->descr || (ev->path && !e->path)) {
        free(e->name), free(e->descr), free(e->path);
        return papi_error(PAPI_ENOMEM, "no memory for the events of %s", ev->name);
    }
    t->n++;
    return PAPI_OK;
}

void event_table_clear(struct table_source *src)
{
    struct event_table *t = &src->table;
    for (int i = 0; i < t->n; i++) {
        struct table_event *e = event_table_at(t, i);
        if (src->free_entry)
            src->free_entry(e);
        free(e->name), free(e->descr), free(e->path);
    }
    free(t->ev);
    *t = (struct event_table){0};
}

/* Tables (and libraries) are found again at the next probe. */
static void table_lifecycle(const struct papi_life *ev)
{
    if (ev->event != PAPI_LIFE_SHUTDOWN)
        return;
    for (int i = 0; i < TABLE_MAX_SOURCES && sources[i]; i++) {
        event_table_clear(sources[i]);
        if (sources[i]->release && !ev->keep_machine)
            sources[i]->release();
    }
}

static void remember(struct table_source *src)
{
    for (int i = 0; i < TABLE_MAX_SOURCES; i++)
        if (!sources[i] || sources[i] == src) {
            sources[i] = src;
            return;
        }
}

int table_probe_begin(struct papi_component *self)
{
    int ret = papi_lifecycle_register(PAPI_LIFE_STAGE_BACKENDS, table_lifecycle);
    if (ret != PAPI_OK)
        return ret;
    struct table_source *src = source_of(self);
    remember(src);
    event_table_clear(src);
    if (src->release)
        src->release();
    return PAPI_OK;
}

void table_probe_end(struct papi_component *self, struct cmp_status *out)
{
    struct table_source *src = source_of(self);
    if (out->disabled) {
        event_table_clear(src);
        if (src->release)
            src->release();
    }
    out->num_counters = src->table.n < TABLE_MAX_SLOTS ? src->table.n : TABLE_MAX_SLOTS;
}

void table_fill_info(const struct papi_component *self, PAPI_component_info_t *info)
{
    const struct table_source *src = source_of(self);
    snprintf(info->name, sizeof info->name, "%s", self->name);
    snprintf(info->short_name, sizeof info->short_name, "%s", self->name);
    snprintf(info->description, sizeof info->description, "%s", src->description);
    info->num_native_events = info->disabled ? 0 : src->table.n;
    info->num_cntrs = info->num_mpx_cntrs =
        src->table.n < TABLE_MAX_SLOTS ? src->table.n : TABLE_MAX_SLOTS;
    info->default_domain = info->available_domains = PAPI_DOM_ALL;
    /* A device's or the node's value, whoever asks (a GPU, an interface, a sensor): the
     * set counts system-wide only, as powercap's and the uncore's, which is how a reader
     * (a region file's "scope": "device") learns it is the same for every thread. */
    info->default_granularity = info->available_granularities = PAPI_GRN_SYS;
}

int table_valid(const struct table_source *src, int local)
{
    return local >= 0 && local < src->table.n;
}

int table_name_to_code(const struct papi_component *self, const char *name, int *local)
{
    const struct table_source *src = source_of(self);
    size_t plen = strlen(src->prefix);
    if (strncmp(name, src->prefix, plen) != 0)
        return PAPI_ENOEVNT; /* quietly: the core asks every component */
    for (int e = 0; e < src->table.n; e++)
        if (strcmp(name + plen, event_table_at(&src->table, e)->name) == 0) {
            *local = e;
            return PAPI_OK;
        }
    return PAPI_ENOEVNT;
}

int table_code_to_name(const struct papi_component *self, int local, char *out, size_t len)
{
    const struct table_source *src = source_of(self);
    if (!table_valid(src, local))
        return papi_error(PAPI_ENOEVNT, "%s has no event %d", self->name, local);
    if ((size_t)snprintf(out, len, "%s%s", src->prefix, event_table_at(&src->table, local)->name) >=
        len)
        return papi_error(PAPI_EBUF, "%s event name longer than %zu bytes", self->name, len - 1);
    return PAPI_OK;
}

int table_enumerate(const struct papi_component *self, int *local, int modifier)
{
    int next = modifier == PAPI_ENUM_FIRST ? 0 : modifier == PAPI_ENUM_EVENTS ? *local + 1 : -1;
    if (!table_valid(source_of(self), next))
        return PAPI_ENOEVNT; /* the end, or qualifiers: table events have none */
    *local = next;
    return PAPI_OK;
}

int table_event_info(const struct papi_component *self, int local, PAPI_event_info_t *info)
{
    const struct table_source *src = source_of(self);
    if (!table_valid(src, local))
        return papi_error(PAPI_ENOEVNT, "%s has no event %d", self->name, local);
    const struct table_event *e = event_table_at(&src->table, local);
    snprintf(info->symbol, sizeof info->symbol, "%s%s", src->prefix, e->name);
    snprintf(info->short_descr, sizeof info->short_descr, "%.63s", e->descr);
    snprintf(info->long_descr, sizeof info->long_descr, "%s", e->descr);
    snprintf(info->units, sizeof info->units, "%s", e->units);
    info->component_index = self->cidx;
    info->data_type = e->instant ? PAPI_DATATYPE_INT64 : PAPI_DATATYPE_UINT64;
    info->value_type = e->instant ? PAPI_VALUETYPE_ABSOLUTE : PAPI_VALUETYPE_RUNNING_SUM;
    info->timescope = e->instant ? PAPI_TIMESCOPE_POINT : PAPI_TIMESCOPE_SINCE_START;
    return PAPI_OK;
}

int table_query(const struct papi_component *self, int local, int domain)
{
    (void)domain; /* the node's or the device's numbers, whatever the privilege level */
    return table_valid(source_of(self), local) ? PAPI_OK : PAPI_ENOEVNT;
}

/* ---- the slots of a table component ---------------------------------------------- */
int table_ctx_create(const struct papi_component *self, const struct slot_ops *ops,
                     struct cmp_context **ctx)
{
    struct table_source *src = source_of(self);
    int ret = slot_ctx_create(self, ops, src->prefix, ctx);
    if (ret == PAPI_OK)
        *(struct table_source **)slot_own(*ctx) = src;
    return ret;
}

int table_open_slot(struct cmp_context *c, int local, void *data)
{
    const struct table_source *src = table_source_of(c);
    if (!table_valid(src, local))
        return papi_error(PAPI_ENOEVNT, "%s has no event %d", src->prefix, local);
    const struct table_event *e = event_table_at(&src->table, local);
    char path[4096];
    if (!e->path)
        return PAPI_OK;
    if (fsroot_path(e->path, path, sizeof path) != 0)
        return papi_error(PAPI_EINVAL, "%s%s: its file's path is too long", src->prefix, e->name);
    if (!(*(char **)data = strdup(path)))
        return papi_error(PAPI_ENOMEM, "no memory for a %s slot", src->prefix);
    return PAPI_OK;
}

void table_close_slot(struct cmp_context *c, void *data)
{
    (void)c;
    free(*(char **)data);
}
