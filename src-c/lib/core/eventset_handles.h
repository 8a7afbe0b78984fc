/* eventset_handles.h: the table of live sets and a handle's set (eventset_handles.c), a
 * leaf of core/ read on the counting hot path. */
#ifndef EVENTSET_HANDLES_H
#define EVENTSET_HANDLES_H

#include "eventset_types.h"

struct es_tables {
    es_slot_t *_Atomic current;   /* the table of this process's sets */
    es_slot_t *_Atomic inherited; /* in a forked child: the parent's, until dropped */
    /* A set's descriptors closed by the thread-exit hook (es_release_thread) against the
     * same set's cleanup or destroy in another thread: one of them closes
     * (eventset_table.c). Here so that a forked child writes one page for the three; a
     * cache line of its own, away from the pointers every PAPI_read loads. */
    _Alignas(64) pthread_mutex_t close_lock;
};
extern struct es_tables es_tables PAPI_INTERNAL;
static inline struct eventset *es_lookup(int handle) /* NULL if not a live set */
{
    if ((unsigned)handle >> __builtin_ctz(MAX_EVENTSETS)) /* a power of 2: one compare */
        return NULL;
    es_slot_t *t = ES_PEEK(*(es_slot_t **)&es_tables.current); /* relaxed, with an offset */
    return atomic_load_explicit(&t[handle], memory_order_acquire);
}
PAPI_INTERNAL int es_get(int handle, struct eventset **es); /* PAPI_ENOEVST / PAPI_ENOINIT */
/* The other of the two tables (a forked child's empty one, eventset_table.c). */
PAPI_INTERNAL es_slot_t *es_tables_other(const es_slot_t *t);

#endif
