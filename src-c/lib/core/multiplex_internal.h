/* multiplex_internal.h: the multiplex scaling used by the counting core. Not installed. */
#ifndef MULTIPLEX_INTERNAL_H
#define MULTIPLEX_INTERNAL_H

#include "eventset.h"

/* Value since the baseline scaled by delta time_enabled / delta time_running. */
PAPI_INTERNAL long long mpx_scaled_value(const struct es_native *n, const struct cmp_count *c);
/* Move the time baselines to the times of the last read. */
PAPI_INTERNAL void mpx_rebase(struct eventset *es);

#endif
