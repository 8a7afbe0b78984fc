/* util_cost.c: timing PAPI's calls and the statistics of the timings. */
#include <math.h>

#include "papi.h"
#include "util_cost.h"

int util_time_calls(enum util_call call, int es, long n, long long *d, long long *values)
{
    long long cyc;
    int around = call != UTIL_CALL_LOOP && call != UTIL_CALL_START_STOP;
    if (around && PAPI_start(es) != PAPI_OK)
        return 0;
    for (long i = 0; i < n; i++) {
        long long t0 = PAPI_get_real_cyc();
        switch (call) {
        case UTIL_CALL_START_STOP: PAPI_start(es); PAPI_stop(es, values); break;
        case UTIL_CALL_READ: PAPI_read(es, values); break;
        case UTIL_CALL_READ_TS: PAPI_read_ts(es, values, &cyc); break;
        case UTIL_CALL_ACCUM: PAPI_accum(es, values); break;
        case UTIL_CALL_RESET: PAPI_reset(es); break;
        default: break;
        }
        d[i] = PAPI_get_real_cyc() - t0;
    }
    if (around)
        PAPI_stop(es, values);
    return 1;
}

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
