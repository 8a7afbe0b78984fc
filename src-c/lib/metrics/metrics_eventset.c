/* metrics_eventset.c: PAPIM_evaluate_eventset, a metric from the values an event set's
 * PAPI_read/PAPI_stop gave (the Fortran PAPIMF_evaluate calls it): each event of the
 * metric is found in the set by its code, so a preset or native event added under any
 * of its names matches. */
#include <string.h>

#include "papi_globals.h"
#include "papi_metrics.h"

enum { SET_MAX = 256 }; /* events of one set this call reads (a set holds far fewer) */

/* names[k]: the metric's name of the set's k-th event, or NULL when the metric has none. */
static void name_set_events(const PAPIM_metric_info_t *m, const int *codes, int n,
                            const char *names[])
{
    for (int k = 0; k < n; k++)
        names[k] = NULL;
    for (int e = 0; e < m->num_events; e++) {
        int code;
        if (PAPI_event_name_to_code(m->event_names[e], &code) != PAPI_OK)
            continue; /* PAPIM_evaluate then names the event that was not given */
        for (int k = 0; k < n; k++)
            if (codes[k] == code && !names[k])
                names[k] = m->event_names[e];
    }
}

int PAPIM_evaluate_eventset(const char *name, int EventSet, const long long values[],
                            double seconds, double *result)
{
    if (!name || !values || !result)
        return papi_error(PAPI_EINVAL, "PAPIM_evaluate_eventset: name, values or result is NULL");
    int codes[SET_MAX], n = SET_MAX;
    int ret = PAPI_list_events(EventSet, codes, &n);
    if (ret != PAPI_OK)
        return ret; /* PAPI_ENOEVST with its reason */
    if (n > SET_MAX)
        return papi_error(PAPI_EINVAL,
                          "PAPIM_evaluate_eventset: event set %d has %d events, "
                          "more than the %d this call reads",
                          EventSet, n, SET_MAX);
    PAPIM_metric_info_t m;
    if ((ret = PAPIM_query_metric(name, &m)) != PAPI_OK)
        return ret;
    const char *names[SET_MAX];
    name_set_events(&m, codes, n, names);
    return PAPIM_evaluate(name, n, names, values, seconds, result);
}
