/* multiplex.c: scaling of multiplexed counts and the running fraction of each event.
 *
 * A multiplexed set asks its component to let the hardware time-share the events
 * (perf_event opens each as its own perf group), so the kernel rotates them on the
 * counters and reports per event how long it was enabled
 * and how long it actually counted. The estimate is the count times
 * delta time_enabled / delta time_running since the baseline (start, reset, accum).
 * Honesty rules: a value is never negative; an event that has not run at all since the
 * baseline reads 0 and PAPI_get_event_running_fraction reports 0.0 for it, so the
 * caller can tell "never ran" from "counted zero" (1.0). Software events are never
 * descheduled: their fraction is 1.0 and their counts exact.
 * PAPI_multiplex_init / PAPI_set_multiplex / PAPI_get_multiplex live with the other
 * event-set options in options.c (they reuse its reopen-on-change helper). */
#include "eventset_handles.h"
#include "multiplex.h"
#include "call_guard.h"

void mpx_rebase(struct eventset *es)
{
    for (int i = 0; i < es->nnat; i++) {
        es->nat[i].enabled_base = es->cnt[i].time_enabled;
        es->nat[i].running_base = es->cnt[i].time_running;
    }
}

static double native_fraction(const struct es_native *n, const struct cmp_count *c)
{
    uint64_t de = c->time_enabled - n->enabled_base;
    uint64_t dr = c->time_running - n->running_base;
    if (de == 0)
        return 0.0;
    return dr >= de ? 1.0 : (double)dr / (double)de;
}

/* fractions[i] for event i of the set, as of the last read (PAPI_read, PAPI_accum,
 * PAPI_stop); a derived event reports its least-scheduled term. *number is the size
 * of fractions on input and the count written on output. */
int PAPI_get_event_running_fraction(int EventSet, double *fractions, int *number)
{
    PAPI_CALL_GUARD();
    struct eventset *es;
    int ret = es_get(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    if (!fractions || !number)
        return papi_error(PAPI_EINVAL, "fractions or number is NULL");
    if (*number < 1)
        return papi_error(PAPI_EINVAL, "*number (%d) must be at least 1", *number);
    int n = es->nentries < *number ? es->nentries : *number;
    for (int e = 0; e < n; e++) {
        const struct es_entry *ent = &es->ent[e];
        double f = 1.0;
        if (!es->multiplexed) {
            /* Never time-shared (PAPI_start refuses a group that cannot be scheduled),
             * and PAPI_read of such a set does not bring the times up to date: it ran
             * all the time it was running. 0.0 only before it ever ran. */
            const struct cmp_count *c = &es->cnt[ent->term[0]];
            fractions[e] =
                (es->state & PAPI_RUNNING) || c->time_enabled > es->nat[ent->term[0]].enabled_base
                    ? 1.0
                    : 0.0;
            continue;
        }
        for (int t = 0; t < ent->nterms; t++) {
            double ft = native_fraction(&es->nat[ent->term[t]], &es->cnt[ent->term[t]]);
            if (ft < f)
                f = ft;
        }
        fractions[e] = f;
    }
    *number = n;
    return PAPI_OK;
}
