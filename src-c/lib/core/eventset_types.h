/* eventset_types.h: what an event set is, a leaf of core/ (eventset.h gathers the calls on
 * it for the layers above; the files of core/ include the headers of the calls they use).
 *
 * The model: an event set holds "entries" (what the user added: a preset or a native
 * event) and "natives" (the events its component counts, one slot each). A preset entry
 * points at one or more natives and combines their counts (derived presets). The
 * component reads every slot at once (perf_event: one group read(), or user-space
 * counter reads); reset, accum and write are arithmetic on a per-native baseline. */
#ifndef EVENTSET_TYPES_H
#define EVENTSET_TYPES_H

#include <stdatomic.h>

#include "component.h"
#include "preset_def.h"
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

/* The table of live sets (eventset_handles.c), read without a lock on the hot path. It is
 * reached through a pointer so that a forked child's atfork handler hides its parent's
 * sets by swapping one pointer (writing the table itself would cost the child a
 * copy-on-write fault per page of it); the pointer load replaces the table's address
 * computation, so the hot path costs no more instructions. */
typedef _Atomic(struct eventset *) es_slot_t;

#endif
