/* papi_globals.h: the library-wide state (papi_globals.c) that the core, the event names
 * and the hardware information share. A leaf: it includes only the SDK (papi_sdk.h).
 * Components do not include it (tests/layers checks): what they need of the library is
 * in papi_sdk.h. */
#ifndef PAPI_GLOBALS_H
#define PAPI_GLOBALS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "papi_sdk.h"

/* ---- limits ---------------------------------------------------------------------- */
#define ES_MAX_ENTRIES   128 /* user-visible events per event set */
#define ES_MAX_NATIVES   128 /* native events per event set */
#define MAX_EVENTSETS    65536
#define PRESET_COMPONENT 0 /* presets resolve to natives of perf_event, component 0 */

/* init_state's bit of PAPI_tool_init: the library is up for a tool measuring the program
 * from inside it (the OMPT tool, the MPI wrapper, papi_run's preloaded library), which
 * the program's PAPI_is_initialized does not show (issue 69: a tool never changes what
 * the program's own calls return). Beside PAPI_LOW_LEVEL_INITED ... (1, 2, 4). */
#define PAPI_TOOL_INITED 0x100

/* ---- global library state (papi_globals.c) ------------------------------------------ */
struct papi_globals {
    atomic_int init_state; /* PAPI_NOT_INITED / LOW / HIGH / THREAD bits, PAPI_TOOL_INITED;
                              * atomic: the high level and PAPI_thread_init set bits from
                              * any thread */
    atomic_uint forks;     /* papi_fork_count(), and inherited (a forked child's copy of
                              * its parent's state not dropped yet): beside init_state, which
                              * a fork's child handler writes anyway (one page written) */
    atomic_int inherited;
    int debug_level; /* PAPI_QUIET, PAPI_VERB_ECONT, PAPI_VERB_ESTOP */
    PAPI_debug_handler_t debug_handler;
    int default_domain;
    int default_granularity;
    int multiplex_inited;
    int mpx_slice_ns;           /* PAPI_DEF_MPX_NS */
    int itimer_num, itimer_sig; /* PAPI_DEF_ITIMER; itimer_sig 0: CPU clock, overflow signal */
    unsigned long (*_Atomic thread_id_fn)(void); /* set by PAPI_thread_init in any thread */
    /* papi_components[i]'s description (component_registry.c); the preset tables write
     * the preset component's num_preset_events when they load, into the structure
     * PAPI_get_component_info returned, as PAPI's does. */
    PAPI_component_info_t cmp[CMP_MAX];
    /* 1: the user disabled papi_components[i] (PAPI_disable_component,
     * PAPI_DISABLE_COMPONENTS): it names no event. Set by component_registry.c at init;
     * not cmp[i].disabled == PAPI_ECMP_DISABLED, which a component also reports while it
     * is not loaded yet (the uncore PMUs before libpfm4). */
    unsigned char cmp_user_disabled[CMP_MAX];
};
extern struct papi_globals g_papi PAPI_INTERNAL;

/* papi_sdk.h's papi_fork_count, read in line where the globals are seen (a region
 * begin asks it several times); the components call it (the name in parentheses). */
#define papi_fork_count() ((unsigned)atomic_load_explicit(&g_papi.forks, memory_order_relaxed))

/* Incremented by every PAPI_shutdown: a module that keeps event codes or event set
 * handles records the generation they belong to and drops them when it changed. */
extern atomic_uint g_papi_generation PAPI_INTERNAL;

/* The library lock (papi_library_lock in papi_sdk.h): the core takes it directly. */
extern pthread_mutex_t g_papi_lock PAPI_INTERNAL;

#define PAPI_CHECK_INIT()                                                        \
    do {                                                                         \
        if (g_papi.init_state == PAPI_NOT_INITED)                                \
            return papi_error(PAPI_ENOINIT, "PAPI_library_init was not called"); \
    } while (0)

#endif
