/* hl_metrics_mpx.h: PAPI_METRICS over a multiplexed set, and each metric's running
 * fraction (hl_metrics_mpx.c). Not installed. */
#ifndef HL_METRICS_MPX_H
#define HL_METRICS_MPX_H

#include "hl_state.h"

struct eventset;
PAPI_INTERNAL int hl_metrics_multiplexed(void);
PAPI_INTERNAL const char *hl_metrics_multiplex_reason(void);
PAPI_INTERNAL int hl_metrics_seen_multiplexed(void);
PAPI_INTERNAL int hl_metrics_multiplex(int probe, const char *event, const char *why);
PAPI_INTERNAL void hl_metrics_check_fit(int probe);
PAPI_INTERNAL void hl_metrics_sample_times(const struct eventset *es, const struct hlr_set *set,
                                           struct hlr_times *cur);
PAPI_INTERNAL void hl_metrics_begin_times(const struct hlr_thread *t, struct hlr_region *g);
PAPI_INTERNAL void hl_metrics_accumulate_times(const struct hlr_thread *t, struct hlr_region *g,
                                               struct hlr_instance *in);
PAPI_INTERNAL double hl_metric_running_fraction(const struct metric_plan *p,
                                                const struct hlr_times *s);

#endif
