/* hl_metric_value.h: one PAPI_METRICS value as JSON, for the region report and the
 * time series (hl_metric_value.c). Not installed. */
#ifndef HL_METRIC_VALUE_H
#define HL_METRIC_VALUE_H

#include "metric_table.h"

struct jw;
/* One metric of counts v (g_hlr's events) over real_nsec, as "name": value, or null when
 * it has none. */
PAPI_INTERNAL void hl_write_metric_value(struct jw *w, const struct metric_plan *p,
                                         const long long *v, long long real_nsec);

#endif
