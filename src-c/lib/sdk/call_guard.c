/* call_guard.c: the threads inside a library call, so that PAPI_shutdown frees nothing
 * under them (see call_guard.h). A thread takes a slot at its first guarded call and
 * gives it back when it ends (a thread-exit key); slots stay on one list, reused, until
 * the library is unloaded. The shutdown sets "blocked", makes every thread's earlier
 * stores visible with membarrier(2) and waits until every slot but its own is outside:
 * either a call sees "blocked", or the shutdown sees the call.
 *
 * The expedited membarrier needs a registration, which waits for an RCU grace period (6
 * to 18 ms seen) when the process has another thread already, and is one memory barrier
 * when it has not. So the registration is made at the first guarded call only while the
 * process has one thread (glibc's __libc_single_threaded), else by the first barrier
 * that is needed: PAPI_library_init and the calls never wait for a grace period, and a
 * shutdown with no other thread inside the library needs no barrier at all. */
#include <linux/membarrier.h>
#include <pthread.h>
#include <stdlib.h>
#if defined(__has_include)
#if __has_include(<sys/single_threaded.h>)
#include <sys/single_threaded.h>
#define PAPI_HAVE_SINGLE_THREADED 1
#endif
#endif
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "call_guard.h"

__thread struct papi_call_slot *papi_call_self;
int papi_call_flags; /* PAPI_CALLS_FENCE set by the probe when there is no membarrier */
int papi_barrier_ok;
static struct papi_call_slot *slots;
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t slot_key;
static pthread_once_t slot_once = PTHREAD_ONCE_INIT;
static int slot_key_made;
static int expedited;  /* MEMBARRIER_CMD_PRIVATE_EXPEDITED and its registration exist */
static int registered; /* ... and this process registered (may be lost in a forked child) */
static int global;     /* MEMBARRIER_CMD_GLOBAL is supported */

/* The thread ends: its slot goes back. A thread-exit destructor that runs after this one
 * (another key's) and makes a guarded call takes a slot again and sets the key again,
 * so glibc runs this once more; in the worst case (its last round) a slot stays marked
 * in use, idle: the scan reads it harmlessly. */
static void slot_exit(void *arg)
{
    struct papi_call_slot *s = arg;
    papi_call_self = NULL;
    __atomic_store_n(&s->owner, 0, __ATOMIC_RELAXED); /* before another thread may take it */
    __atomic_store_n(&s->in_use, 0, __ATOMIC_RELEASE);
}

static int membarrier(int cmd)
{
    return (int)syscall(SYS_membarrier, cmd, 0, 0);
}

/* 1 only when this process has never had a second thread (0 when it cannot tell). */
static int single_threaded(void)
{
#ifdef PAPI_HAVE_SINGLE_THREADED
    return __libc_single_threaded;
#else
    return 0;
#endif
}

static int register_expedited(void)
{
    if (membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) != 0)
        return 0;
    __atomic_store_n(&registered, 1, __ATOMIC_RELAXED);
    return 1;
}

static void probe_barrier(void)
{
    int cmds = membarrier(MEMBARRIER_CMD_QUERY);
    const int both = MEMBARRIER_CMD_PRIVATE_EXPEDITED | MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED;
    global = cmds > 0 && (cmds & MEMBARRIER_CMD_GLOBAL);
    expedited = cmds > 0 && (cmds & both) == both;
    if (expedited && single_threaded()) /* alone: no grace period to wait for */
        expedited = register_expedited();
    __atomic_store_n(&papi_barrier_ok, expedited || global, __ATOMIC_RELAXED);
    /* Before any guarded call enters: each registers its thread's slot first (which runs
     * this once). */
    if (!(expedited || global))
        __atomic_fetch_or(&papi_call_flags, PAPI_CALLS_FENCE, __ATOMIC_SEQ_CST);
}

/* A forked child has one thread: the other threads' slots, which fork copied in
 * whatever state (inside a call, or the lock held), would make its shutdown wait forever. */
PAPI_FORK_CHILD_CODE static void slots_in_child(void)
{
    papi_child_reset_lock(&slots_lock);
    /* The forking thread's slot is the one it owns (compared by thread pointer: reading
     * papi_call_self would call the TLS resolver, one more page of code); the others are
     * cleared, written only where not clear already. */
    uintptr_t me = papi_thread_pointer();
    for (struct papi_call_slot *s = slots; s; s = s->next)
        if (s->owner != me && (s->active || s->in_use || s->owner)) {
            s->active = s->in_use = 0;
            s->owner = 0; /* a thread of the child may get the thread pointer it had */
        }
    if (papi_call_flags & PAPI_CALLS_BLOCKED) /* no write otherwise: no page copied */
        papi_call_flags &= ~PAPI_CALLS_BLOCKED;
}

