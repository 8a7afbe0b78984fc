/* papi_globals.c: the library-wide state (papi_globals.h) and the library lock. Its own
 * file, a leaf, so that library_init.c, which orchestrates init and shutdown, is not
 * also the file every layer reaches for the state. */
#include <pthread.h>

#include "papi_globals.h"

struct papi_globals g_papi;
atomic_uint g_papi_generation;
pthread_mutex_t g_papi_lock = PTHREAD_MUTEX_INITIALIZER;

unsigned(papi_fork_count)(void)
{
    return atomic_load_explicit(&g_papi.forks, memory_order_relaxed);
}

void papi_library_lock(void)
{
    pthread_mutex_lock(&g_papi_lock);
}
void papi_library_unlock(void)
{
    pthread_mutex_unlock(&g_papi_lock);
}
