/* papi_sdk.h: the services the library offers every layer, and all a component sees of
 * it besides component.h (hwloc's backends see hwloc/plugins.h; ours see this).
 *
 *   errors      papi_error(code, "why...") records the reason of a failure for the
 *               calling thread (PAPI_strerror_detail, PAPI_perror, the verbose debug
 *               levels) and returns code; papi_errno_to_papi maps an errno.
 *   locking     papi_library_lock/unlock: the one lock held across fork() (see below).
 *   lifecycle   papi_lifecycle_register: be told when the library shuts down (or a
 *               forked child drops its parent's state) instead of being called by name.
 *   strings     papi_strcpy.
 *   hardware    include hwinfo.h (PAPI_get_hardware_info, hwinfo_cpuid_hypervisor,
 *               the clock meter hook): the hardware information sits below components.
 *
 * A leaf: it includes nothing of the library but the public papi.h. */
#ifndef PAPI_SDK_H
#define PAPI_SDK_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "papi.h"

#ifndef PAPI_INTERNAL
#define PAPI_INTERNAL __attribute__((visibility("hidden")))
#endif

/* The most components the registry holds: native event codes carry their component in
 * 4 bits (component.h), as PAPI's do. */
#define CMP_MAX 16

/* ---- errors (errors.c) --------------------------------------------------------------- */
/* Record why a call failed (kept per thread, whole, whatever its length) and return code.
 * Every public entry point returns through it or through a plain PAPI_OK. */
PAPI_INTERNAL int papi_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The calling thread's last reason ("" when none); valid until its next papi_error. */
PAPI_INTERNAL const char *papi_last_error_detail(void);
PAPI_INTERNAL int papi_errno_to_papi(int err);
/* The library's destructor before dlclose: the thread-exit key of the long reasons. */
PAPI_INTERNAL void papi_errors_unload(void);

/* strlcpy-like: always terminates, returns 1 when the source was truncated. */
PAPI_INTERNAL int papi_strcpy(char *dst, size_t size, const char *src);

/* ---- locking (papi_globals.c) --------------------------------------------------------- */
/* The library lock serialises changes of library-wide state (the event set table, the
 * thread list, a component's global tables). fork() takes it (pthread_atfork), so a
 * forked child finds that state consistent: a component's own mutex around a global
 * table would be left locked in the child by a thread that no longer exists there.
 * Never taken on the counting hot path; take no other library lock while holding it
 * (HACKING.md has the order of every lock). */
PAPI_INTERNAL void papi_library_lock(void);
PAPI_INTERNAL void papi_library_unlock(void);

/* ---- lifecycle (lifecycle.c) ------------------------------------------------------------ */
enum papi_life_event {
    /* PAPI_shutdown, or a forked child's PAPI_library_init dropping its parent's state:
     * free what was built since the last start of the library. */
    PAPI_LIFE_SHUTDOWN,
    /* In the child, inside fork() (the atfork handler, library lock held): only mark
     * state as inherited; the work happens at the child's next SHUTDOWN. */
    PAPI_LIFE_FORK_CHILD,
};
struct papi_life {
    enum papi_life_event event;
    /* SHUTDOWN of a forked child's copy of its parent's state. Keep what describes the
     * machine (native and preset tables, hardware information): the child runs on the
     * same machine and rebuilding would write to every page it shares with the parent.
     * Descriptors are shared with the parent's: close them, never stop or reset them. */
    int keep_machine;
};
/* Callbacks run in stage order (shutdown undoes the library top down), and within a
 * stage in registration order. */
enum papi_life_stage {
    PAPI_LIFE_STAGE_SETS,     /* what users hold: event sets, overflow */
    PAPI_LIFE_STAGE_NAMES,    /* event names and presets */
    PAPI_LIFE_STAGE_BACKENDS, /* components' global state */
    PAPI_LIFE_STAGE_MACHINE,  /* hardware and system information */
    PAPI_LIFE_STAGES
};
typedef void (*papi_life_fn)(const struct papi_life *ev);
/* Register fn once (again is a no-op), typically when the caller first builds state
 * worth freeing; it stays registered for the life of the process. PAPI_ENOMEM when the
 * stage is full (a fixed table: fork handlers may not allocate). */
PAPI_INTERNAL int papi_lifecycle_register(enum papi_life_stage stage, papi_life_fn fn);
/* Register fn for PAPI_LIFE_FORK_CHILD, which reaches only the callbacks registered here
 * (the stages' callbacks get SHUTDOWN only): every page of code or data the child
 * touches inside fork() is a copy-on-write or mapping fault in every child of an
 * instrumented program (system(), popen()), so only state a user holds is marked there.
 * Mark such a callback PAPI_FORK_CHILD_CODE. */
PAPI_INTERNAL int papi_lifecycle_register_fork(papi_life_fn fn);
/* Run every callback for ev (the core's library_init.c, nobody else). Reads the table
 * without a lock: it is called inside fork(). */
PAPI_INTERNAL void papi_lifecycle_notify(const struct papi_life *ev);
/* Code that runs in a forked child inside fork(): gathered in one section (the linker
 * sorts every .text.sorted.* section together), so the child maps one page or two of
 * the library's code instead of one per function. */
#define PAPI_FORK_CHILD_CODE __attribute__((section(".text.sorted.papi_fork_child")))
/* In a forked child (one thread): a lock another thread of the parent may have held
 * (papi_child_reset_lock), or the forking thread's prepare handler took
 * (papi_child_unlock), free again. By plain stores: a call to pthread_mutex_init would map the PLT's and the C
 * library's pages of code in the child, a page fault each. Sanitizer builds call it,
 * so that their view of the lock is reset too. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PAPI_CHILD_LOCK_BY_CALL 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define PAPI_CHILD_LOCK_BY_CALL 1
#endif
#endif
static inline void papi_child_reset_lock(pthread_mutex_t *m)
{
#ifdef PAPI_CHILD_LOCK_BY_CALL
    pthread_mutex_init(m, NULL);
#else
    static const pthread_mutex_t unlocked = PTHREAD_MUTEX_INITIALIZER;
    *m = unlocked;
#endif
}
/* The same for a lock the forking thread took in its prepare handler. */
static inline void papi_child_unlock(pthread_mutex_t *m)
{
#ifdef PAPI_CHILD_LOCK_BY_CALL
    pthread_mutex_unlock(m);
#else
    papi_child_reset_lock(m);
#endif
}
/* How many forks this process's copy of the library has been through since it was first
 * initialised (0 in the process that initialised it): a component compares it with the
 * value it saw when it opened something per task. A plain read: no callback runs in the
 * child for it, so a fork writes no page of the component's (papi_globals.c). */
PAPI_INTERNAL unsigned(papi_fork_count)(void); /* papi_globals.h: a macro in the core */

#endif
