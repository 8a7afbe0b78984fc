/* counting.c: start, stop, read, accum, reset, write.
 *
 * A native's value is its component's count (es->cnt, last read) - baseline. start
 * makes every value zero by moving the baseline to the frozen count (no reset), reset
 * and accum move it to the count just read, write moves it so that the value reads as
 * the one written. So read and accum cost one component read (one read() per perf
 * group, or none with user-space counter reads), start one enable, stop one disable
 * plus the read that freezes the values. A plain set (entry e is native e, no derived or
 * multiplexed values) hands PAPI_read and PAPI_accum whole to its component's
 * read_values, which reads and subtracts the baselines in one pass. */
#include <string.h>

#include "counting.h"
#include "events.h"
#include "eventset_events.h"
#include "eventset_handles.h"
#include "multiplex.h"
#include "threads.h"
#include "call_guard.h"

const struct es_overflow_hooks *_Atomic es_overflow_hooks;

/* read() is async-signal-safe and only records why it failed: the component says it
 * now (the code stays read()'s), not at its next call, so PAPI_strerror_detail() after a
 * failed PAPI_read holds the component's reason. */
__attribute__((noinline, cold)) int es_read_failed(struct eventset *es, int ret)
{
    if (es->cmp->read_reason)
        es->cmp->read_reason(es->ctx);
    return ret;
}

static long long native_value(const struct eventset *es, int ni)
{
    if (__builtin_expect(es->multiplexed, 0))
        return mpx_scaled_value(&es->nat[ni], &es->cnt[ni], es->base[ni]);
    return (long long)(es->cnt[ni].value - es->base[ni]);
}

/* A derived preset entry: its terms combined (kept out of the hot loop below). */
static __attribute__((noinline)) long long derived_value(const struct eventset *es,
                                                         const struct es_entry *ent)
{
    long long t[PRESET_MAX_TERMS];
    for (int i = 0; i < ent->nterms; i++)
        t[i] = native_value(es, ent->term[i]);
    return preset_compute(ent->preset, t);
}

static inline long long entry_value(const struct eventset *es, int e)
{
    const struct es_entry *ent = &es->ent[e];
    return __builtin_expect(ent->derived, 0) ? derived_value(es, ent)
                                             : native_value(es, ent->term[0]);
}

/* A multiplexed set whose entry i is native i: one scaling per native, inline (PAPI_read of
 * 8 or 16 multiplexed events paid a call and two tests per entry on top of it). */
static __attribute__((noinline)) void scaled_values(const struct eventset *es, long long *values)
{
    const struct es_native *n = es->nat;
    const struct cmp_count *c = es->cnt;
    const uint64_t *b = es->base;
    for (int i = es->nnat; i > 0; i--)
        *values++ = mpx_scaled_value(n++, c++, *b++);
}

void es_compute_values(struct eventset *es, long long *values)
{
    if (es->multiplexed && es->direct) {
        scaled_values(es, values);
        return;
    }
    for (int e = 0; e < es->nentries; e++)
        values[e] = entry_value(es, e);
}

/* Inline fast path of es_get (the counting calls are the hot path): the set, or NULL
 * (then set_missing says why). The set comes back in a register, not through memory. */
static inline __attribute__((always_inline)) struct eventset *get_set(int EventSet)
{
    if (__builtin_expect(g_papi.init_state != PAPI_NOT_INITED, 1))
        return es_lookup(EventSet);
    return NULL;
}

/* Why get_set found no set: es_get's error (a set created meanwhile did not exist when
 * the call looked). */
static __attribute__((noinline, cold)) int set_missing(int EventSet)
{
    struct eventset *es;
    int ret = es_get(EventSet, &es);
    return ret != PAPI_OK ? ret : papi_error(PAPI_ENOEVST, "EventSet %d does not exist", EventSet);
}

/* Everything but a plain running set's read (that is the component's read_values). */
static __attribute__((noinline)) int read_values(struct eventset *es, long long *values)
{
    if (es->state & PAPI_RUNNING) {
        int ret = es_read_counts(es);
        if (__builtin_expect(ret != PAPI_OK, 0))
            return ret;
    } else if (__builtin_expect(es->cidx < 0, 0)) {
        return papi_error(PAPI_ENOCMP, "EventSet %d is empty: no component to read", es->handle);
    }
    es_compute_values(es, values);
    return PAPI_OK;
}

int es_read_values(struct eventset *es, long long *values)
{
    if (es->fast_read) /* the high level takes the process time from the times */
        return es->fast_read(es->ctx, es->cnt, es->base, values, CMP_READ_TIMES);
    return read_values(es, values);
}

static void rebase(struct eventset *es)
{
    for (int i = 0; i < es->nnat; i++)
        es->base[i] = es->cnt[i].value;
    if (es->multiplexed)
        mpx_rebase(es);
}

