/* counting.h: counting: start, stop, read (counting.c), and the hooks overflow/ installs. */
#ifndef COUNTING_H
#define COUNTING_H

#include "eventset_types.h"

/* ---- counting (counting.c) ------------------------------------------------------------- */
/* Convert the counts (since baseline) into the user's values array. */
PAPI_INTERNAL void es_compute_values(struct eventset *es, long long *values);
/* The one read path: read a running set's counters (a stopped set's are frozen) and
 * fill values; PAPI_read, PAPI_accum, the high-level calls, rates and regions use it. */
PAPI_INTERNAL int es_read_values(struct eventset *es, long long *values);
/* Read the counters of a running set into es->cnt. */
/* A failed read's reason asked of the component (read_reason): counting.c. */
PAPI_INTERNAL int es_read_failed(struct eventset *es, int ret);
static inline int es_read_counts(struct eventset *es)
{
    int ret = es->cmp->read(es->ctx, es->cnt);
    return __builtin_expect(ret != PAPI_OK, 0) ? es_read_failed(es, ret) : ret;
}

/* ---- overflow hooks ----------------------------------------------------------------- */
/* Installed by overflow/ when it first arms a set (the core never calls up into it): run
 * by PAPI_start before enabling and by PAPI_stop (and shutdown) after disabling, for a
 * set whose es->overflow is set. */
struct es_overflow_hooks {
    int (*start)(struct eventset *es);
    void (*stop)(struct eventset *es);
    /* Shutdown, before the sets are freed: the overflow signal handler reads no set from
     * now on (it waits for the handlers running in other threads). inherited: a forked
     * child drops its parent's sets, whose descriptors share their open files with the
     * parent's: their flags are the parent's and stay as they are. */
    void (*quiesce)(int inherited);
};
/* Atomic: PAPI_overflow installs it from any thread (always the same value). */
extern const struct es_overflow_hooks *_Atomic es_overflow_hooks PAPI_INTERNAL;

#endif
