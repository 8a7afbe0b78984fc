/* eventset_handles.c: the table of live event sets and a handle's set, a leaf of core/:
 * the counting hot path, the entries and the life cycle (eventset_table.c) look sets up
 * here; only the life cycle writes the table. */
#include <stdatomic.h>

#include "eventset_handles.h"

/* Two tables: the one in use and the other, empty, for a forked child (hide_inherited).
 * Their pages are touched only as handles are used. */
static es_slot_t tables[2][MAX_EVENTSETS];
/* One small object (the close lock in it): one page written at fork. */
struct es_tables es_tables = {tables[0], NULL, PTHREAD_MUTEX_INITIALIZER};
int es_get(int handle, struct eventset **es)
{
    if (g_papi.init_state == PAPI_NOT_INITED)
        return papi_error(PAPI_ENOINIT, "PAPI_library_init was not called");
    *es = es_lookup(handle);
    if (!*es)
        return papi_error(PAPI_ENOEVST, "EventSet %d does not exist", handle);
    return PAPI_OK;
}

es_slot_t *es_tables_other(const es_slot_t *t)
{
    return t == tables[0] ? tables[1] : tables[0];
}
