/* eventset.h: event sets and counting.
 *
 * The model: an event set holds "entries" (what the user added: a preset or a native
 * event) and "natives" (the events its component counts, one slot each). A preset entry
 * points at one or more natives and combines their counts (derived presets). The
 * component reads every slot at once (perf_event: one group read(), or user-space
 * counter reads); reset, accum and write are arithmetic on a per-native baseline. */
#ifndef EVENTSET_H
#define EVENTSET_H

#include <stdatomic.h>

#include "component.h"
#include "events.h"
#include "papi_globals.h"

/* ---- event sets (eventset_table.c, eventset_events.c) -------------------------------- */
struct es_entry {
    int code;                          /* as the user added it */
    int derived;                       /* value combines terms (preset_compute) */
    /* Not derived: &es->cnt[term[0]].value and &es->nat[term[0]].baseline, so PAPI_read
     * computes the value with two loads (es_link_entries keeps them current). */
    const uint64_t *count, *baseline;
    int nterms;
    int term[PRESET_MAX_TERMS];        /* indices into es->nat */
    const struct preset_def *preset;   /* NULL for a native event */
};

/* A native event of the set: slot i of the component context is nat[i], its last
 * reading cnt[i] (frozen while the set is stopped). */
struct es_native {
    int code;             /* native event code */
    int refs;             /* entries using it */
    uint64_t baseline;    /* count that reads as zero */
    uint64_t period;      /* hardware overflow threshold (overflow.c), 0 = counting only */
    uint64_t enabled_base;  /* time_enabled at the baseline: multiplex scaling (multiplex.c) */
    uint64_t running_base;  /* time_running at the baseline */
};

struct eventset {
    int handle;
    int state;             /* PAPI_STOPPED / PAPI_RUNNING | other flag bits */
    int cidx;              /* component, -1 until the first event */
    struct papi_component *cmp; /* papi_components[cidx] once the context exists */
    struct cmp_context *ctx;    /* the component's state for this set, NULL when empty */
    int domain;
    int granularity;
    pid_t owner_tid;       /* thread that created the set (counts itself) */
    pid_t attach_tid;      /* third-party target when PAPI_ATTACHED */
    int cpu;               /* CPU for PAPI_CPU_ATTACHED / system granularity, else -1 */
    int inherit;
    int multiplexed;
    int nentries;
    struct es_entry ent[ES_MAX_ENTRIES];
    int nnat;
    struct es_native nat[ES_MAX_NATIVES];
    struct cmp_count cnt[ES_MAX_NATIVES]; /* the component's last reading, per slot */
    void *overflow;        /* overflow.c state, NULL when none */
    void *profile;         /* profil.c state, NULL when none */
    struct eventset *inherited_next; /* es_hide_inherited's list in a forked child */
};

/* The table of live sets (eventset_table.c), read without a lock on the hot path. */
extern _Atomic(struct eventset *) es_sets[MAX_EVENTSETS] PAPI_INTERNAL;
static inline struct eventset *es_lookup(int handle) /* NULL if not a live set */
{
    if ((unsigned)handle >= MAX_EVENTSETS)
        return NULL;
    return atomic_load_explicit(&es_sets[handle], memory_order_acquire);
}
PAPI_INTERNAL int es_get(int handle, struct eventset **es);  /* PAPI_ENOEVST / PAPI_ENOINIT */
/* stop_running 0: a forked child dropping its parent's sets (close, no ioctl). */
PAPI_INTERNAL void es_free_all(int stop_running);
/* In a forked child (atfork): take the parent's sets out of the table, for es_free_all. */
PAPI_INTERNAL void es_hide_inherited(void);
PAPI_INTERNAL int es_add_code(struct eventset *es, int code);
PAPI_INTERNAL int es_remove_code(struct eventset *es, int code);
PAPI_INTERNAL void es_close_all(struct eventset *es);
/* Close and reopen every native (after a domain, attach or granularity change). */
PAPI_INTERNAL int es_reopen_all(struct eventset *es);
PAPI_INTERNAL int es_entry_index(const struct eventset *es, int code);
/* Point every entry's count and baseline at its first native (after natives moved). */
PAPI_INTERNAL void es_link_entries(struct eventset *es);
/* The handle of a running event set holding code, or -1 (asked by the preset tables). */
PAPI_INTERNAL int es_code_in_running_set(int code);

/* ---- counting (counting.c) ------------------------------------------------------------- */
/* Convert the counts (since baseline) into the user's values array. */
PAPI_INTERNAL void es_compute_values(struct eventset *es, long long *values);
/* The one read path: read a running set's counters (a stopped set's are frozen) and
 * fill values; PAPI_read, PAPI_accum, the high-level calls, rates and regions use it. */
PAPI_INTERNAL int es_read_values(struct eventset *es, long long *values);
/* Read the counters of a running set into es->cnt. */
static inline int es_read_counts(struct eventset *es)
{
    return es->cmp->read(es->ctx, es->cnt);
}

/* ---- overflow hooks ----------------------------------------------------------------- */
/* Installed by overflow/ when it first arms a set (the core never calls up into it): run
 * by PAPI_start before enabling and by PAPI_stop (and shutdown) after disabling, for a
 * set whose es->overflow is set. */
struct es_overflow_hooks {
    int (*start)(struct eventset *es);
    void (*stop)(struct eventset *es);
};
/* Atomic: PAPI_overflow installs it from any thread (always the same value). */
extern const struct es_overflow_hooks *_Atomic es_overflow_hooks PAPI_INTERNAL;

#endif
