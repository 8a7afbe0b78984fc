/* run_series.c: the --interval time series, bounded. Samples hold the counts since the
 * start (what PAPI_read of the inherited counters gives), so dropping every other one
 * merges two intervals into one: when the table is full the series keeps its whole span
 * at half the resolution, and the differences of consecutive samples still sum to the
 * totals. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

static void halve(struct run_state *s)
{
    int kept = 0;
    for (int i = 1; i < s->nsamples; i += 2)
        s->samples[kept++] = s->samples[i];
    s->nsamples = kept;
    s->sample_step_ns *= 2;
}

void run_series_add(struct run_state *s, long long t_ns, const long long *value)
{
    if (!s->samples) {
        s->samples = calloc(RUN_MAX_SAMPLES, sizeof *s->samples);
        if (!s->samples) {
            fprintf(stderr, "papi_run: out of memory for the time series\n");
            s->opt.interval = 0;
            return;
        }
    }
    if (s->nsamples == RUN_MAX_SAMPLES)
        halve(s);
    struct run_sample *p = &s->samples[s->nsamples++];
    p->t_ns = t_ns;
    memcpy(p->value, value, sizeof(long long) * (size_t)s->opt.nevents);
}
