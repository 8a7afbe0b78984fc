/* component.h: the boundary between the event-set core and a counting backend.
 *
 * A component describes its native events and counts them for event sets. The core
 * (event sets, counting, multiplex scaling, overflow dispatch, presets, high level) sees
 * event codes, slots and values, never file descriptors or backend attributes; a
 * component never calls up into the core: what it needs of the library (errors with a
 * reason, the library lock, lifecycle callbacks, hardware information) is the SDK,
 * papi_sdk.h, included here. HACKING.md says how to add one.
 *
 * Event codes. A native event code carries its component, as PAPI's do:
 *     code = PAPI_NATIVE_MASK | cidx << CMP_CODE_SHIFT | local
 * Components see and return only the local part (0 .. CMP_LOCAL_MASK); the core adds
 * and strips the rest (cmp_code / cmp_of_code / cmp_local below), so any code routes to
 * its component in O(1). Presets stay in events/ and resolve to native codes.
 *
 * Event-set contexts. The core creates one context per event set when the set gets its
 * first event, and destroys it when the set is emptied or destroyed. Events are added
 * into slots 0, 1, 2 ... in order; removing a slot shifts the later ones down by one,
 * so slots stay dense and equal the core's native indices. A component keeps its per
 * event state (descriptors, groups, mmap pages, periods) in its context, never in the
 * core's structures.
 *
 * Values. read() returns, per slot, a count that only grows while the context runs (but
 * at reset(), when the component has one) and stays frozen while it is stopped, with the times the event was enabled and actually
 * counting (equal unless the hardware multiplexed it). When a component has to reopen
 * an event (after removing a group leader, changing a period) it carries the old count
 * and times over, so the core never sees a value go back. The core computes reset,
 * accum, write and multiplex scaling on top of these monotonic values.
 *
 * Errors. Every callback that returns int returns PAPI_OK or a negative PAPI error
 * code, produced through papi_error(code, "why...") so the user learns why.
 *
 * Threads. Callbacks on one context are called by one thread at a time, except read(),
 * which overflow dispatch may also call from a signal handler on the thread that
 * counts: read() must be async-signal-safe and must not modify the context (it may hand
 * a sampling slot's samples to their receiver: set_sampling below). */
#ifndef PAPI_COMPONENT_H
#define PAPI_COMPONENT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "papi.h"
#include "papi_sdk.h"

/* ---- event codes -------------------------------------------------------------------- */
#define CMP_CODE_SHIFT 26
#define CMP_CODE_MASK  0x3C000000 /* 16 components, as PAPI's PAPI_COMPONENT_MASK */
#define CMP_LOCAL_MASK 0x03FFFFFF

static inline int cmp_code(int cidx, int local)
{
    return PAPI_NATIVE_MASK | (cidx << CMP_CODE_SHIFT) | (local & CMP_LOCAL_MASK);
}
static inline int cmp_of_code(int code)
{
    return (code & CMP_CODE_MASK) >> CMP_CODE_SHIFT;
}
static inline int cmp_local(int code)
{
    return code & CMP_LOCAL_MASK;
}

/* ---- what the core tells a component -------------------------------------------------- */
/* Where and how an event set counts. Fixed for the life of a context: when the user
 * changes any of it, the core destroys the context and adds the events to a new one. */
struct cmp_target {
    int domain;      /* PAPI_DOM_* bits */
    int granularity; /* PAPI_GRN_THR, PAPI_GRN_PROC, PAPI_GRN_SYS ... */
    pid_t tid;       /* thread or process attached to (PAPI_attach), 0 = the calling thread */
    int cpu;         /* CPU attached to (PAPI_CPU_ATTACHED) or of system granularity, -1 none */
    int inherit;     /* count children created after the events are added */
    int multiplex;   /* the set is multiplexed: let the hardware time-share its events */
};

/* One slot's reading. */
struct cmp_count {
    uint64_t value;        /* events counted since the slot was added */
    uint64_t time_enabled; /* ns the slot was enabled */
    uint64_t time_running; /* ns the slot was on a counter (< time_enabled: multiplexed) */
};

/* read_values modes */
#define CMP_READ_ACCUM 1 /* add to values[] and move the baselines */
#define CMP_READ_TIMES 2 /* bring out[]'s time_enabled and time_running up to date */

/* What the probe at PAPI_library_init found. */
/* Room for a component's reason whole: fixed words, a PMU list and a PAPI_FSROOT path of
 * up to PATH_MAX. PAPI_component_info_t.disabled_reason keeps PAPI_HUGE_STR_LEN - 1 bytes
 * of it; PAPI_get_component_reason returns all of it. */
#define CMP_REASON_LEN 8192

