/* gpu_events.h: what the GPU components share (nvml, rocm_smi, amdgpu). A component
 * finds its events at probe (a table: name, device, what to read, unit) and reads one
 * event's value now; the contexts, the counting and the errors are the slot engine's
 * (../slot_engine.h), the names and the table the table components' (../event_table.h).
 *
 * A counter (energy) counts what grew since PAPI_start; an instantaneous value (power,
 * temperature, utilisation, memory, clocks) reads as it is now. A read that fails (a GPU
 * that fell off the bus, a file that vanished) fails that event set's read with the
 * reason; the other sets, devices and components are untouched. */
#ifndef PAPI_GPU_EVENTS_H
#define PAPI_GPU_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "event_table.h"
#include "slot_engine.h"

/* One event of one device (path: amdgpu's file; NULL for a vendor library's value). */
struct gpu_event {
    union {
        struct table_event common;
        struct {
            TABLE_EVENT_FIELDS
        };
    };
    int device;   /* the vendor library's device index */
    int kind;     /* which reading (the component's own numbering) */
    int arg;      /* its argument: sensor, clock or memory type */
    int interval; /* read through the source's interval (NVML's GPM): a value over the
                     interval since the set's start, from the device's state then */
};

/* Readings over an interval (NVML's GPM metrics): the state of the device at the set's
 * start (PAPI_start, PAPI_reset, add) is kept per slot, and the value now is computed
 * from it and the state now. Codes as the source's read(). */
struct gpu_interval {
    int (*open)(const struct gpu_event *e, void **state); /* the slot's state */
    void (*close)(void *state);
    int (*mark)(const struct gpu_event *e, void *state); /* the interval begins now */
    int (*value)(const struct gpu_event *e, void *state, uint64_t *value); /* over it */
};

/* A GPU component: its prefix, description, table and library release (common) and how
 * it finds and reads its events. */
struct gpu_source {
    struct table_source common;
    /* Fill table (and load what it reads); PAPI_OK, or the code that disables the
     * component with the reason in reason[len] (the library or device looked for). */
    int (*discover)(struct gpu_source *src, char *reason, size_t len);
    /* One event's value now, in its units: 0, or a nonzero code of the source's own
     * (a vendor status, an errno) that explain() turns into words. path is the event's
     * file under the root in force (amdgpu) or NULL. */
    int (*read)(const struct gpu_event *e, const char *path, uint64_t *value);
    void (*explain)(const struct gpu_event *e, int err, char *buf, size_t len);
    /* The PAPI code of a source's code (NULL: PAPI_ESYS for every one). */
    int (*papi_code)(int err);
    const struct gpu_interval *interval; /* NULL: no interval readings */
};

/* A reading a vendor library gives per device (nvml, rocm_smi): a row of the
 * component's table of kinds. */
struct gpu_kind {
    const char *name, *units, *descr;
    int kind, arg, instant;
};

/* Append an event (strings copied): PAPI_OK or PAPI_ENOMEM. */
PAPI_INTERNAL int gpu_table_add(struct event_table *t, const struct gpu_event *ev);
/* The same for the reading k of device, named and described by the component. */
PAPI_INTERNAL int gpu_table_add_kind(struct event_table *t, const struct gpu_kind *k, int device,
                                     char *name, char *descr);
/* A device's name as PAPI 7 writes it in event names: blanks become '_'. */
PAPI_INTERNAL void gpu_sanitize_name(char *name);

/* The callbacks of every GPU component; the instance is its struct gpu_source. */
#define GPU_COMPONENT(cname, source)                                                    \
    {                                                                                   \
        .name = cname, .instance = &source, .probe = gpu_probe, TABLE_NAMING_CALLBACKS, \
        .ctx_create = gpu_ctx_create, .reset = slot_reset, SLOT_ENGINE_CALLBACKS,       \
    }

PAPI_INTERNAL int gpu_probe(struct papi_component *self, struct cmp_status *out);
PAPI_INTERNAL int gpu_ctx_create(const struct papi_component *self, const struct cmp_target *target,
                                 struct cmp_context **ctx);

#endif
