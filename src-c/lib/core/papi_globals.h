/* papi_globals.h: the library-wide state and the few helpers every module uses. A leaf:
 * it includes nothing of the library but the public header and the component limits. */
#ifndef PAPI_GLOBALS_H
#define PAPI_GLOBALS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "component.h"
#include "papi.h"

#ifndef PAPI_INTERNAL
#define PAPI_INTERNAL __attribute__((visibility("hidden")))
#endif

/* ---- limits ---------------------------------------------------------------------- */
#define ES_MAX_ENTRIES   128 /* user-visible events per event set */
#define ES_MAX_NATIVES   128 /* native events per event set */
#define MAX_EVENTSETS    65536
#define PRESET_COMPONENT 0   /* presets resolve to natives of perf_event, component 0 */

/* ---- global library state (library_init.c) ----------------------------------------- */
struct papi_globals {
    atomic_int init_state;   /* PAPI_NOT_INITED / LOW / HIGH / THREAD bits; atomic: the high
                              * level and PAPI_thread_init set bits from any thread */
    int debug_level;         /* PAPI_QUIET, PAPI_VERB_ECONT, PAPI_VERB_ESTOP */
    PAPI_debug_handler_t debug_handler;
    int default_domain;
    int default_granularity;
    int multiplex_inited;
    int mpx_slice_ns;        /* PAPI_DEF_MPX_NS */
    int itimer_num, itimer_sig; /* PAPI_DEF_ITIMER; itimer_sig 0: CPU clock, overflow signal */
    unsigned long (*_Atomic thread_id_fn)(void); /* set by PAPI_thread_init in any thread */
    PAPI_component_info_t cmp[CMP_MAX]; /* papi_components[i]'s description */
};
extern struct papi_globals g_papi PAPI_INTERNAL;

/* Incremented by every PAPI_shutdown: a module that keeps event codes or event set
 * handles records the generation they belong to and drops them when it changed. */
extern atomic_uint g_papi_generation PAPI_INTERNAL;

/* True while a forked child drops its parent's library state: the modules that describe
 * the machine (native and preset tables, hardware and executable information) keep theirs
 * instead of freeing it. The child runs on the same machine; freeing and rebuilding would
 * write to every page it still shares with the parent, one copy-on-write fault each (under
 * emulation, with the parent counting on another CPU, half a second before the child's
 * first count: PAPI's fork_overflow). */
PAPI_INTERNAL int papi_teardown_keeps_machine(void);

/* Serialises library-wide state changes (event set table, thread list, native table
 * growth). Never taken on the counting hot path. */
extern pthread_mutex_t g_papi_lock PAPI_INTERNAL;

/* ---- errors (errors.c) ------------------------------------------------------------- */
/* Record why a call failed (kept per thread, shown by the verbose debug levels and by
 * papi_strerror_detail) and return code. Every public entry point returns through it
 * or through papi_ok(). */
PAPI_INTERNAL int papi_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
PAPI_INTERNAL const char *papi_last_error_detail(void);
PAPI_INTERNAL int papi_errno_to_papi(int err);

/* ---- helpers -------------------------------------------------------------------------- */
/* strlcpy-like: always terminates, returns 1 when the source was truncated. */
PAPI_INTERNAL int papi_strcpy(char *dst, size_t size, const char *src);

#define PAPI_CHECK_INIT()                                                     \
    do {                                                                      \
        if (g_papi.init_state == PAPI_NOT_INITED)                             \
            return papi_error(PAPI_ENOINIT, "PAPI_library_init was not called"); \
    } while (0)

#endif
