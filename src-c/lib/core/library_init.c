/* library_init.c: PAPI_library_init (and a tool's PAPI_tool_init), PAPI_is_initialized and
 * PAPI_shutdown. Initialisation
 * is kept cheap: the components are probed (component_registry.c), but libpfm4, the
 * preset tables and the hardware description are loaded on first use, not here. The
 * layers learn of shutdown and fork through the lifecycle registry (papi_sdk.h): this
 * file names none of them. The state itself is papi_globals.c's. */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "call_guard.h"
#include "component_registry.h"
#include "eventset.h"
#include "threads.h"

/* Fork: the child starts from a clean library. At fork its copy of the parent's state is
 * marked not initialised, so no call reaches the parent's counters through the inherited
 * descriptors (they share the parent's open file descriptions: an ioctl would disable
 * the parent's counting); the child's PAPI_library_init or PAPI_shutdown then drops that
 * copy, closing the descriptors with plain close(). */
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void atfork_prepare(void)
{
    pthread_mutex_lock(&g_papi_lock);
}
static void atfork_parent(void)
{
    pthread_mutex_unlock(&g_papi_lock);
}
PAPI_FORK_CHILD_CODE static void atfork_child(void)
{
    if (g_papi.init_state != PAPI_NOT_INITED) {
        g_papi.init_state = PAPI_NOT_INITED;
        papi_lifecycle_notify(&(struct papi_life){.event = PAPI_LIFE_FORK_CHILD});
        atomic_store(&g_papi.inherited, 1);
    }
    papi_child_unlock(&g_papi_lock);
}

static void register_atfork(void)
{
    pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
}

/* Process exit or dlclose? An atexit handler registered once the program runs (after
 * ld.so registered _dl_fini, so not from a constructor: that one would run after the
 * destructors) runs at exit() before the destructors of every library, but at dlclose
 * after this library's own destructor (crtbegin's __do_global_dtors_aux, which runs it
 * through __cxa_finalize, is the last entry of .fini_array to run). So the destructor
 * sees this flag set only when the process is exiting (checked with gcc, clang, ASan,
 * TSan, linked, dlopened and static). Registered by the first PAPI_library_init: a
 * library never initialised has nothing to tear down. */
static int process_exiting;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;
static void note_process_exit(void)
{
    process_exiting = 1;
}
static void register_exit(void)
{
    atexit(note_process_exit);
}

/* PAPI_library_init, PAPI_shutdown and the unload destructor, one at a time. */
static pthread_mutex_t lifecycle_lock = PTHREAD_MUTEX_INITIALIZER;

/* keep_machine: a forked child dropping its parent's copy (papi_sdk.h, PAPI_LIFE_SHUTDOWN). */
static void teardown(int keep_machine)
{
    papi_calls_block_and_drain(); /* no call of another thread is inside what is freed */
    /* Nor an overflow signal handler (other threads' overflow stays armed until the sets
     * are freed: their signals must not reach a set being freed). */
    const struct es_overflow_hooks *ovf = atomic_load(&es_overflow_hooks);
    if (ovf)
        ovf->quiesce(keep_machine);
    papi_lifecycle_notify(
        &(struct papi_life){.event = PAPI_LIFE_SHUTDOWN, .keep_machine = keep_machine});
    threads_shutdown();
    /* Everything but the debug level and handler, which survive a shutdown and which
     * papi_error reads in any thread (a call refused during this shutdown reports
     * through them): not written at all, rather than saved and restored. */
    _Static_assert(offsetof(struct papi_globals, debug_level) <
                           offsetof(struct papi_globals, default_domain) &&
                       offsetof(struct papi_globals, debug_handler) <
                           offsetof(struct papi_globals, default_domain),
                   "the debug fields come before the state a shutdown clears");
    pthread_mutex_lock(&g_papi_lock);
    atomic_store(&g_papi.init_state, PAPI_NOT_INITED);
    const size_t kept = offsetof(struct papi_globals, default_domain);
    memset((char *)&g_papi + kept, 0, sizeof g_papi - kept);
    atomic_fetch_add(&g_papi_generation, 1);
    pthread_mutex_unlock(&g_papi_lock);
    papi_calls_unblock();
}

