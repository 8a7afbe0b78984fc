/* run_metrics.h: the -m metrics over the totals and their events' least running fraction (run_metrics.c). */
#ifndef RUN_METRICS_H
#define RUN_METRICS_H

#include "run.h"

/* The value of metric m over the totals (seconds: wall time); 0, or -1 with why. */
int run_metric_value(const struct run_state *s, int m, const long long *value, double seconds,
                     double *out);
/* The least running fraction of metric m's events (1.0 when not multiplexed, NaN when
 * unknown). */
double run_metric_fraction(const struct run_state *s, int m);

#endif