struct cmp_status {
    int disabled;                /* 0, or the PAPI error code that disables it */
    char reason[CMP_REASON_LEN]; /* why disabled (or a caveat), whole; "" when none */
    int num_counters;            /* counters usable at once here, 0 when none */
};

struct cmp_context; /* the component's per-event-set state, opaque to the core */

/* Where a sampling slot's samples go (set_sampling, arm_sampling): n instruction
 * addresses in the order the kernel took them, and the samples the kernel dropped since
 * the previous call (its buffer was full), which the receiver must report. Called with
 * no library lock held, never twice at once for one context; it may run on a thread of
 * the component's own, and from a signal handler (read): async-signal-safe work only. */
#define CMP_PERIOD_HZ (1ULL << 63) /* set_overflow's period is a frequency in Hz */

typedef void (*cmp_sample_fn)(void *arg, int slot, const uint64_t *ips, int n, uint64_t lost);

/* ---- the interface -------------------------------------------------------------------- */
struct papi_component {
    const char *name; /* PAPI component name, e.g. "perf_event", "powercap" */
    int cidx;         /* index in the registry; set by the core before probe() */
    void *instance;   /* the implementation's data (one implementation, many instances) */

    /* Find out whether this component can count here (PMU present, permissions, sysfs
     * readable). Called once per PAPI_library_init; cheap: lazy work goes elsewhere. */
    int (*probe)(struct papi_component *self, struct cmp_status *out);
    /* Fill the parts of PAPI_get_component_info that the component knows (name,
     * description, counters, domains, granularities, num_native_events, ...). The core
     * has zeroed info and set CmpIdx, disabled and disabled_reason from the probe. */
    void (*fill_info)(const struct papi_component *self, PAPI_component_info_t *info);
    /* (Global state is released through the SDK's lifecycle callbacks: a component
     * registers one, typically in probe, and hears of PAPI_shutdown and fork there.) */

    /* Presets (events/): the core PMU whose preset tables (presets/, tables "skx",
     * "arm_ac57", ...) name this component's events, or NULL. Asked of the preset
     * component (0) only. May be NULL. */
    const char *(*preset_pmu)(const struct papi_component *self);

    /* Events. name_to_code returns PAPI_ENOEVNT, quietly (no papi_error), for names
     * that are not its own: the core tries every enabled component in index order. */
    int (*name_to_code)(const struct papi_component *self, const char *name, int *local);
    int (*code_to_name)(const struct papi_component *self, int local, char *out, size_t len);
    /* PAPI_enum_cmp_event on local codes: modifier PAPI_ENUM_FIRST sets *local to the
     * first event, PAPI_ENUM_EVENTS to the next, PAPI_NTV_ENUM_UMASKS to the next
     * qualified form of the same event; PAPI_ENOEVNT at the end. */
    int (*enumerate)(const struct papi_component *self, int *local, int modifier);
    /* PAPI_get_event_info; the core sets info->event_code to the full code after. */
    int (*event_info)(const struct papi_component *self, int local, PAPI_event_info_t *info);
    /* PAPI_query_event: PAPI_OK when the event can be counted in domain here. */
    int (*query)(const struct papi_component *self, int local, int domain);
    /* What one count of the event is worth, when the component knows it (perf_event: the
     * kernel's sysfs .scale and .unit, e.g. 6.103515625e-5 MiB per CAS command): PAPI_OK
     * with *scale and unit filled, PAPI_ENOEVNT quietly when counts are plain counts.
     * Counts stay raw in event sets; the named metrics apply it. May be NULL. */
    int (*event_scale)(const struct papi_component *self, int local, double *scale, char *unit,
                       size_t len);