/* In a forked child: drop the parent's state, once (its sets, threads and options; what
 * describes the machine stays: keep_machine). */
static void drop_inherited(void)
{
    if (atomic_exchange(&g_papi.inherited, 0))
        teardown(1);
}

/* who: PAPI_LOW_LEVEL_INITED for the program's PAPI_library_init, PAPI_TOOL_INITED for a
 * tool's PAPI_tool_init (papi_globals.h): the library starts once, for whichever comes
 * first, and PAPI_is_initialized shows the program only its own bits. */
static int library_init(int version, int who)
{
    if (version != PAPI_VER_CURRENT)
        return papi_error(PAPI_EINVAL,
                          "PAPI_library_init asked for version %d.%d (0x%08x); this library is "
                          "%d.%d (PAPI_VER_CURRENT 0x%08x): pass PAPI_VER_CURRENT from its "
                          "papi.h (recompile against it)",
                          PAPI_VERSION_MAJOR(version), PAPI_VERSION_MINOR(version),
                          (unsigned)version, PAPI_VERSION_MAJOR(PAPI_VER_CURRENT),
                          PAPI_VERSION_MINOR(PAPI_VER_CURRENT), (unsigned)PAPI_VER_CURRENT);
    pthread_once(&atfork_once, register_atfork);
    threads_watch_forks();
    pthread_once(&exit_once, register_exit);
    pthread_mutex_lock(&lifecycle_lock);
    drop_inherited();
    pthread_mutex_lock(&g_papi_lock);
    if (g_papi.init_state != PAPI_NOT_INITED) {
        g_papi.init_state |= who;
        pthread_mutex_unlock(&g_papi_lock);
        pthread_mutex_unlock(&lifecycle_lock);
        return PAPI_VER_CURRENT;
    }
    g_papi.default_domain = PAPI_DOM_USER;
    g_papi.default_granularity = PAPI_GRN_THR;
    g_papi.mpx_slice_ns = 10000000;
    g_papi.itimer_sig = 0; /* PAPI_DEF_ITIMER not set: CPU clock, the overflow signal */
    components_init();
    g_papi.init_state = who;
    pthread_mutex_unlock(&g_papi_lock);
    pthread_mutex_unlock(&lifecycle_lock);
    return PAPI_VER_CURRENT;
}

int PAPI_library_init(int version)
{
    return library_init(version, PAPI_LOW_LEVEL_INITED);
}

int PAPI_tool_init(int version)
{
    return library_init(version, PAPI_TOOL_INITED);
}

int PAPI_is_initialized(void)
{
    return g_papi.init_state & ~PAPI_TOOL_INITED;
}

void PAPI_shutdown(void)
{
    pthread_mutex_lock(&lifecycle_lock);
    drop_inherited();
    if (g_papi.init_state != PAPI_NOT_INITED)
        teardown(0);
    pthread_mutex_unlock(&lifecycle_lock);
}

/* dlclose (kokkos-tools connectors, Caliper services, Python bindings load and unload a
 * library linked to this one): nothing of the library may outlive its code. What
 * PAPI_shutdown does (every set stopped and freed, timers and overflow descriptors with
 * them; overflow puts back its signal actions at PAPI_LIFE_SHUTDOWN), then the
 * thread-exit keys, whose destructors are about to be unmapped, and the memory kept for
 * reuse. At process exit, nothing: the code stays mapped until the kernel ends every
 * thread and takes back descriptors, timers and memory, while a teardown here could
 * only hurt other threads still counting (the calls they make next would fail) and a
 * signal still queued for one of them would meet the default action once overflow put
 * it back (SIGRTMIN+2 terminates the process). */
__attribute__((destructor)) static void papi_unload(void)
{
    if (process_exiting)
        return;
    pthread_mutex_lock(&lifecycle_lock);
    drop_inherited();
    if (g_papi.init_state != PAPI_NOT_INITED)
        teardown(0);
    pthread_mutex_unlock(&lifecycle_lock);
    threads_unload();
    es_unload();
    papi_errors_unload();
    papi_calls_unload();
}
