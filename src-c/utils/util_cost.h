/* util_cost.h: timing PAPI's calls in cycles and the statistics of the timings
 * (papi_cost, papi_multiplex_cost). */
#ifndef UTIL_COST_H
#define UTIL_COST_H

struct util_stats {
    long long min, max;
    double mean, std;
};

/* The calls that can be timed; UTIL_CALL_LOOP times the empty loop (the timer itself). */
enum util_call {
    UTIL_CALL_LOOP,
    UTIL_CALL_START_STOP,
    UTIL_CALL_READ,
    UTIL_CALL_READ_TS,
    UTIL_CALL_ACCUM,
    UTIL_CALL_RESET,
    UTIL_CALL_COUNT
};

/* Time n calls on event set es: d[i] is the cycles (PAPI_get_real_cyc) of call i. The set
 * runs around the calls except for start/stop and the empty loop; values has room for
 * every event of the set. Returns 0 when PAPI_start fails. */
int util_time_calls(enum util_call call, int es, long n, long long *d, long long *values);

/* The statistics of d[0..n), n >= 1. */
void util_stats_compute(const long long *d, long n, struct util_stats *s);

#endif
