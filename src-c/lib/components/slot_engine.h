/* slot_engine.h: the counter-slot engine of the software components (node/, gpu/,
 * powercap/, procio/, sde/, and example/'s template). Such a component is a table of
 * its events and a read function; this engine does the rest of component.h's
 * event-set contexts: the slots (dense, added and removed), start and stop, the count
 * of each slot across start..stop periods, a counter's wrap, an instantaneous value
 * frozen at stop, a failed read recorded on the read path and given its reason outside
 * it, and the one clock (mono_clock.h) of the times.
 *
 * Values (component.h): a counter's slot counts what grew while its set ran, from the
 * raw number at start to the raw number now (slot_growth says how it wraps), times its
 * scale; an instantaneous slot counts (its values frozen at earlier stops) + (the value
 * now), so that the core's count since PAPI_start is the value now, and reads its
 * frozen value while stopped. Times are the set's running time (never multiplexed).
 *
 * A component fills a struct slot_ops, writes its own ctx_create (the target it
 * accepts, then slot_ctx_create, or table_ctx_create for a table component) and lists
 * SLOT_ENGINE_CALLBACKS (or SLOT_COMPONENT_CALLBACKS) in its struct papi_component. */
#ifndef PAPI_SLOT_ENGINE_H
#define PAPI_SLOT_ENGINE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "component.h"

#define SLOT_READ_MAX 64 /* slots one call of the read function reads at the most */

/* How a counter's growth from its raw number at start to the raw number now is taken. */
enum slot_growth {
    SLOT_U64,   /* now - start, modulo 2^64 */
    SLOT_U32,   /* a 32-bit counter: modulo 2^32 (one wrap between start and now) */
    SLOT_CLAMP, /* a counter that went back (its driver reloaded) grew by 0 */
    SLOT_F64,   /* doubles, as their bits: the bits of now - start */
    SLOT_F32,   /* floats, likewise (in the low 32 bits) */
};

/* What a slot counts: set by the component's open, may change at SLOT_START. */
struct slot_kind {
    int instant;             /* an instantaneous value, not a counter */
    enum slot_growth growth; /* a counter's */
    uint64_t scale;          /* the count is the raw number times this; 0 is 1 */
};

/* Why the engine reads: SLOT_READ is the read path (async-signal-safe, nothing of the
 * context written); the others may record what they need in the slot's data. */
enum slot_phase { SLOT_READ, SLOT_ADD, SLOT_START, SLOT_STOP, SLOT_RESET };

/* What a read found wrong, kept for the reason: the component's own code (an errno, a
 * vendor status ...; nonzero), the slot, and where and what (a line, a member; the
 * value read) when the reason names them. */
struct slot_fail {
    int err, slot, where;
    uint64_t value;
};

/* A stop whose read fails. */
enum slot_lost {
    SLOT_LOST_FAILS,   /* the stop fails with the reason; the set still runs */
    SLOT_LOST_REPORTS, /* the set stops, the lost slots keep their count; the reason */
    SLOT_LOST_FREEZES, /* the same, quietly (a counter gone is said by the reads) */
};

struct slot_ops {
    size_t own_size;  /* the component's data per context (slot_own) */
    size_t slot_size; /* and per slot (slot_data), zeroed before open */
    int max_slots;    /* per set; 0: no limit */
    enum slot_lost lost;
    int read_at_add; /* add reads every slot, so that an event that cannot be read is
                        refused at once */
    /* Open event local for a new slot of c into data and say what it counts: PAPI_OK,
     * or the error through papi_error (nothing to close). */
    int (*open)(struct cmp_context *c, int local, void *data, struct slot_kind *kind);
    void (*close)(struct cmp_context *c, void *data);  /* may be NULL */
    void (*release)(struct cmp_context *c, void *own); /* at destroy; may be NULL */
    /* The read function: the raw numbers of slots from .. from + n - 1 now into raw[0 ..
     * n - 1] (n at most SLOT_READ_MAX; every slot in one call when max_slots is at most
     * that, but a stop that stops all the same reads one at a time). PAPI_OK, or the
     * PAPI error code that read() returns, quietly, with *f filled (f->slot the slot
     * that failed). At SLOT_READ it only reads; at the other phases it may record what
     * it needs in the slots' data. */
    int (*read)(struct cmp_context *c, enum slot_phase phase, int from, int n, uint64_t *raw,
                struct slot_fail *f);
    /* The reason of f, through papi_error; returns its PAPI error code. */
    int (*explain)(const struct cmp_context *c, const struct slot_fail *f);
};

/* A new context of the component self whose slots ops counts; name begins its
 * messages ("procio", "net:::"). The component's own data (slot_own) is zeroed. */
PAPI_INTERNAL int slot_ctx_create(const struct papi_component *self, const struct slot_ops *ops,
                                  const char *name, struct cmp_context **ctx);
PAPI_INTERNAL void slot_set_kind(struct cmp_context *c, int slot, const struct slot_kind *kind);

/* A slot's state (the engine's). */
struct slot {
    int event;
    struct slot_kind kind;
    uint64_t start;   /* counters: the raw number at the last start */
    uint64_t counted; /* counters: earlier start..stop periods; instants: earlier stops */
    uint64_t at_stop; /* instants: the value at the last stop */
    uint64_t now;     /* the raw number read by the last add, start, stop or reset */
    int lost;         /* that read failed (a stop that stops all the same) */
};

