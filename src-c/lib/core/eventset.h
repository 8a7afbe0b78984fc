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
#include "thread_pointer.h"

/* ---- event sets (eventset_table.c, eventset_events.c) -------------------------------- */
struct es_entry {
    int code;    /* as the user added it */
    int derived; /* value combines terms (preset_compute) */
    int nterms;
    int term[PRESET_MAX_TERMS];      /* indices into es->nat */
    const struct preset_def *preset; /* NULL for a native event */
};

/* A native event of the set: slot i of the component context is nat[i], its last
 * reading cnt[i] (frozen while the set is stopped), its baseline base[i] (the count
 * that reads as zero; a dense array of its own: the component's read_values takes it). */
struct es_native {
    int code;              /* native event code */
    int refs;              /* entries using it */
    uint64_t period;       /* hardware overflow threshold (overflow.c), 0 = counting only */
    uint64_t enabled_base; /* time_enabled at the baseline: multiplex scaling (multiplex.c) */
    uint64_t running_base; /* time_running at the baseline */
};

struct eventset {
    /* PAPI_read and PAPI_accum against PAPI_shutdown (counting.c): the mark of the
     * thread inside an unguarded read of this set (its papi_thread_pointer; 0 outside), and
     * the one thread that may take that path (the one that started the set; 0 for
     * none). The shutdown clears reader and fast_read, runs a barrier on every thread
     * and waits until reading is 0 before it frees anything a read touches. First, with
     * the hot path's other fields: one cache line, and the release store that ends a
     * read needs no offset on arm64. Accessed atomically (ES_PEEK for the loads). */
    uintptr_t reading;
    uintptr_t reader;
    /* PAPI_read's and PAPI_accum's whole path while the set runs plain (below): the
     * component's read_values, set by PAPI_start, NULL otherwise. */
    int (*fast_read)(struct cmp_context *ctx, struct cmp_count *out, uint64_t *baseline,
                     long long *values, int mode);
    struct cmp_context *ctx; /* the component's state for this set, NULL when empty */
    struct cmp_count *cnt;   /* the component's last reading, per slot */
    uint64_t *base;          /* per slot: the count that reads as zero */
    int handle;
    int state;                  /* PAPI_STOPPED / PAPI_RUNNING | other flag bits */
    int cidx;                   /* component, -1 until the first event */
    struct papi_component *cmp; /* papi_components[cidx] once the context exists */
    int domain;
    int granularity;
    pid_t owner_tid;  /* thread that created the set (counts itself) */
    pid_t attach_tid; /* third-party target when PAPI_ATTACHED */
    int cpu;          /* CPU for PAPI_CPU_ATTACHED / system granularity, else -1 */
    int inherit;
    int multiplexed;
    /* plain: entry e is native e, none derived, the set not multiplexed, and the
     * component has read_values: PAPI_read and PAPI_accum hand the whole read to it
     * (es_update_plain, called by PAPI_start). */
    int plain;
    /* direct: entry e is native e and none is derived (plain but for multiplexing): a
     * multiplexed set's values are then one scaling per native (es_compute_values). Kept
     * up to date as events come and go (es_update_plain). */
    int direct;
    /* The arrays grow with the events (es_reserve): a set costs what it holds, not the
     * ES_MAX_* limits (a 2-event set is a few hundred bytes). */
    int nentries, cap_entries;
    struct es_entry *ent;
    int nnat, cap_natives;
    struct es_native *nat;
    void *overflow;             /* overflow.c state, NULL when none */
    void *profile;              /* profil.c state, NULL when none */
    struct eventset *next_free; /* eventset_table.c: the pool of freed sets, or a list to free */
};

/* A relaxed atomic load of a word another thread may store concurrently: one plain
 * load (gcc's atomic load on arm64 cannot take an offset: one more instruction on the
 * hot path), an atomic one where ThreadSanitizer watches. */
#if defined(__SANITIZE_THREAD__)
#define ES_PEEK(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ES_PEEK(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#endif
#endif
#ifndef ES_PEEK
#define ES_PEEK(x) (*(volatile __typeof__(x) *)&(x))
#endif

/* The table of live sets (eventset_table.c), read without a lock on the hot path. It is
 * reached through a pointer so that a forked child's atfork handler hides its parent's
 * sets by swapping one pointer (writing the table itself would cost the child a
 * copy-on-write fault per page of it); the pointer load replaces the table's address
 * computation, so the hot path costs no more instructions. */
