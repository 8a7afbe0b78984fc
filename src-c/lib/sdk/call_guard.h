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

#include <pthread.h>
#include <stdint.h>

#include "papi_sdk.h"
#include "thread_pointer.h"

/* One per thread that made a guarded call: on a list the shutdown scans, never freed
 * while the library is loaded (a thread's slot is given back when it ends and reused by
 * a later thread), so the scan never meets freed memory, whatever order the thread-exit
 * destructors run in. */
struct papi_call_slot {
    int active;      /* guarded calls of this thread on the stack (nested ones count) */
    int in_use;      /* owned by a live thread */
    uintptr_t owner; /* the owning thread's thread pointer (papi_thread_pointer), 0 none */
    struct papi_call_slot *next;
    /* Per component, the event set this thread runs (handle + 1, 0 none; core/counting.c:
     * one at a time, as in PAPI). Here rather than in a thread-local array of its own: the
     * guarded call holds its slot already. Zeroed when a thread takes the slot. */
    int running[CMP_MAX];
};
/* Not initial-exec: a library that tools dlopen cannot count on static TLS space
 * ("cannot allocate memory in static TLS block"). */
extern __thread struct papi_call_slot *papi_call_self PAPI_INTERNAL;
/* What a call must check, in one word (one load on its way in): */
#define PAPI_CALLS_BLOCKED 1 /* a shutdown is under way: refuse */
#define PAPI_CALLS_FENCE   2 /* papi_barrier_ok is 0: fence, then look again */
extern int papi_call_flags PAPI_INTERNAL;
/* 1 when papi_barrier_everywhere reaches every thread (membarrier works here). */
extern int papi_barrier_ok PAPI_INTERNAL;
PAPI_INTERNAL struct papi_call_slot *papi_call_register(void);
/* The slots by thread pointer, direct-mapped (a thread whose entry another thread took
 * finds its slot through papi_call_self): a guarded call finds its slot with a few loads
 * instead of a thread-local access, which in a library loaded with dlopen is a call into
 * the dynamic linker's TLS descriptor resolver (about 25 instructions). A slot's owner is
 * set by its thread and cleared when it ends, so an entry is used only by the live
 * thread whose thread pointer owns it. */
#define PAPI_SLOT_CACHE 64 /* 512 bytes: more would move other state onto another page */
extern struct papi_call_slot *papi_slot_cache[PAPI_SLOT_CACHE] PAPI_INTERNAL;
PAPI_INTERNAL struct papi_call_slot *papi_call_slot_slow(uintptr_t tp);

static inline unsigned papi_slot_hash(uintptr_t tp)
{
    return (unsigned)((tp >> 12) ^ (tp >> 20)) & (PAPI_SLOT_CACHE - 1);
}
/* Shutdown: refuse new calls and wait for the ones in flight (but the caller's own). */
PAPI_INTERNAL void papi_calls_block_and_drain(void);
PAPI_INTERNAL void papi_calls_unblock(void);
/* A full memory barrier on every thread of the process, or as close as this kernel
 * allows (then papi_barrier_ok is 0; returns 0). */
PAPI_INTERNAL int papi_barrier_everywhere(void);
/* Unload (the library's destructor): delete the thread-exit key, free the slots. */
PAPI_INTERNAL void papi_calls_unload(void);

/* The calling thread's slot, inside; NULL: a shutdown is under way (nothing to undo). The
 * slot is kept for papi_call_leave: one thread-local access per call (in a library loaded
 * with dlopen, each is a call into the dynamic linker's TLS descriptor resolver). */
static inline struct papi_call_slot *papi_call_enter(void)
{
    uintptr_t tp = papi_thread_pointer();
    /* Acquire: the entry may be another thread's slot, made by it (calloc) just before. */
    struct papi_call_slot *s =
        __atomic_load_n(&papi_slot_cache[papi_slot_hash(tp)], __ATOMIC_ACQUIRE);
    if (__builtin_expect(!s || __atomic_load_n(&s->owner, __ATOMIC_RELAXED) != tp, 0))
        s = papi_call_slot_slow(tp);
    __atomic_store_n(&s->active, s->active + 1, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST); /* the CPU's barrier: the shutdown's membarrier */
    int f = __atomic_load_n(&papi_call_flags, __ATOMIC_RELAXED);
    if (__builtin_expect(f != 0, 0)) {
        if (f & PAPI_CALLS_FENCE) { /* no membarrier: pay the fence here, then look again */
            __atomic_thread_fence(__ATOMIC_SEQ_CST);
            f = __atomic_load_n(&papi_call_flags, __ATOMIC_RELAXED);
        }
        if (f & PAPI_CALLS_BLOCKED) {
            __atomic_store_n(&s->active, s->active - 1, __ATOMIC_RELEASE);
            return NULL;
        }
    }
    return s;
}

static inline void papi_call_leave(struct papi_call_slot *const *entered)
{
    struct papi_call_slot *s = *entered;
    if (s) /* release: the call's work happens before the shutdown sees it out */
        __atomic_store_n(&s->active, s->active - 1, __ATOMIC_RELEASE);
}

#define PAPI_CALL_GUARD()                                                                  \
    struct papi_call_slot *const papi_entered_ __attribute__((cleanup(papi_call_leave))) = \
        papi_call_enter();                                                                 \
    if (!papi_entered_)                                                                    \
    return papi_error(PAPI_ENOINIT, "PAPI_shutdown is under way in another thread")

/* The same for a function that returns nothing: it does nothing during a shutdown. */
#define PAPI_CALL_GUARD_VOID()                                                             \
    struct papi_call_slot *const papi_entered_ __attribute__((cleanup(papi_call_leave))) = \
        papi_call_enter();                                                                 \
    if (!papi_entered_)                                                                    \
    return

#endif
