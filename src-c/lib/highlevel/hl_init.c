/* hl_init.c: a high-level call initialises the library itself, as PAPI's do. */
#include <stdatomic.h>

#include "hl_init.h"

int hl_self_init(void)
{
    if (g_papi.init_state == PAPI_NOT_INITED) {
        int r = PAPI_library_init(PAPI_VER_CURRENT);
        if (r != PAPI_VER_CURRENT)
            return r < 0 ? r : papi_error(PAPI_EBUG, "PAPI_library_init returned %d", r);
        /* Initialised by the high level only, as PAPI_is_initialized reports it. */
        int low = PAPI_LOW_LEVEL_INITED;
        atomic_compare_exchange_strong(&g_papi.init_state, &low, PAPI_HIGH_LEVEL_INITED);
    }
    /* An atomic OR: a plain read-modify-write could lose the thread-level bit set by
     * PAPI_thread_init in another thread. No store on the hot path. */
    if (__builtin_expect(!(atomic_load_explicit(&g_papi.init_state, memory_order_relaxed) &
                           PAPI_HIGH_LEVEL_INITED),
                         0))
        atomic_fetch_or(&g_papi.init_state, PAPI_HIGH_LEVEL_INITED);
    return PAPI_OK;
}