int PAPI_start(int EventSet)
{
    PAPI_CALL_GUARD();
    struct eventset *es = get_set(EventSet);
    if (__builtin_expect(!es, 0))
        return set_missing(EventSet);
    int ret;
    if (es->state & PAPI_RUNNING)
        return papi_error(PAPI_EISRUN, "EventSet %d is already running", EventSet);
    if (es->nentries == 0)
        return papi_error(PAPI_EINVAL, "EventSet %d has no events to start", EventSet);
    if (!es->ctx)
        return papi_error(es->owner_tid != papi_gettid() ? PAPI_ECNFLCT : PAPI_EBUG,
                          "EventSet %d has events but no open counters (the thread that created "
                          "it, %d, has ended and its descriptors were released)",
                          EventSet, (int)es->owner_tid);
    int own = !(es->state & (PAPI_ATTACHED | PAPI_CPU_ATTACHED));
    /* One running event set per thread and component, as in PAPI: in the call's slot. */
    int *running_handle = papi_entered_->running;
    int other = running_handle[es->cidx] - 1;
    if (own && other >= 0 && es_lookup(other) && (es_lookup(other)->state & PAPI_RUNNING))
        return papi_error(PAPI_EISRUN,
                          "EventSet %d is already running in this thread on component %d; stop it "
                          "before starting EventSet %d",
                          other, es->cidx, EventSet);
    rebase(es);
    es_update_plain(es);
    if (es->overflow && (ret = es_overflow_hooks->start(es)) != PAPI_OK) {
        es_overflow_hooks->stop(es);
        return ret;
    }
    ret = es->cmp->start(es->ctx);
    if (ret != PAPI_OK) {
        if (es->overflow)
            es_overflow_hooks->stop(es);
        return ret;
    }
    es->state = (es->state & ~PAPI_STOPPED) | PAPI_RUNNING;
    __atomic_store_n(&es->fast_read, es->plain ? es->cmp->read_values : NULL, __ATOMIC_RELAXED);
    /* The unguarded read below, for this thread only, where the shutdown's barrier
     * reaches every thread (call_guard.c); elsewhere reads take the guarded path. */
    if (es->plain && __atomic_load_n(&papi_barrier_ok, __ATOMIC_RELAXED))
        __atomic_store_n(&es->reader, papi_thread_pointer(), __ATOMIC_RELAXED);
    if (own)
        running_handle[es->cidx] = EventSet + 1;
    return PAPI_OK;
}

int PAPI_stop(int EventSet, long long *values)
{
    PAPI_CALL_GUARD();
    struct eventset *es = get_set(EventSet);
    if (__builtin_expect(!es, 0))
        return set_missing(EventSet);
    int ret;
    if (!(es->state & PAPI_RUNNING))
        return papi_error(PAPI_ENOTRUN, "EventSet %d is not running", EventSet);
    __atomic_store_n(&es->reader, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&es->fast_read, NULL, __ATOMIC_RELAXED);
    ret = es->cmp->stop(es->ctx);
    if (es->overflow)
        es_overflow_hooks->stop(es);
    if (ret == PAPI_OK)
        ret = es_read_counts(es);
    if (ret != PAPI_OK)
        return ret;
    es->state = (es->state & ~PAPI_RUNNING) | PAPI_STOPPED;
    if (papi_entered_->running[es->cidx] == EventSet + 1)
        papi_entered_->running[es->cidx] = 0;
    if (values)
        es_compute_values(es, values);
    return PAPI_OK;
}

/* Not a plain running set: read (when running), add, rebase. */
static __attribute__((noinline)) int accum_values(struct eventset *es, long long *values)
{
    if (es->cidx < 0)
        return papi_error(PAPI_ENOCMP, "EventSet %d is empty: no component to read", es->handle);
    if (es->state & PAPI_RUNNING) {
        int ret = es_read_counts(es);
        if (ret != PAPI_OK)
            return ret;
    }
    for (int e = 0; e < es->nentries; e++)
        values[e] += entry_value(es, e);
    rebase(es);
    return PAPI_OK;
}

/* PAPI_read and PAPI_accum for anything but a plain running set read by the thread
 * that started it: guarded (call_guard.h), the checks of what they were given, then the
 * general path (kept out of the hot path's frame). */
static __attribute__((noinline)) int read_general(int EventSet, long long *values, int mode)
{
    PAPI_CALL_GUARD();
    struct eventset *es = get_set(EventSet);
    if (__builtin_expect(!es, 0))
        return set_missing(EventSet);
    if (!values)
        return papi_error(PAPI_EINVAL, "values is NULL");
    if (es->fast_read)
        return es->fast_read(es->ctx, es->cnt, es->base, values, mode);
    return mode & CMP_READ_ACCUM ? accum_values(es, values) : read_values(es, values);
}

