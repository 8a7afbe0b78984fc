/* multiplex.h: the multiplex scaling used by the counting core (multiplex.c). Not installed. */
#ifndef MULTIPLEX_H
#define MULTIPLEX_H

#include <stdint.h>

#include "eventset_types.h"

/* Value since the baseline scaled by delta time_enabled / delta time_running (inline:
 * PAPI_read of a multiplexed set computes one per event). */
static inline long long mpx_scaled_value(const struct es_native *n, const struct cmp_count *c,
                                         uint64_t base)
{
    uint64_t delta = c->value - base;
    if ((int64_t)delta < 0)
        return 0;
    uint64_t de = c->time_enabled - n->enabled_base;
    uint64_t dr = c->time_running - n->running_base;
    if (dr == 0)
        return 0; /* never on a counter since the baseline: nothing to scale */
    if (dr >= de)
        return (long long)delta;
    uint64_t prod;
    if (!__builtin_mul_overflow(delta, de, &prod)) { /* the usual case: one 64-bit division */
        uint64_t q = prod / dr;
        return q > (uint64_t)INT64_MAX ? INT64_MAX : (long long)q;
    }
    unsigned __int128 scaled = (unsigned __int128)delta * de / dr;
    return scaled > (unsigned __int128)INT64_MAX ? INT64_MAX : (long long)scaled;
}

/* Move the time baselines to the times of the last read. */
PAPI_INTERNAL void mpx_rebase(struct eventset *es);

#endif