typedef _Atomic(struct eventset *) es_slot_t;
struct es_tables {
    es_slot_t *_Atomic current;   /* the table of this process's sets */
    es_slot_t *_Atomic inherited; /* in a forked child: the parent's, until dropped */
    /* A set's descriptors closed by the thread-exit hook (es_release_thread) against the
     * same set's cleanup or destroy in another thread: one of them closes
     * (eventset_table.c). Here so that a forked child writes one page for the three; a
     * cache line of its own, away from the pointers every PAPI_read loads. */
    _Alignas(64) pthread_mutex_t close_lock;
};
extern struct es_tables es_tables PAPI_INTERNAL;
static inline struct eventset *es_lookup(int handle) /* NULL if not a live set */
{
    if ((unsigned)handle >> __builtin_ctz(MAX_EVENTSETS)) /* a power of 2: one compare */
        return NULL;
    es_slot_t *t = ES_PEEK(*(es_slot_t **)&es_tables.current); /* relaxed, with an offset */
    return atomic_load_explicit(&t[handle], memory_order_acquire);
}
PAPI_INTERNAL int es_get(int handle, struct eventset **es); /* PAPI_ENOEVST / PAPI_ENOINIT */
/* The thread tid has ended: stop the sets it created that count it (not attached to another
 * thread or a CPU), freeze their values and close their descriptors. */
PAPI_INTERNAL void es_release_thread(pid_t tid);
PAPI_INTERNAL int es_add_code(struct eventset *es, int code);
PAPI_INTERNAL int es_remove_code(struct eventset *es, int code);
PAPI_INTERNAL void es_close_all(struct eventset *es);
/* Close and reopen every native (after a domain, attach or granularity change). */
PAPI_INTERNAL int es_reopen_all(struct eventset *es);
PAPI_INTERNAL int es_entry_index(const struct eventset *es, int code);
/* Recompute es->direct and es->plain (after every add and remove, and at PAPI_start:
 * entries, natives and options are fixed while running). */
PAPI_INTERNAL void es_update_plain(struct eventset *es);
/* Room for nentries more entries and nnat more natives (PAPI_ENOMEM, set unchanged). */
PAPI_INTERNAL int es_reserve(struct eventset *es, int nentries, int nnat);
/* Free the arrays (the set itself goes back to eventset_table.c's pool). */
PAPI_INTERNAL void es_free_arrays(struct eventset *es);
/* The library's destructor: free the pool of sets (every set was freed before). */
PAPI_INTERNAL void es_unload(void);

/* ---- counting (counting.c) ------------------------------------------------------------- */
/* Convert the counts (since baseline) into the user's values array. */
PAPI_INTERNAL void es_compute_values(struct eventset *es, long long *values);
/* The one read path: read a running set's counters (a stopped set's are frozen) and
 * fill values; PAPI_read, PAPI_accum, the high-level calls, rates and regions use it. */
PAPI_INTERNAL int es_read_values(struct eventset *es, long long *values);
/* Read the counters of a running set into es->cnt. */
/* A failed read's reason asked of the component (read_reason): counting.c. */
PAPI_INTERNAL int es_read_failed(struct eventset *es, int ret);
static inline int es_read_counts(struct eventset *es)
{
    int ret = es->cmp->read(es->ctx, es->cnt);
    return __builtin_expect(ret != PAPI_OK, 0) ? es_read_failed(es, ret) : ret;
}

/* ---- overflow hooks ----------------------------------------------------------------- */
/* Installed by overflow/ when it first arms a set (the core never calls up into it): run
 * by PAPI_start before enabling and by PAPI_stop (and shutdown) after disabling, for a
 * set whose es->overflow is set. */
struct es_overflow_hooks {
    int (*start)(struct eventset *es);
    void (*stop)(struct eventset *es);
    /* Shutdown, before the sets are freed: the overflow signal handler reads no set from
     * now on (it waits for the handlers running in other threads). inherited: a forked
     * child drops its parent's sets, whose descriptors share their open files with the
     * parent's: their flags are the parent's and stay as they are. */
    void (*quiesce)(int inherited);
};
/* Atomic: PAPI_overflow installs it from any thread (always the same value). */
extern const struct es_overflow_hooks *_Atomic es_overflow_hooks PAPI_INTERNAL;

#endif