/* The hot path: a table load, the set's reader compared with this thread, the set
 * marked as being read, and a call into the component, which reads the counters (user
 * space: no system call) and writes the values itself. The set is not multiplexed
 * (plain), so its values need no times: PAPI_get_event_running_fraction and the high
 * level do not take them from a PAPI_read.
 * Against PAPI_shutdown in another thread, without the call guard (the address of its
 * thread-local slot alone costs more than the 1.5x bound over the raw user-space read
 * leaves): the mark is a plain store into the set, which is never freed while the
 * library is loaded (eventset_table.c keeps freed sets for reuse), so a set may be
 * looked at even after a shutdown took it away. The shutdown clears reader and
 * fast_read, runs a barrier on every thread (membarrier) and waits until reading is 0:
 * either it sees this thread's mark, or this thread's load of fast_read after the mark
 * sees NULL. A PAPI_read in a signal handler that interrupted one of this set (already
 * marked) takes the general path, which leaves the mark alone. No frame pointer: the
 * two instructions it costs are the margin of the arm64 lane's 1.5x bound. */
#if defined(__GNUC__) && !defined(__clang__)
#define READ_FRAME __attribute__((optimize("omit-frame-pointer")))
#else
#define READ_FRAME
#endif
static inline __attribute__((always_inline)) int read_or_accum(int EventSet, long long *values,
                                                               int mode)
{
    /* The table is empty unless the library is initialised (PAPI_shutdown empties it). */
    struct eventset *es = es_lookup(EventSet);
    uintptr_t me = papi_thread_pointer();
    if (__builtin_expect(es && values && ES_PEEK(es->reader) == me && !ES_PEEK(es->reading), 1)) {
        __atomic_store_n(&es->reading, me, __ATOMIC_RELAXED);
        __atomic_signal_fence(__ATOMIC_SEQ_CST); /* the CPU's barrier: the shutdown's membarrier */
        int (*fast)(struct cmp_context *, struct cmp_count *, uint64_t *, long long *, int) =
            ES_PEEK(es->fast_read);
        if (__builtin_expect(fast != NULL, 1)) {
            int ret = fast(es->ctx, es->cnt, es->base, values, mode);
            __atomic_store_n(&es->reading, 0, __ATOMIC_RELEASE);
            return ret;
        }
        __atomic_store_n(&es->reading, 0, __ATOMIC_RELEASE);
    }
    return read_general(EventSet, values, mode);
}

READ_FRAME int PAPI_read(int EventSet, long long *values)
{
    return read_or_accum(EventSet, values, 0);
}

int PAPI_read_ts(int EventSet, long long *values, long long *cyc)
{
    PAPI_CALL_GUARD();
    if (!cyc)
        return papi_error(PAPI_EINVAL, "cyc is NULL");
    int ret = PAPI_read(EventSet, values);
    if (ret == PAPI_OK)
        *cyc = PAPI_get_real_cyc();
    return ret;
}

READ_FRAME int PAPI_accum(int EventSet, long long *values)
{
    return read_or_accum(EventSet, values, CMP_READ_ACCUM);
}

int PAPI_reset(int EventSet)
{
    PAPI_CALL_GUARD();
    struct eventset *es = get_set(EventSet);
    if (__builtin_expect(!es, 0))
        return set_missing(EventSet);
    int ret;
    /* A stopped set's counts are frozen in es->cnt: no system call. A running one's are
     * zeroed by its component when that is cheaper than reading them (perf_event: one
     * ioctl per group instead of a read()), else read and made the baselines. */
    if (es->state & PAPI_RUNNING) {
        if (!es->multiplexed && es->cmp->reset && es->cmp->reset(es->ctx) == PAPI_OK) {
            for (int i = 0; i < es->nnat; i++)
                es->cnt[i].value = es->base[i] = 0;
            return PAPI_OK;
        }
        ret = es_read_counts(es);
        if (ret != PAPI_OK)
            return ret;
    }
    rebase(es);
    return PAPI_OK;
}

int PAPI_write(int EventSet, long long *values)
{
    PAPI_CALL_GUARD();
    struct eventset *es = get_set(EventSet);
    if (__builtin_expect(!es, 0))
        return set_missing(EventSet);
    int ret;
    if (!values)
        return papi_error(PAPI_EINVAL, "values is NULL");
    for (int e = 0; e < es->nentries; e++)
        if (es->ent[e].preset && es->ent[e].preset->op == DERIVE_POSTFIX)
            return papi_error(PAPI_ECMP,
                              "cannot write a value into the postfix-derived event at "
                              "position %d",
                              e);
    if (es->state & PAPI_RUNNING) {
        ret = es_read_counts(es);
        if (ret != PAPI_OK)
            return ret;
    }
    /* A derived entry takes the value on its first term, its other terms read zero. */
    for (int e = 0; e < es->nentries; e++) {
        const struct es_entry *ent = &es->ent[e];
        for (int t = 0; t < ent->nterms; t++) {
            int ni = ent->term[t];
            es->base[ni] = es->cnt[ni].value - (uint64_t)(t == 0 ? values[e] : 0);
        }
    }
    return PAPI_OK;
}
