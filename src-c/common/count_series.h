/* count_series.h: a bounded time series of counts (count_series.c), shared by the region
 * API's PAPI_INTERVAL, papi_run --interval and the MPI wrapper's PAPI_INTERVAL. */
#ifndef PAPI_COUNT_SERIES_H
#define PAPI_COUNT_SERIES_H

#define CS_HIDDEN __attribute__((visibility("hidden")))

/* Samples hold the counts since the start (width columns) and their time. */
struct count_series {
    int cap, width, n;
    long long step_ns; /* doubles each time the series is merged: the sampler sleeps it */
    long long *t;      /* [cap] */
    long long *v;      /* [cap][width] */
};

/* An interval in seconds from text (PAPI_INTERVAL, --interval): 0.001..86400, else -1
 * (0, negative, NaN, infinite, text, trailing junk). */
CS_HIDDEN double cs_parse_interval(const char *text);
/* Allocates and touches the table (the samples then fault no page; cap rounded down to
 * even); 0, or -1 when out of memory (nothing allocated). */
CS_HIDDEN int cs_init(struct count_series *s, int cap, int width, double interval_s);
CS_HIDDEN void cs_free(struct count_series *s);
/* Adds a sample; when that fills the table every other sample is dropped (the last is
 * kept), which merges each two intervals into one and doubles step_ns: the intervals'
 * counts still sum to the last sample, and a sampler that sleeps step_ns after each add
 * stays on the series' grid. */
CS_HIDDEN void cs_add(struct count_series *s, long long t_ns, const long long *since_start);
/* Column i's count over interval j (since sample j-1, or the start for j = 0). */
CS_HIDDEN long long cs_delta(const struct count_series *s, int j, int i);

#endif
