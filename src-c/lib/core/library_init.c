/* library_init.c: PAPI_library_init, PAPI_is_initialized and PAPI_shutdown. Initialisation
 * is kept cheap: the components are probed (component_registry.c), but libpfm4, the
 * preset tables and the hardware description are loaded on first use, not here. */
#include <stdlib.h>
#include <string.h>

#include "papi_internal.h"

struct papi_globals g_papi;
pthread_mutex_t g_papi_lock = PTHREAD_MUTEX_INITIALIZER;

int PAPI_library_init(int version)
{
    if (version != PAPI_VER_CURRENT)
        return papi_error(PAPI_EINVAL,
                          "PAPI_library_init(0x%x): this library is version 0x%x; recompile against "
                          "its papi.h", (unsigned)version, (unsigned)PAPI_VER_CURRENT);
    pthread_mutex_lock(&g_papi_lock);
    if (g_papi.init_state != PAPI_NOT_INITED) {
        g_papi.init_state |= PAPI_LOW_LEVEL_INITED;
        pthread_mutex_unlock(&g_papi_lock);
        return PAPI_VER_CURRENT;
    }
    g_papi.default_domain = PAPI_DOM_USER;
    g_papi.default_granularity = PAPI_GRN_THR;
    g_papi.mpx_slice_ns = 10000000;
    g_papi.itimer_sig = 0; /* PAPI_DEF_ITIMER not set: CPU clock, the overflow signal */
    components_init();
    g_papi.init_state = PAPI_LOW_LEVEL_INITED;
    pthread_mutex_unlock(&g_papi_lock);
    return PAPI_VER_CURRENT;
}

int PAPI_is_initialized(void)
{
    return g_papi.init_state;
}

void PAPI_shutdown(void)
{
    if (g_papi.init_state == PAPI_NOT_INITED)
        return;
    es_free_all();
    preset_shutdown();
    components_shutdown();
    threads_shutdown();
    hwinfo_shutdown();
    sysinfo_shutdown();
    pthread_mutex_lock(&g_papi_lock);
    PAPI_debug_handler_t h = g_papi.debug_handler;
    int level = g_papi.debug_level;
    memset(&g_papi, 0, sizeof g_papi);
    g_papi.debug_handler = h;
    g_papi.debug_level = level;
    pthread_mutex_unlock(&g_papi_lock);
}
