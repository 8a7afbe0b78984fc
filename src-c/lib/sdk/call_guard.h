/* call_guard.h: PAPI_shutdown against calls in flight in other threads (call_guard.c).
 *
 * Every public entry point that reaches an event set or a table the shutdown frees opens
 * with PAPI_CALL_GUARD(): it marks its thread as inside a call, or returns PAPI_ENOINIT
 * when a shutdown has begun; the mark goes when the function returns (a cleanup
 * attribute, so no return path can forget it). PAPI_shutdown blocks new calls, waits
 * until no other thread is inside one, and only then frees: a concurrent call completes
 * or returns an error, nothing is freed under it. (PAPI_read and PAPI_accum of a set
 * read by the thread that started it mark the set instead: core/counting.c.)
 *
 * The cost sits on the shutdown: a call stores to its own thread's slot and reads one
 * flag, with no atomic read-modify-write and no fence. The store-load ordering this
 * handshake needs is given by the shutdown's papi_barrier_everywhere (membarrier(2): a
 * full barrier on every thread of the process; the asymmetric Dekker of liburcu and
 * folly). Where the kernel refuses membarrier (before Linux 4.14, or a seccomp filter),
 * papi_barrier_ok is 0 and every call fences itself instead. */
#ifndef CALL_GUARD_H
#define CALL_GUARD_H

#include "papi_sdk.h"

/* One per thread that made a guarded call: on a list the shutdown scans, never freed
 * while the library is loaded (a thread's slot is given back when it ends and reused by
 * a later thread), so the scan never meets freed memory, whatever order the thread-exit
 * destructors run in. */
struct papi_call_slot {
    int active;      /* guarded calls of this thread on the stack (nested ones count) */
    int in_use;      /* owned by a live thread */
    struct papi_call_slot *next;
};
/* Not initial-exec: a library that tools dlopen cannot count on static TLS space
 * ("cannot allocate memory in static TLS block"). */
extern __thread struct papi_call_slot *papi_call_self PAPI_INTERNAL;
extern int papi_calls_blocked PAPI_INTERNAL;
/* 1 when papi_barrier_everywhere reaches every thread (membarrier works here). */
extern int papi_barrier_ok PAPI_INTERNAL;
PAPI_INTERNAL struct papi_call_slot *papi_call_register(void);
/* Shutdown: refuse new calls and wait for the ones in flight (but the caller's own). */
PAPI_INTERNAL void papi_calls_block_and_drain(void);
PAPI_INTERNAL void papi_calls_unblock(void);
/* A full memory barrier on every thread of the process, or as close as this kernel
 * allows (then papi_barrier_ok is 0; returns 0). */
PAPI_INTERNAL int papi_barrier_everywhere(void);
/* Unload (the library's destructor): delete the thread-exit key, free the slots. */
PAPI_INTERNAL void papi_calls_unload(void);

/* 1: inside; 0: a shutdown is under way (nothing to undo). */
static inline int papi_call_enter(void)
{
    struct papi_call_slot *s = papi_call_self;
    if (__builtin_expect(!s, 0))
        s = papi_call_register();
    __atomic_store_n(&s->active, s->active + 1, __ATOMIC_RELAXED);
    if (__builtin_expect(!__atomic_load_n(&papi_barrier_ok, __ATOMIC_RELAXED), 0))
        __atomic_thread_fence(__ATOMIC_SEQ_CST); /* no membarrier: pay the fence here */
    else
        __atomic_signal_fence(__ATOMIC_SEQ_CST); /* the CPU's barrier: the shutdown's membarrier */
    if (__builtin_expect(__atomic_load_n(&papi_calls_blocked, __ATOMIC_RELAXED), 0)) {
        __atomic_store_n(&s->active, s->active - 1, __ATOMIC_RELEASE);
        return 0;
    }
    return 1;
}

static inline void papi_call_leave(const int *entered)
{
    if (*entered) { /* release: the call's work happens before the shutdown sees it out */
        struct papi_call_slot *s = papi_call_self;
        __atomic_store_n(&s->active, s->active - 1, __ATOMIC_RELEASE);
    }
}

#define PAPI_CALL_GUARD()                                                                  \
    const int papi_entered_ __attribute__((cleanup(papi_call_leave))) = papi_call_enter(); \
    if (!papi_entered_)                                                                    \
    return papi_error(PAPI_ENOINIT, "PAPI_shutdown is under way in another thread")

/* The same for a function that returns nothing: it does nothing during a shutdown. */
#define PAPI_CALL_GUARD_VOID()                                                             \
    const int papi_entered_ __attribute__((cleanup(papi_call_leave))) = papi_call_enter(); \
    if (!papi_entered_)                                                                    \
    return

#endif
