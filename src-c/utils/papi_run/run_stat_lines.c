/* run_stat_lines.c: papi_run's counts in perf stat's machine-readable forms, on stdout in
 * place of the banner (after the program ended: its own output comes first; a pipe reads
 * them without the program's stderr). -x SEP: one line per event, "value SEP unit SEP event SEP run time
 * SEP percentage running SEP SEP" (perf stat -x: the last two, a metric's value and unit,
 * empty); --json: one object per line, {"counter-value": "text", "unit", "event",
 * "event-runtime", "pcnt-running"} (perf stat -j's keys). Each -m metric is a line of
 * its own (its unit papi_metric_avail's; its running share its events' least). An event
 * that is not counted has no line, as in the file; the notes are in the file. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "papi_metrics.h"
#include "run.h"
#include "run_metrics.h"
#include "run_stat_lines.h"

/* s as JSON string content (quotes, backslashes and control characters escaped). */
static void json_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
}

static void line(const struct run_state *s, const char *value, const char *unit, const char *name,
                 double fraction)
{
    const double elapsed_ns = (double)(s->end_ns - s->start_ns);
    const double share = s->multiplexed && !isnan(fraction) ? fraction : 1.0;
    const long long run_ns = (long long)llround(elapsed_ns * share);
    if (s->opt.json) {
        fprintf(stdout, "{\"counter-value\" : \"%s\", \"unit\" : \"", value);
        json_text(stdout, unit);
        fprintf(stdout, "\", \"event\" : \"");
        json_text(stdout, name);
        fprintf(stdout, "\", \"event-runtime\" : %lld, \"pcnt-running\" : %.2f}\n", run_ns,
                100.0 * share);
    } else {
        const char *x = s->opt.csv_sep;
        fprintf(stdout, "%s%s%s%s%s%s%lld%s%.2f%s%s\n", value, x, unit, x, name, x, run_ns, x,
                100.0 * share, x, x);
    }
}

void run_stat_lines(const struct run_state *s)
{
    const double seconds = (double)(s->end_ns - s->start_ns) * 1e-9;
    char value[64];
    for (int i = 0; i < s->opt.nevents; i++) {
        int clock = strcmp(s->opt.events[i], "perf::TASK-CLOCK") == 0;
        if (clock)
            snprintf(value, sizeof value, "%.6f", (double)s->value[i] * 1e-6);
        else
            snprintf(value, sizeof value, s->opt.json ? "%lld.000000" : "%lld", s->value[i]);
        line(s, value, clock ? "msec" : "", s->opt.events[i], s->fraction[i]);
    }
    for (int m = 0; m < s->opt.nmetrics; m++) {
        PAPIM_metric_info_t info;
        double v;
        if (run_metric_value(s, m, s->value, seconds, &v) != 0 || !isfinite(v))
            snprintf(value, sizeof value, "<not counted>");
        else
            snprintf(value, sizeof value, "%.6g", v);
        line(s, value, PAPIM_query_metric(s->opt.metrics[m], &info) == PAPI_OK ? info.unit : "",
             s->opt.metrics[m], run_metric_fraction(s, m));
    }
    fflush(stdout);
}
