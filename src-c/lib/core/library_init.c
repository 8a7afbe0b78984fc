/* library_init.c: PAPI_library_init, PAPI_is_initialized and PAPI_shutdown. Initialisation
 * is kept cheap: the components are probed (component_registry.c), but libpfm4, the
 * preset tables and the hardware description are loaded on first use, not here. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "component_registry.h"
#include "eventset.h"
#include "hwinfo.h"
#include "threads.h"

struct papi_globals g_papi;
atomic_uint g_papi_generation;
pthread_mutex_t g_papi_lock = PTHREAD_MUTEX_INITIALIZER;

/* Fork: the child starts from a clean library. At fork its copy of the parent's state is
 * marked not initialised, so no call reaches the parent's counters through the inherited
 * descriptors (they share the parent's open file descriptions: an ioctl would disable
 * the parent's counting); the child's PAPI_library_init or PAPI_shutdown then drops that
 * copy, closing the descriptors with plain close(). */
static atomic_int inherited_from_parent;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void atfork_prepare(void) { pthread_mutex_lock(&g_papi_lock); }
static void atfork_parent(void) { pthread_mutex_unlock(&g_papi_lock); }
static void atfork_child(void)
{
    if (g_papi.init_state != PAPI_NOT_INITED) {
        g_papi.init_state = PAPI_NOT_INITED;
        es_hide_inherited();
        atomic_store(&inherited_from_parent, 1);
    }
    pthread_mutex_unlock(&g_papi_lock);
}

static void register_atfork(void) { pthread_atfork(atfork_prepare, atfork_parent, atfork_child); }

static int keeping_machine;
int papi_teardown_keeps_machine(void) { return keeping_machine; }

static void teardown(int stop_running, int keep_machine)
{
    keeping_machine = keep_machine;
    es_free_all(stop_running);
    if (!keep_machine)
        preset_shutdown();
    components_shutdown(); /* perf_event keeps its native table when keep_machine */
    threads_shutdown();
    if (!keep_machine) {
        hwinfo_shutdown();
        sysinfo_shutdown();
    }
    pthread_mutex_lock(&g_papi_lock);
    PAPI_debug_handler_t h = g_papi.debug_handler;
    int level = g_papi.debug_level;
    memset(&g_papi, 0, sizeof g_papi);
    atomic_fetch_add(&g_papi_generation, 1);
    g_papi.debug_handler = h;
    g_papi.debug_level = level;
    pthread_mutex_unlock(&g_papi_lock);
    keeping_machine = 0;
}

/* In a forked child: drop the parent's state, once (its sets, threads and options; what
 * describes the machine stays, see papi_teardown_keeps_machine). */
static void drop_inherited(void)
{
    if (atomic_exchange(&inherited_from_parent, 0))
        teardown(0, 1);
}

int PAPI_library_init(int version)
{
    if (version != PAPI_VER_CURRENT)
        return papi_error(PAPI_EINVAL,
                          "PAPI_library_init(0x%x): this library is version 0x%x; recompile against "
                          "its papi.h", (unsigned)version, (unsigned)PAPI_VER_CURRENT);
    pthread_once(&atfork_once, register_atfork);
    drop_inherited();
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
    preset_republish(); /* takes the tables' lock, which comes before g_papi_lock */
    return PAPI_VER_CURRENT;
}

int PAPI_is_initialized(void)
{
    return g_papi.init_state;
}

void PAPI_shutdown(void)
{
    drop_inherited();
    if (g_papi.init_state == PAPI_NOT_INITED)
        return;
    teardown(1, 0);
}
