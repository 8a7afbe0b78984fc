/* run_banner.c: papi_run's summary on stderr, in the manner of perf stat: one line per
 * event (value and name, and when the set is multiplexed the share of the time it ran,
 * perf stat's "(xx.xx%)"), the metrics computed from the totals (with the least running
 * fraction of their events), the wall time, and how the program ended (its exit status,
 * or the signal that killed it). */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "papi_metrics.h"
#include "run.h"
#include "run_banner.h"
#include "run_metrics.h"
#include "run_openmp.h"
#include "run_sample_merge.h"
#include "run_stat_lines.h"
#include "util_common.h"

/* 1234567 as "1,234,567", as perf stat prints counts. */
static void grouped(long long v, char *buf, size_t len)
{
    char digits[32];
    snprintf(digits, sizeof digits, "%lld", v < 0 ? -v : v);
    size_t n = strlen(digits), o = 0;
    if (v < 0 && o + 1 < len)
        buf[o++] = '-';
    for (size_t i = 0; i < n && o + 2 < len; i++) {
        buf[o++] = digits[i];
        if ((n - i - 1) % 3 == 0 && i + 1 < n)
            buf[o++] = ',';
    }
    buf[o] = 0;
}

/* "  (62.50%)" when the set is multiplexed, "" when not. */
static const char *fraction_text(const struct run_state *s, double f)
{
    static char buf[48];
    buf[0] = 0;
    if (s->multiplexed && isnan(f))
        snprintf(buf, sizeof buf, "  (running fraction unknown)");
    else if (s->multiplexed)
        snprintf(buf, sizeof buf, "  (%.2f%%)", 100.0 * f);
    return buf;
}

static void print_command(const struct run_state *s)
{
    fprintf(stderr, "\n Performance counter stats for '");
    for (char **a = s->opt.argv; *a; a++)
        fprintf(stderr, "%s%s", a == s->opt.argv ? "" : " ", *a);
    fprintf(stderr, "' (papi_run: all threads and child processes):\n\n");
}

static void print_end(const struct run_state *s, double seconds)
{
    fprintf(stderr, "\n %15.9f seconds time elapsed\n", seconds);
    if (WIFSIGNALED(s->status)) {
        int sig = WTERMSIG(s->status);
        fprintf(stderr, " program killed by signal %d (%s)%s\n", sig, strsignal(sig),
                WCOREDUMP(s->status) ? ", core dumped" : "");
    } else {
        fprintf(stderr, " program exited with status %d\n", WEXITSTATUS(s->status));
    }
    if (s->note[0])
        fprintf(stderr, " note: %s\n", s->note);
    if (s->opt.gpu_counters)
        fprintf(stderr,
                " GPU counters per kernel (%s): one range per launch on each device, so the "
                "program's kernels ran serialised, one at a time (no overlap between "
                "kernels or streams)\n",
                s->opt.gpu_counters);
    if (s->multiplexed)
        fprintf(stderr,
                " multiplexed (%s): each count scaled to the share of the time it ran, "
                "in parentheses\n",
                s->multiplexed == 1 ? "PAPI_MULTIPLEX"
                                    : "the events do not fit "
                                      "the counters together");
    if (s->series.n > 0 && s->skipped > 0)
        fprintf(stderr,
                " %d samples every %.3f s in the report; %lld skipped (papi_run could not run "
                "at their time: the next was taken at the next interval)\n",
                s->series.n, (double)s->series.step_ns * 1e-9, s->skipped);
    else if (s->series.n > 0)
        fprintf(stderr, " %d samples every %.3f s in the report\n", s->series.n,
                (double)s->series.step_ns * 1e-9);
}

void run_banner(const struct run_state *s)
{
    const double seconds = (double)(s->end_ns - s->start_ns) * 1e-9;
    char num[48];
    if (s->opt.json || s->opt.csv_sep[0]) {
        run_stat_lines(s); /* in the banner's place, as perf stat -x / -j */
        return;
    }
    if (s->opt.quiet)
        return;
    print_command(s);
    for (int i = 0; i < s->opt.nevents; i++) {
        grouped(s->value[i], num, sizeof num);
        if (strcmp(s->opt.events[i], "perf::TASK-CLOCK") == 0)
            fprintf(stderr, " %18.3f msec  %s%s\n", (double)s->value[i] * 1e-6, s->opt.events[i],
                    fraction_text(s, s->fraction[i]));
        else
            fprintf(stderr, " %18s       %s%s\n", num, s->opt.events[i],
                    fraction_text(s, s->fraction[i]));
    }
    for (int m = 0; m < s->opt.nmetrics; m++) {
        PAPIM_metric_info_t info;
        double v;
        if (run_metric_value(s, m, s->value, seconds, &v) == 0 &&
            PAPIM_query_metric(s->opt.metrics[m], &info) == PAPI_OK)
            fprintf(stderr, " %18.4g       %s (%s)%s\n", v, s->opt.metrics[m], info.unit,
                    fraction_text(s, run_metric_fraction(s, m)));
        else
            fprintf(stderr, " %18s       %s (not computed: a denominator is 0)\n", "-",
                    s->opt.metrics[m]);
    }
    print_end(s, seconds);
    run_openmp_banner(s);
    if (s->opt.sampling) {
        run_sample_call_graph(s);
        run_sample_banner(s);
    }
    fputc('\n', stderr);
}
