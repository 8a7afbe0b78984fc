/* hl_metric_value.c: one metric's value written as JSON (the region report's and the
 * time series'), kept below both so neither calls the other. */
#include "hl_metric_value.h"
#include "json_writer.h"

/* One metric value, or null with no reason kept (the file says null; the summary the why). */
void hl_write_metric_value(struct jw *w, const struct metric_plan *p, const long long *v,
                           long long real_nsec)
{
    double x;
    char why[256];
    if (metric_plan_eval(p, v, (double)real_nsec * 1e-9, &x, why, sizeof why) == PAPI_OK)
        jw_double(w, p->name, x);
    else
        jw_null(w, p->name);
}
