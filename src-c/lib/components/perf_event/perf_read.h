/* perf_read.h: reading an event set's counters (perf_read.c), the hot path of PAPI_read. */
#ifndef PERF_READ_H
#define PERF_READ_H

#include "pe_types.h"

/* The general read (PAPI_stop, PAPI_reset, overflow dispatch): counts and times. */
PAPI_INTERNAL int pe_read(struct cmp_context *ctx, struct cmp_count *out);
/* PAPI_read and PAPI_accum of a plain set (component.h: read_values). */
PAPI_INTERNAL int pe_read_values(struct cmp_context *ctx, struct cmp_count *out, uint64_t *base,
                                 long long *values, int mode);
/* One read() per group into out[0 .. n-1] (async-signal-safe, ctx unchanged). */
PAPI_INTERNAL int pe_read_groups(const struct cmp_context *ctx, struct cmp_count *out);

#endif