/* A context. Its fields are the engine's (slot_engine.c); they are here so that the
 * accessors below, on every read path, are inline. */
struct cmp_context {
    const struct slot_ops *ops;
    const char *name;
    struct slot *slots;
    char *data; /* ops->slot_size bytes per slot */
    int nslots, cap, running;
    uint64_t start_ns, ns;
    atomic_int failed; /* the component's code of a failed read on the read path; 0: none */
    atomic_int failed_slot, failed_where;
    _Atomic uint64_t failed_value;
    max_align_t own[]; /* ops->own_size bytes */
};

/* The component's data of a context, of a slot; a slot's event; the slots. */
static inline void *slot_own(const struct cmp_context *c)
{
    return (void *)c->own;
}

static inline void *slot_data(const struct cmp_context *c, int slot)
{
    return c->data + (size_t)slot * c->ops->slot_size;
}

static inline int slot_event(const struct cmp_context *c, int slot)
{
    return c->slots[slot].event;
}

static inline int slot_count(const struct cmp_context *c)
{
    return c->nslots;
}

/* A running slot's count whose raw number is raw now (the common counter, 64 bits
 * without a scale, kept out of slot_engine.c's growth switch). */
PAPI_INTERNAL uint64_t slot_running_value_slow(const struct slot *s, uint64_t raw);
static inline uint64_t slot_running_value(const struct slot *s, uint64_t raw)
{
    const struct slot_kind *k = &s->kind;
    if (__builtin_expect(!k->instant && k->growth == SLOT_U64 && k->scale <= 1, 1))
        return s->counted + (raw - s->start);
    return slot_running_value_slow(s, raw);
}

/* One slot's value v into values[] against its baseline (component.h's read_values). */
static inline void slot_take(uint64_t v, uint64_t *baseline, long long *values, int mode)
{
    uint64_t d = v - *baseline;
    if (mode & CMP_READ_ACCUM) {
        *values += (long long)d;
        *baseline = v;
    } else {
        *values = (long long)d;
    }
}

/* component.h's read_values of a stopped set or one read with times (multiplexed). */
PAPI_INTERNAL int slot_read_values_slow(struct cmp_context *c, struct cmp_count *out,
                                        uint64_t *baseline, long long *values, int mode);

/* A component's read of one slot for the fast path below: the raw number now of the
 * slot whose data (slot_data) is data into *raw; PAPI_OK, or the PAPI error code with
 * *f filled (as the read function at SLOT_READ). */
typedef int slot_read_one_fn(const struct cmp_context *c, const void *data, int slot, uint64_t *raw,
                             struct slot_fail *f);

/* component.h's read_values (PAPI_read's fast path) of a component that reads a slot at
 * a time: a running set read without times (sde's PAPI_read) reads and counts each slot
 * in one pass. Inline so that the component's read_one is inlined too: no call per read
 * but the component's own; the context's fields are loaded once (the read path changes
 * none). Never called from a signal handler: a failure is said at once. */
static inline int slot_read_values_each(struct cmp_context *c, struct cmp_count *out,
                                        uint64_t *baseline, long long *values, int mode,
                                        slot_read_one_fn *read_one)
{
    if (__builtin_expect(!c->running || (mode & CMP_READ_TIMES), 0))
        return slot_read_values_slow(c, out, baseline, values, mode);
    const struct slot *slots = c->slots;
    const char *data = c->data;
    const size_t size = c->ops->slot_size;
    for (int i = 0, n = c->nslots; i < n; i++, data += size) {
        struct slot_fail f;
        uint64_t raw;
        if (__builtin_expect(read_one(c, data, i, &raw, &f) != PAPI_OK, 0))
            return c->ops->explain(c, &f);
        out[i].value = slot_running_value(&slots[i], raw);
        slot_take(out[i].value, &baseline[i], &values[i], mode);
    }
    return PAPI_OK;
}

/* component.h's context callbacks. */
PAPI_INTERNAL void slot_ctx_destroy(struct cmp_context *ctx);
PAPI_INTERNAL int slot_add(struct cmp_context *ctx, int local, int *slot);
PAPI_INTERNAL int slot_remove(struct cmp_context *ctx, int slot);
PAPI_INTERNAL int slot_start(struct cmp_context *ctx);
PAPI_INTERNAL int slot_stop(struct cmp_context *ctx);
PAPI_INTERNAL int slot_read(struct cmp_context *ctx, struct cmp_count *out);
PAPI_INTERNAL void slot_read_reason(struct cmp_context *ctx);
/* The reset (component.h), for a component that offers it. */
PAPI_INTERNAL int slot_reset(struct cmp_context *ctx);

/* The callbacks of a software component that names its own events: the static functions
 * of its file named after the callbacks (probe, fill_info, name_to_code, code_to_name,
 * enumerate, event_info, query, ctx_create), and the engine's. */
#define SLOT_COMPONENT_CALLBACKS                                                    \
    .probe = probe, .fill_info = fill_info, .name_to_code = name_to_code,           \
    .code_to_name = code_to_name, .enumerate = enumerate, .event_info = event_info, \
    .query = query, .ctx_create = ctx_create, SLOT_ENGINE_CALLBACKS

#define SLOT_ENGINE_CALLBACKS                                                                     \
    .ctx_destroy = slot_ctx_destroy, .add = slot_add, .remove = slot_remove, .start = slot_start, \
    .stop = slot_stop, .read = slot_read, .read_reason = slot_read_reason

#endif