    /* Event-set contexts. */
    int (*ctx_create)(const struct papi_component *self, const struct cmp_target *target,
                      struct cmp_context **ctx);
    void (*ctx_destroy)(struct cmp_context *ctx); /* closes everything; NULL is a no-op */
    /* Open event local into the next slot (returned in *slot) of a stopped context.
     * PAPI_ECNFLCT when it cannot be counted together with the slots already there; on
     * any error the context is unchanged. */
    int (*add)(struct cmp_context *ctx, int local, int *slot);
    /* Close the event in slot of a stopped context; later slots shift down by one. */
    int (*remove)(struct cmp_context *ctx, int slot);
    /* Begin counting every slot (PAPI_start). PAPI_ECNFLCT when the events cannot be
     * scheduled together (then nothing counts). */
    int (*start)(struct cmp_context *ctx);
    /* Stop counting (PAPI_stop); values stay readable and frozen. */
    int (*stop)(struct cmp_context *ctx);
    /* Read every slot into out[0 .. nslots-1] (the hot path of PAPI_read: keep it
     * lean). Async-signal-safe, no change to ctx (see Threads above). */
    int (*read)(struct cmp_context *ctx, struct cmp_count *out);
    /* After read() failed, outside the read path (PAPI_read, PAPI_accum, PAPI_stop and the
     * high level's reads; never the overflow signal handler): give the reason read()
     * recorded through papi_error, so PAPI_strerror_detail() says it at once. NULL when
     * read() gives its reason itself or has none. */
    void (*read_reason)(struct cmp_context *ctx);
    /* The fast path of PAPI_read and PAPI_accum (NULL when the component has none), for a
     * running context whose values are the plain counts of its slots: read every slot's
     * count into out[], then per slot i, with d = out[i].value - baseline[i]:
     * values[i] = d, or with CMP_READ_ACCUM values[i] += d and baseline[i] = out[i].value.
     * The times of out[] are brought up to date only with CMP_READ_TIMES (else they keep
     * their last values): the values of a set that is not multiplexed need no times, and
     * their conversion is a third of a user-space counter read. One call instead of read()
     * and the core's arithmetic after it. Never called from a signal handler. */
    int (*read_values)(struct cmp_context *ctx, struct cmp_count *out, uint64_t *baseline,
                       long long *values, int mode);
    /* PAPI_reset of a running context that is not multiplexed, when the component can zero
     * its counts for less than a read costs (NULL, or PAPI_ENOSUPP quietly: the core then
     * reads and moves its baselines): every slot's count starts again from 0, the times
     * go on. The only call after which a slot's count goes back. */
    int (*reset)(struct cmp_context *ctx);

    /* Hardware overflow (NULL when the component has none: the core then uses its
     * software overflow timer). set_overflow asks for a notification every period
     * events of slot (0 = none) on a stopped context; the slot's value stays as it was.
     * arm_overflow is called by PAPI_start before start(): route the notifications of
     * slot to thread tid as signal signo and restart its period; *source receives the
     * number the signal carries in siginfo's si_fd, by which the core finds the slot. */
    int (*set_overflow)(struct cmp_context *ctx, int slot, uint64_t period);
    /* A period with CMP_PERIOD_HZ set is a frequency (PAPI_overflow_frequency): the
     * component lets the kernel adjust the period to give that many notifications per
     * second of the event's time; PAPI_ENOSUPP when it cannot. */
    int (*arm_overflow)(struct cmp_context *ctx, int slot, int signo, pid_t tid, int *source);
    /* Slow the notifications of a running, armed slot down at once (NULL when the component
     * cannot): period is set_overflow's, CMP_PERIOD_HZ for a frequency, longer (or lower)
     * than the one armed; the context is not changed (the next arm_overflow restarts the
     * slot at its own period). Called from the overflow signal handler when it cannot keep
     * up: async-signal-safe, no papi_error (a failure is only returned). */
    int (*retune_overflow)(const struct cmp_context *ctx, int slot, uint64_t period);
    /* 1 when slot counts nanoseconds of the counted thread's time (a clock: a period is then
     * known in notifications per second before any is taken), else 0. May be NULL. */
    int (*counts_ns)(const struct cmp_context *ctx, int slot);

    /* Sampling without a signal per overflow (NULL when the component has none; profiling
     * then takes set_overflow's signals). set_sampling is set_overflow for a slot whose
     * overflows only record the instruction address: the kernel writes each into a buffer
     * shared with the process, which wakes a thread of the component every so many
     * samples; set_overflow on the slot (any period, 0 too) ends it. PAPI_ENOSUPP,
     * quietly, when the slot cannot sample so (a software event, one that counts the
     * kernel, an inherited one, no buffer from this kernel): the caller then takes the
     * signals. arm_sampling, called by PAPI_start before start(), names where the slot's
     * samples go: fn receives them from that thread, from read() and read_values() (what
     * the buffer holds when they are called) and from stop() (the last ones, after the
     * counters stopped); none after stop() returns. */
    int (*set_sampling)(struct cmp_context *ctx, int slot, uint64_t period);
    int (*arm_sampling)(struct cmp_context *ctx, int slot, cmp_sample_fn fn, void *arg);

    /* Whether the calling thread created a thread (or a process) since it last looked,
     * without a system call (NULL when the component cannot tell): *word receives a word
     * that the kernel changes in every clone(2) the thread makes, before the new task
     * runs. Kept for the process (the first thread that asks; another gets
     * PAPI_ECNFLCT) until PAPI_shutdown, after which the word must not be read; a forked
     * child gets its own. PAPI_OK or why not (PAPI_ESYS). */
    int (*clone_watch)(const struct papi_component *self, const volatile uint64_t **word);
};

#endif
