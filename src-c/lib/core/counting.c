/* counting.c: start, stop, read, accum, reset, write.
 *
 * A native's value is its component's count (es->cnt, last read) - baseline. start
 * makes every value zero by moving the baseline to the frozen count (no reset), reset
 * and accum move it to the count just read, write moves it so that the value reads as
 * the one written. So read and accum cost one component read (one read() per perf
 * group, or none with user-space counter reads), start one enable, stop one disable
 * plus the read that freezes the values. */
#include <string.h>

#include "eventset.h"
#include "multiplex_internal.h"

const struct es_overflow_hooks *_Atomic es_overflow_hooks;

/* One running event set per thread and component, as in PAPI (handle + 1, 0 = none). */
static _Thread_local int running_handle[CMP_MAX];

static long long native_value(const struct eventset *es, int ni)
{
    if (__builtin_expect(es->multiplexed, 0))
        return mpx_scaled_value(&es->nat[ni], &es->cnt[ni]);
    return (long long)(es->cnt[ni].value - es->nat[ni].baseline);
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

static inline __attribute__((always_inline)) void compute_values(const struct eventset *es,
                                                                 long long *values)
{
    if (__builtin_expect(es->multiplexed, 0)) {
        for (int e = 0; e < es->nentries; e++) {
            const struct es_entry *ent = &es->ent[e];
            values[e] = ent->derived ? derived_value(es, ent) : native_value(es, ent->term[0]);
        }
        return;
    }
    for (int e = 0; e < es->nentries; e++) {
        const struct es_entry *ent = &es->ent[e];
        if (__builtin_expect(ent->derived, 0))
            values[e] = derived_value(es, ent);
        else
            values[e] = (long long)(*ent->count - *ent->baseline);
    }
}

void es_compute_values(struct eventset *es, long long *values)
{
    compute_values(es, values);
}

static int get_set(int EventSet, struct eventset **es)
{
    /* Inline fast path of es_get: the counting calls are the hot path. */
    if (__builtin_expect(g_papi.init_state != PAPI_NOT_INITED, 1)) {
        *es = es_lookup(EventSet);
        if (__builtin_expect(*es != NULL, 1))
            return PAPI_OK;
    }
    return es_get(EventSet, es);
}

static inline __attribute__((always_inline)) int read_values(struct eventset *es,
                                                              long long *values)
{
    if (es->state & PAPI_RUNNING) {
        int ret = es_read_counts(es);
        if (__builtin_expect(ret != PAPI_OK, 0))
            return ret;
    } else if (__builtin_expect(es->cidx < 0, 0)) { /* off the running (hot) path */
        return papi_error(PAPI_ENOCMP, "EventSet %d is empty: no component to read", es->handle);
    }
    compute_values(es, values);
    return PAPI_OK;
}

int es_read_values(struct eventset *es, long long *values)
{
    return read_values(es, values);
}

static void rebase(struct eventset *es)
{
    for (int i = 0; i < es->nnat; i++)
        es->nat[i].baseline = es->cnt[i].value;
    if (es->multiplexed)
        mpx_rebase(es);
}

int PAPI_start(int EventSet)
{
    struct eventset *es;
    int ret = get_set(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    if (es->state & PAPI_RUNNING)
        return papi_error(PAPI_EISRUN, "EventSet %d is already running", EventSet);
    if (es->nentries == 0)
        return papi_error(PAPI_EINVAL, "EventSet %d has no events to start", EventSet);
    if (!es->ctx)
        return papi_error(PAPI_EBUG, "EventSet %d has events but no component state", EventSet);
    int own = !(es->state & (PAPI_ATTACHED | PAPI_CPU_ATTACHED));
    int other = running_handle[es->cidx] - 1;
    if (own && other >= 0 && es_lookup(other) && (es_lookup(other)->state & PAPI_RUNNING))
        return papi_error(PAPI_EISRUN,
                          "EventSet %d is already running in this thread on component %d; stop it "
                          "before starting EventSet %d", other, es->cidx, EventSet);
    rebase(es);
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
    if (own)
        running_handle[es->cidx] = EventSet + 1;
    return PAPI_OK;
}

int PAPI_stop(int EventSet, long long *values)
{
    struct eventset *es;
    int ret = get_set(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    if (!(es->state & PAPI_RUNNING))
        return papi_error(PAPI_ENOTRUN, "EventSet %d is not running", EventSet);
    ret = es->cmp->stop(es->ctx);
    if (es->overflow)
        es_overflow_hooks->stop(es);
    if (ret == PAPI_OK)
        ret = es_read_counts(es);
    if (ret != PAPI_OK)
        return ret;
    es->state = (es->state & ~PAPI_RUNNING) | PAPI_STOPPED;
    if (running_handle[es->cidx] == EventSet + 1)
        running_handle[es->cidx] = 0;
    if (values)
        es_compute_values(es, values);
    return PAPI_OK;
}

/* Why PAPI_read was refused (kept out of its hot path). */
static __attribute__((noinline, cold)) int read_refused(int EventSet, const long long *values)
{
    struct eventset *es;
    int ret = es_get(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    if (!values)
        return papi_error(PAPI_EINVAL, "values is NULL");
    return PAPI_OK;
}

int PAPI_read(int EventSet, long long *values)
{
    /* The table is empty unless the library is initialised (PAPI_shutdown empties it). */
    struct eventset *es = es_lookup(EventSet);
    if (__builtin_expect(!es || !values, 0)) {
        int ret = read_refused(EventSet, values);
        if (ret != PAPI_OK || !(es = es_lookup(EventSet)))
            return ret != PAPI_OK ? ret : papi_error(PAPI_ENOEVST, "EventSet %d does not exist",
                                                     EventSet);
    }
    return read_values(es, values);
}

int PAPI_read_ts(int EventSet, long long *values, long long *cyc)
{
    if (!cyc)
        return papi_error(PAPI_EINVAL, "cyc is NULL");
    int ret = PAPI_read(EventSet, values);
    if (ret == PAPI_OK)
        *cyc = PAPI_get_real_cyc();
    return ret;
}

int PAPI_accum(int EventSet, long long *values)
{
    struct eventset *es;
    int ret = get_set(EventSet, &es);
    if (__builtin_expect(ret != PAPI_OK, 0))
        return ret;
    if (__builtin_expect(!values, 0))
        return papi_error(PAPI_EINVAL, "values is NULL");
    if (__builtin_expect(es->cidx < 0, 0))
        return papi_error(PAPI_ENOCMP, "EventSet %d is empty: no component to read", EventSet);
    long long now[ES_MAX_ENTRIES];
    ret = es_read_values(es, now);
    if (__builtin_expect(ret != PAPI_OK, 0))
        return ret;
    for (int e = 0; e < es->nentries; e++)
        values[e] += now[e];
    rebase(es);
    return PAPI_OK;
}

int PAPI_reset(int EventSet)
{
    struct eventset *es;
    int ret = get_set(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    /* A stopped set's counts are frozen in es->cnt: no system call. */
    if (es->state & PAPI_RUNNING) {
        ret = es_read_counts(es);
        if (ret != PAPI_OK)
            return ret;
    }
    rebase(es);
    return PAPI_OK;
}

int PAPI_write(int EventSet, long long *values)
{
    struct eventset *es;
    int ret = get_set(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    if (!values)
        return papi_error(PAPI_EINVAL, "values is NULL");
    for (int e = 0; e < es->nentries; e++)
        if (es->ent[e].preset && es->ent[e].preset->op == DERIVE_POSTFIX)
            return papi_error(PAPI_ECMP, "cannot write a value into the postfix-derived event at "
                                         "position %d", e);
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
            es->nat[ni].baseline = es->cnt[ni].value - (uint64_t)(t == 0 ? values[e] : 0);
        }
    }
    return PAPI_OK;
}
