/* gpu_events.h: the engine the GPU components share (nvml, rocm_smi, amdgpu). A component
 * finds its events at probe (a table: name, device, what to read, unit) and reads one
 * event's value now; this engine does the rest: names, contexts, the start..read
 * arithmetic and the errors, as node_events.c does for the kernel's files.
 *
 * A counter (energy) counts what grew since PAPI_start; an instantaneous value (power,
 * temperature, utilisation, memory, clocks) reads as it is now. A read that fails (a GPU
 * that fell off the bus, a file that vanished) fails that event set's read with the
 * reason; the other sets, devices and components are untouched. */
#ifndef PAPI_GPU_EVENTS_H
#define PAPI_GPU_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "component.h"

/* One event of one device. */
struct gpu_event {
    char *name;        /* after the component's "prefix:::" */
    char *descr;       /* long description */
    const char *units; /* PAPI's unit string (static) */
    char *path;        /* amdgpu: the live absolute path of its file; NULL otherwise */
    int device;        /* the vendor library's device index */
    int kind;          /* which reading (the component's own numbering) */
    int arg;           /* its argument: sensor, clock or memory type */
    int instant;       /* an instantaneous value, not a counter */
};

struct gpu_table {
    struct gpu_event *ev;
    int n, cap;
};

struct gpu_source {
    const char *prefix;      /* "nvml:::" */
    const char *description; /* for PAPI_get_component_info */
    /* Fill table (and load what it reads); PAPI_OK, or the code that disables the
     * component with the reason in reason[len] (the library or device looked for). */
    int (*discover)(struct gpu_source *src, char *reason, size_t len);
    /* One event's value now, in its units: 0, or a nonzero code of the source's own
     * (a vendor status, an errno) that explain() turns into words. path is the event's
     * file under the root in force (amdgpu) or NULL. */
    int (*read)(const struct gpu_event *e, const char *path, uint64_t *value);
    void (*explain)(const struct gpu_event *e, int err, char *buf, size_t len);
    /* Release what discover loaded (the vendor library): at shutdown and before a new
     * discover. May be NULL. */
    void (*release)(void);
    struct gpu_table table;
};

/* Append an event (strings copied): PAPI_OK or PAPI_ENOMEM. */
PAPI_INTERNAL int gpu_table_add(struct gpu_table *t, const struct gpu_event *ev);
PAPI_INTERNAL void gpu_table_free(struct gpu_table *t);
/* A device's name as PAPI 7 writes it in event names: blanks become '_'. */
PAPI_INTERNAL void gpu_sanitize_name(char *name);

/* The callbacks of every GPU component; the instance is its struct gpu_source. */
#define GPU_COMPONENT(cname, source)                                                        \
    {                                                                                       \
        .name = cname, .instance = &source, .probe = gpu_probe, .fill_info = gpu_fill_info, \
        .name_to_code = gpu_name_to_code, .code_to_name = gpu_code_to_name,                 \
        .enumerate = gpu_enumerate, .event_info = gpu_event_info, .query = gpu_query,       \
        .ctx_create = gpu_ctx_create, .ctx_destroy = gpu_ctx_destroy, .add = gpu_add,       \
        .remove = gpu_remove, .start = gpu_start, .stop = gpu_stop, .read = gpu_read,       \
        .read_reason = gpu_read_reason,                                                     \
    }

PAPI_INTERNAL int gpu_probe(struct papi_component *self, struct cmp_status *out);
PAPI_INTERNAL void gpu_fill_info(const struct papi_component *self, PAPI_component_info_t *info);
PAPI_INTERNAL int gpu_name_to_code(const struct papi_component *self, const char *name, int *local);
PAPI_INTERNAL int gpu_code_to_name(const struct papi_component *self, int local, char *out,
                                   size_t len);
PAPI_INTERNAL int gpu_enumerate(const struct papi_component *self, int *local, int modifier);
PAPI_INTERNAL int gpu_event_info(const struct papi_component *self, int local,
                                 PAPI_event_info_t *info);
PAPI_INTERNAL int gpu_query(const struct papi_component *self, int local, int domain);
PAPI_INTERNAL int gpu_ctx_create(const struct papi_component *self, const struct cmp_target *target,
                                 struct cmp_context **ctx);
PAPI_INTERNAL void gpu_ctx_destroy(struct cmp_context *ctx);
PAPI_INTERNAL int gpu_add(struct cmp_context *ctx, int local, int *slot);
PAPI_INTERNAL int gpu_remove(struct cmp_context *ctx, int slot);
PAPI_INTERNAL int gpu_start(struct cmp_context *ctx);
PAPI_INTERNAL int gpu_stop(struct cmp_context *ctx);
PAPI_INTERNAL int gpu_read(struct cmp_context *ctx, struct cmp_count *out);
PAPI_INTERNAL void gpu_read_reason(struct cmp_context *ctx);

#endif