static void make_slot_key(void)
{
    slot_key_made = pthread_key_create(&slot_key, slot_exit) == 0;
    pthread_atfork(NULL, NULL, slots_in_child);
    probe_barrier();
}

struct papi_call_slot *papi_call_register(void)
{
    pthread_once(&slot_once, make_slot_key);
    pthread_mutex_lock(&slots_lock);
    struct papi_call_slot *s = slots;
    while (s && __atomic_load_n(&s->in_use, __ATOMIC_ACQUIRE))
        s = s->next;
    if (!s) {
        s = calloc(1, sizeof *s);
        if (!s)
            abort(); /* 16 bytes once per thread: nothing sensible is left to do */
        s->next = slots;
        slots = s;
    }
    s->in_use = 1;
    memset(s->running, 0, sizeof s->running);
    __atomic_store_n(&s->owner, papi_thread_pointer(), __ATOMIC_RELAXED);
    pthread_mutex_unlock(&slots_lock);
    papi_call_self = s;
    if (slot_key_made)
        pthread_setspecific(slot_key, s);
    return s;
}

/* Not in the cache: the thread's own slot (a first call takes one), entered there. */
struct papi_call_slot *papi_call_slot_slow(uintptr_t tp)
{
    struct papi_call_slot *s = papi_call_self;
    if (!s)
        s = papi_call_register();
    __atomic_store_n(&papi_slot_cache[papi_slot_hash(tp)], s, __ATOMIC_RELEASE);
    return s;
}

void papi_calls_unload(void)
{
    if (slot_key_made)
        pthread_key_delete(slot_key); /* its destructor is about to be unmapped */
    slot_key_made = 0;
    pthread_mutex_lock(&slots_lock);
    memset(papi_slot_cache, 0, sizeof papi_slot_cache);
    while (slots) {
        struct papi_call_slot *n = slots->next;
        free(slots);
        slots = n;
    }
    pthread_mutex_unlock(&slots_lock);
    papi_call_self = NULL;
}

/* A full barrier on every thread of the process. The expedited command needs the
 * registration: made here when the probe could not make it cheaply (the one grace
 * period, paid by the first shutdown that needs a barrier), or again in a forked child,
 * which may lack it; else the global command. Where the kernel refuses both
 * (papi_barrier_ok turns 0), later calls fence themselves (call_guard.h) and the sets'
 * unguarded fast path is off (counting.c); the threads already past their store are
 * given time to publish it (a store buffer drains in microseconds, not a guarantee the
 * kernel gives: the one case left to chance). */
int papi_barrier_everywhere(void)
{
    pthread_once(&slot_once, make_slot_key);
    if (expedited && __atomic_load_n(&registered, __ATOMIC_RELAXED) &&
        membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0)
        return 1;
    if (expedited && register_expedited() && membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0)
        return 1;
    if (global && membarrier(MEMBARRIER_CMD_GLOBAL) == 0)
        return 1;
    __atomic_store_n(&papi_barrier_ok, 0, __ATOMIC_RELAXED);
    __atomic_fetch_or(&papi_call_flags, PAPI_CALLS_FENCE, __ATOMIC_SEQ_CST);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    struct timespec ts = {0, 10000000};
    nanosleep(&ts, NULL);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return 0;
}

/* Whether a thread other than the caller holds a slot (slots_lock held). */
static int other_slots(void)
{
    for (const struct papi_call_slot *s = slots; s; s = s->next)
        if (s != papi_call_self && __atomic_load_n(&s->in_use, __ATOMIC_ACQUIRE))
            return 1;
    return 0;
}

/* The barrier only when another thread holds a slot: a thread that takes its first slot
 * after this look takes slots_lock after the shutdown released it, so its look at the
 * flags comes after "blocked" was set (the mutex orders them), barrier or not. */
void papi_calls_block_and_drain(void)
{
    __atomic_fetch_or(&papi_call_flags, PAPI_CALLS_BLOCKED, __ATOMIC_SEQ_CST);
    pthread_mutex_lock(&slots_lock);
    int others = other_slots();
    pthread_mutex_unlock(&slots_lock);
    if (others)
        papi_barrier_everywhere();
    pthread_mutex_lock(&slots_lock);
    for (struct papi_call_slot *s = slots; s; s = s->next) {
        if (s == papi_call_self)
            continue; /* PAPI_shutdown called from inside a guarded call of this thread */
        while (__atomic_load_n(&s->active, __ATOMIC_ACQUIRE) > 0) {
            struct timespec ts = {0, 50000};
            nanosleep(&ts, NULL);
        }
    }
    pthread_mutex_unlock(&slots_lock);
}

void papi_calls_unblock(void)
{
    __atomic_fetch_and(&papi_call_flags, ~PAPI_CALLS_BLOCKED, __ATOMIC_SEQ_CST);
}
