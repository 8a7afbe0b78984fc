/* eventset_table.h: event sets' life cycle (eventset_table.c). */
#ifndef EVENTSET_TABLE_H
#define EVENTSET_TABLE_H

#include "eventset_types.h"

/* The thread tid has ended: stop the sets it created that count it (not attached to another
 * thread or a CPU), freeze their values and close their descriptors. */
PAPI_INTERNAL void es_release_thread(pid_t tid);
/* The library's destructor: free the pool of sets (every set was freed before). */
PAPI_INTERNAL void es_unload(void);

#endif
