/* util_stats.c: statistics of a series of cycle counts. */
#include <math.h>

#include "util_stats.h"

void util_stats_compute(const long long *d, long n, struct util_stats *s)
{
    double sum = 0, sq = 0;
    s->min = d[0];
    s->max = d[0];
    for (long i = 0; i < n; i++) {
        if (d[i] < s->min)
            s->min = d[i];
        if (d[i] > s->max)
            s->max = d[i];
        sum += (double)d[i];
        sq += (double)d[i] * (double)d[i];
    }
    s->mean = sum / (double)n;
    double var = sq / (double)n - s->mean * s->mean;
    s->std = var > 0 ? sqrt(var) : 0;
}
