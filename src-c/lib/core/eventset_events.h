/* eventset_events.h: the entries and natives of a set (eventset_events.c). */
#ifndef EVENTSET_EVENTS_H
#define EVENTSET_EVENTS_H

#include "eventset_types.h"

PAPI_INTERNAL int es_add_code(struct eventset *es, int code);
PAPI_INTERNAL int es_remove_code(struct eventset *es, int code);
PAPI_INTERNAL void es_close_all(struct eventset *es);
/* Close and reopen every native (after a domain, attach or granularity change). */
PAPI_INTERNAL int es_reopen_all(struct eventset *es);
PAPI_INTERNAL int es_entry_index(const struct eventset *es, int code);
/* Recompute es->direct and es->plain (after every add and remove, and at PAPI_start:
 * entries, natives and options are fixed while running). */
PAPI_INTERNAL void es_update_plain(struct eventset *es);
/* Room for nentries more entries and nnat more natives (PAPI_ENOMEM, set unchanged). */
PAPI_INTERNAL int es_reserve(struct eventset *es, int nentries, int nnat);
/* Free the arrays (the set itself goes back to eventset_table.c's pool). */
PAPI_INTERNAL void es_free_arrays(struct eventset *es);

#endif
