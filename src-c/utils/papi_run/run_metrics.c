/* run_metrics.c: the -m metrics over papi_run's totals and the least running fraction of
 * their events: the banner, the machine-readable lines and the file take them from here (a
 * leaf, so that the banner and the stat lines, which it calls, form no cycle). */
#include <math.h>
#include <string.h>

#include "papi_metrics.h"
#include "run.h"
#include "run_metrics.h"

int run_metric_value(const struct run_state *s, int m, const long long *value, double seconds,
                     double *out)
{
    const char *names[RUN_MAX_EVENTS];
    for (int i = 0; i < s->opt.nevents; i++)
        names[i] = s->opt.events[i];
    return PAPIM_evaluate(s->opt.metrics[m], s->opt.nevents, names, value, seconds, out) == PAPI_OK
               ? 0
               : -1;
}

double run_metric_fraction(const struct run_state *s, int m)
{
    PAPIM_metric_info_t info;
    double least = 1.0;
    if (PAPIM_query_metric(s->opt.metrics[m], &info) != PAPI_OK)
        return NAN;
    for (int k = 0; k < info.num_events; k++)
        for (int i = 0; i < s->opt.nevents; i++)
            if (strcmp(info.event_names[k], s->opt.events[i]) == 0 && !(s->fraction[i] >= least))
                least = s->fraction[i]; /* NaN (unknown) wins */
    return least;
}
