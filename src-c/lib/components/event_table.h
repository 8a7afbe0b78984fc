/* event_table.h: what the table components share (the node components of node/, the GPU
 * components of gpu/): the events a component finds at probe, kept in a table, and the
 * component callbacks that only name and describe them (probe's bookkeeping, info, names,
 * enumeration, event info, query). Their contexts and counting are the slot engine's
 * (slot_engine.h), over the read function of node/node_events.c or gpu/gpu_events.c;
 * their component files only find their events.
 *
 * An engine's event type begins with TABLE_EVENT_FIELDS in an anonymous union with
 * struct table_event (event_table_at below sees that part), and its source type begins
 * with struct table_source, so the instance of its components is a table_source. */
#ifndef PAPI_EVENT_TABLE_H
#define PAPI_EVENT_TABLE_H

#include <stddef.h>

#include "component.h"
#include "slot_engine.h"

#define TABLE_MAX_SLOTS 64 /* events per event set, as counters */

/* The fields every table event starts with; spelled out so an engine's event type names
 * them directly (e->name) while this file sees them as struct table_event. */
#define TABLE_EVENT_FIELDS                                                                  \
    char *name;        /* after the component's "prefix:::" */                              \
    char *descr;       /* long description */                                               \
    const char *units; /* PAPI's unit string (static) */                                    \
    char *path;        /* the live absolute path of its file; NULL for a library's value */ \
    int instant;       /* an instantaneous value, not a counter */

struct table_event {
    TABLE_EVENT_FIELDS
};

/* The events of one component: n entries of size bytes, each an engine's event type. */
struct event_table {
    char *ev;
    size_t size;
    int n, cap;
};

/* A component's description and table; an engine's source type begins with it. */
struct table_source {
    const char *prefix;      /* "net:::" */
    const char *description; /* for PAPI_get_component_info */
    /* Frees what an entry holds beyond TABLE_EVENT_FIELDS (node's key); may be NULL. */
    void (*free_entry)(struct table_event *e);
    /* Releases what discovery loaded (a vendor library): at shutdown, unless a forked
     * child keeps the machine, and before a new discovery. May be NULL. */
    void (*release)(void);
    struct event_table table;
};

static inline struct table_event *event_table_at(const struct event_table *t, int i)
{
    return (struct table_event *)(void *)(t->ev + (size_t)i * t->size);
}

/* Append ev, an entry of size bytes whose strings name, descr and path are copied (what
 * else it points to becomes the table's): PAPI_OK or PAPI_ENOMEM. */
PAPI_INTERNAL int event_table_add(struct event_table *t, const struct table_event *ev, size_t size);
/* Empty the source's table (free_entry on each entry). */
PAPI_INTERNAL void event_table_clear(struct table_source *src);

/* probe, before the engine's discovery: the lifecycle callback registered (tables freed
 * and libraries released at PAPI_shutdown), the table emptied, the library released. */
PAPI_INTERNAL int table_probe_begin(struct papi_component *self);
/* probe, after it (out->disabled and out->reason set; a table with no events should
 * have disabled it): a disabled component's table freed and library released, and
 * out->num_counters. */
PAPI_INTERNAL void table_probe_end(struct papi_component *self, struct cmp_status *out);

/* The naming callbacks of a table component (its struct papi_component lists them). */
#define TABLE_NAMING_CALLBACKS                                        \
    .fill_info = table_fill_info, .name_to_code = table_name_to_code, \
    .code_to_name = table_code_to_name, .enumerate = table_enumerate, \
    .event_info = table_event_info, .query = table_query

PAPI_INTERNAL void table_fill_info(const struct papi_component *self, PAPI_component_info_t *info);
PAPI_INTERNAL int table_name_to_code(const struct papi_component *self, const char *name,
                                     int *local);
PAPI_INTERNAL int table_code_to_name(const struct papi_component *self, int local, char *out,
                                     size_t len);
PAPI_INTERNAL int table_enumerate(const struct papi_component *self, int *local, int modifier);
PAPI_INTERNAL int table_event_info(const struct papi_component *self, int local,
                                   PAPI_event_info_t *info);
PAPI_INTERNAL int table_query(const struct papi_component *self, int local, int domain);
/* 1 when local is an event of src's table. */
PAPI_INTERNAL int table_valid(const struct table_source *src, int local);

/* The slots of a table component (slot_engine.h): a context whose own data is the
 * component's table_source, and per slot the event's file under the root in force at
 * add (NULL for a library's value; slot_size sizeof(char *)). */
PAPI_INTERNAL int table_ctx_create(const struct papi_component *self, const struct slot_ops *ops,
                                   struct cmp_context **ctx);
static inline struct table_source *table_source_of(const struct cmp_context *c)
{
    return *(struct table_source **)slot_own(c);
}

/* The table event a slot counts (the engine's event type begins with it). */
static inline const struct table_event *table_slot_event(const struct cmp_context *c, int slot)
{
    return event_table_at(&table_source_of(c)->table, slot_event(c, slot));
}

static inline const char *table_slot_path(const struct cmp_context *c, int slot)
{
    return *(char **)slot_data(c, slot);
}

/* The table's part of a table component's struct slot_ops: its context and slot data
 * (above), 64 slots per set, and an event that cannot be read refused at add. */
#define TABLE_SLOT_OPS                                                      \
    .own_size = sizeof(struct table_source *), .slot_size = sizeof(char *), \
    .max_slots = TABLE_MAX_SLOTS, .read_at_add = 1, .close = table_close_slot

/* Open a slot of event local (checked): its path into data. */
PAPI_INTERNAL int table_open_slot(struct cmp_context *c, int local, void *data);
PAPI_INTERNAL void table_close_slot(struct cmp_context *c, void *data);

#endif
