/* count_series.c: the bounded time series of counts. Samples hold counts since the
 * start, so dropping every other one merges two intervals into one: when the table is
 * full the series keeps its whole span at half the resolution, and the differences of
 * consecutive samples always sum to the last sample (the totals). The merge happens as
 * the sample that fills the table is added, so the sampler, which sleeps step_ns after
 * each sample, takes its next one on the doubled grid: every kept interval is one step
 * (the last may be shorter: the final sample is taken when the program ends). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "count_series.h"

double cs_parse_interval(const char *text)
{
    char *end;
    if (!text || !*text)
        return -1;
    double v = strtod(text, &end);
    if (end == text || *end || !isfinite(v) || v < 0.001 || v > 86400)
        return -1;
    return v;
}

int cs_init(struct count_series *s, int cap, int width, double interval_s)
{
    memset(s, 0, sizeof *s);
    cap &= ~1; /* even: a merge keeps the last sample (odd index) */
    if (cap < 2 || width < 1)
        return -1;
    s->t = calloc((size_t)cap, sizeof *s->t);
    s->v = calloc((size_t)cap * (size_t)width, sizeof *s->v);
    if (!s->t || !s->v) {
        cs_free(s);
        return -1;
    }
    memset(s->v, 0, (size_t)cap * (size_t)width * sizeof *s->v); /* touched now */
    s->cap = cap;
    s->width = width;
    s->step_ns = (long long)(interval_s * 1e9);
    return 0;
}

void cs_free(struct count_series *s)
{
    free(s->t);
    free(s->v);
    memset(s, 0, sizeof *s);
}

static void halve(struct count_series *s)
{
    int kept = 0;
    const size_t w = (size_t)s->width;
    for (int k = 1; k < s->n; k += 2, kept++) {
        s->t[kept] = s->t[k];
        memcpy(s->v + (size_t)kept * w, s->v + (size_t)k * w, w * sizeof *s->v);
    }
    s->n = kept;
    s->step_ns *= 2;
}

void cs_add(struct count_series *s, long long t_ns, const long long *since_start)
{
    if (!s->t)
        return;
    s->t[s->n] = t_ns;
    memcpy(s->v + (size_t)s->n * (size_t)s->width, since_start, (size_t)s->width * sizeof *s->v);
    if (++s->n == s->cap)
        halve(s);
}

long long cs_delta(const struct count_series *s, int j, int i)
{
    const long long *now = s->v + (size_t)j * (size_t)s->width;
    return now[i] - (j ? now[i - s->width] : 0);
}
