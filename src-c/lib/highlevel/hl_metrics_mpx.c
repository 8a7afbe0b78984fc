/* hl_metrics_mpx.c: multiplexing for the region API's PAPI_METRICS and the running
 * fraction of each metric.
 *   - A metric whose events do not fit in one counting group (PAPI_add_event refuses
 *     one with PAPI_ECNFLCT: the PMU has not enough counters) is not dropped: the probe
 *     set, and then every thread's region set, becomes a multiplexed set (the kernel
 *     rotates the events on the counters; each count is scaled to the time it ran).
 *     Said once on stderr and in the region file (metrics.multiplexed).
 *   - Each sample of a multiplexed set also keeps, per event, the times the kernel
 *     reports (enabled, and the least running time of its terms), so each instance and
 *     region has the running fraction of the metric: the least running / enabled of its
 *     events over that span. A set that is not multiplexed keeps no times (its fraction
 *     is 1.0) and its reads do no more work than before.
 * hl_regions.c calls in here; kept apart so its logic stays about regions. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "eventset.h"
#include "hl_metrics_mpx.h"
#include "hl_notice.h"

static atomic_int metrics_multiplexed; /* the region sets are multiplexed for PAPI_METRICS */
static char mpx_reason[PAPI_HUGE_STR_LEN];
static atomic_int seen_multiplexed; /* a region set read was multiplexed (PAPI_MULTIPLEX) */

int hl_metrics_seen_multiplexed(void)
{
    return atomic_load_explicit(&seen_multiplexed, memory_order_relaxed);
}

int hl_metrics_multiplexed(void)
{
    return atomic_load(&metrics_multiplexed);
}

const char *hl_metrics_multiplex_reason(void)
{
    return hl_metrics_multiplexed() ? mpx_reason : NULL;
}

/* The probe set (stopped, with the events chosen so far) made multiplexed because event
 * does not fit beside them (why: the library's reason); PAPI_OK, or the error that
 * kept it from being multiplexed (the event is then skipped with its reason). */
int hl_metrics_multiplex(int probe, const char *event, const char *why)
{
    if (PAPI_get_multiplex(probe) > 0)
        return PAPI_ECNFLCT; /* multiplexed already: rotation does not help */
    int ret = PAPI_multiplex_init();
    if (ret == PAPI_OK)
        ret = PAPI_set_multiplex(probe);
    if (ret != PAPI_OK)
        return ret;
    snprintf(mpx_reason, sizeof mpx_reason,
             "PAPI_METRICS: %s does not fit in one counting group with the other events (%s): "
             "the region event sets are multiplexed and each metric carries the running "
             "fraction of its events",
             event, why);
    atomic_store(&metrics_multiplexed, 1);
    char msg[PAPI_HUGE_STR_LEN + 32];
    snprintf(msg, sizeof msg, "PAPI_hl_region_begin: %s", mpx_reason);
    hl_notice_once(msg);
    return PAPI_OK;
}

/* Some PMUs accept each event at PAPI_add_event and refuse the group only when it is
 * scheduled (PAPI_start says PAPI_ECNFLCT): the probe, with PAPI_METRICS's events added,
 * is started once to find out, and multiplexed when it does not fit. Another set running
 * in this thread (PAPI_EISRUN) leaves it as it is: the region's own start then says. */
void hl_metrics_check_fit(int probe)
{
    if (PAPI_get_multiplex(probe) > 0)
        return;
    int ret = PAPI_start(probe);
    if (ret == PAPI_OK) {
        PAPI_stop(probe, NULL);
        return;
    }
    if (ret == PAPI_ECNFLCT)
        hl_metrics_multiplex(probe, "the events of the metrics", papi_last_error_detail());
}

/* The kernel's times of each event of the multiplexed set es into *cur (the thread's), as
 * of the read that just filled the sample: entry j is region event set->idx[j]; a derived
 * event keeps its least-running term. Called only for multiplexed sets. */
void hl_metrics_sample_times(const struct eventset *es, const struct hlr_set *set,
                             struct hlr_times *cur)
{
    for (int j = 0; j < es->nentries && j < set->n; j++) {
        const struct es_entry *e = &es->ent[j];
        const int i = set->idx[j];
        uint64_t run = es->cnt[e->term[0]].time_running;
        for (int t = 1; t < e->nterms; t++)
            if (es->cnt[e->term[t]].time_running < run)
                run = es->cnt[e->term[t]].time_running;
        cur->enabled[i] = (long long)es->cnt[e->term[0]].time_enabled;
        cur->running[i] = (long long)run;
    }
    if (!atomic_load_explicit(&seen_multiplexed, memory_order_relaxed))
        atomic_store_explicit(&seen_multiplexed, 1, memory_order_relaxed);
}

/* A region instance begins: its begin and mark times are the last read's. */
void hl_metrics_begin_times(const struct hlr_thread *t, struct hlr_region *g)
{
    if (!hl_metrics_seen_multiplexed())
        return; /* not multiplexed: no times */
    g->t_begin = g->t_mark = t->t_cur;
}

/* accumulate()'s part for the times: the region's totals since its mark, the instance's
 * value since its begin. */
void hl_metrics_accumulate_times(const struct hlr_thread *t, struct hlr_region *g,
                                 struct hlr_instance *in)
{
    if (!hl_metrics_seen_multiplexed())
        return;
    const struct hlr_times *cur = &t->t_cur;
    for (int i = 0; i < g_hlr.nevents; i++) {
        g->t_total.enabled[i] += cur->enabled[i] - g->t_mark.enabled[i];
        g->t_total.running[i] += cur->running[i] - g->t_mark.running[i];
        in->t_value.enabled[i] = cur->enabled[i] - g->t_begin.enabled[i];
        in->t_value.running[i] = cur->running[i] - g->t_begin.running[i];
    }
    g->t_mark = *cur;
}

/* The running fraction of metric p over sample s: the least running / enabled of the
 * events it reads; 1.0 when none was time-shared (or the set is not multiplexed), 0.0
 * when one never ran. */
double hl_metric_running_fraction(const struct metric_plan *p, const struct hlr_times *s)
{
    double f = 1.0;
    for (int k = 0; k < p->nidx; k++) {
        int i = p->idx[k];
        if (s->enabled[i] <= 0)
            continue; /* not multiplexed: no times kept */
        double fi =
            s->running[i] >= s->enabled[i] ? 1.0 : (double)s->running[i] / (double)s->enabled[i];
        if (fi < f)
            f = fi;
    }
    return f;
}
