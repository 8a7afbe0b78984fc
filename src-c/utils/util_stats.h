/* util_stats.h: minimum, maximum, mean and standard deviation of a series of cycle
 * counts (papi_cost, papi_multiplex_cost). */
#ifndef UTIL_STATS_H
#define UTIL_STATS_H

struct util_stats {
    long long min, max;
    double mean, std;
};

/* The statistics of d[0..n), n >= 1. */
void util_stats_compute(const long long *d, long n, struct util_stats *s);

#endif
