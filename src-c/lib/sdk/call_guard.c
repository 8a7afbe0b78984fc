/* call_guard.c: the threads inside a library call, so that PAPI_shutdown frees nothing
 * under them (see call_guard.h). Each thread's slot (thread-local) joins a list at its
 * first guarded call and leaves it when the thread ends (a thread-exit key). The
 * shutdown sets "blocked", makes every thread's earlier stores visible with membarrier(2)
 * and waits until every slot but its own is outside: either a call sees "blocked", or the
 * shutdown sees the call. */
#include <linux/membarrier.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "call_guard.h"

__thread struct papi_call_slot papi_call_self;
int papi_calls_blocked;
static struct papi_call_slot *slots;
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t slot_key;
static pthread_once_t slot_once = PTHREAD_ONCE_INIT;
static int expedited; /* MEMBARRIER_CMD_PRIVATE_EXPEDITED is registered */

static void slot_exit(void *arg) /* the thread ends: its slot (thread-local) goes away */
{
    pthread_mutex_lock(&slots_lock);
    for (struct papi_call_slot **p = &slots; *p; p = &(*p)->next)
        if (*p == arg) {
            *p = ((struct papi_call_slot *)arg)->next;
            break;
        }
    pthread_mutex_unlock(&slots_lock);
}

static int slot_key_made;

static void make_slot_key(void)
{
    slot_key_made = pthread_key_create(&slot_key, slot_exit) == 0;
    expedited = syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
}

void papi_call_register(void)
{
    struct papi_call_slot *s = &papi_call_self;
    pthread_once(&slot_once, make_slot_key);
    pthread_mutex_lock(&slots_lock);
    s->next = slots;
    slots = s;
    s->registered = 1;
    pthread_mutex_unlock(&slots_lock);
    if (slot_key_made)
        pthread_setspecific(slot_key, s);
}

void papi_calls_unload(void)
{
    if (slot_key_made)
        pthread_key_delete(slot_key); /* its destructor is about to be unmapped */
    slot_key_made = 0;
}

/* A full barrier on every thread of the process; where membarrier is refused, the
 * strongest fence this thread can give (the calls then rely on their own ordering). */
static void barrier_everywhere(void)
{
    if (expedited && syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0)
        return;
    if (syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) == 0)
        return;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void papi_calls_block_and_drain(void)
{
    __atomic_store_n(&papi_calls_blocked, 1, __ATOMIC_SEQ_CST);
    barrier_everywhere();
    pthread_mutex_lock(&slots_lock);
    for (struct papi_call_slot *s = slots; s; s = s->next) {
        if (s == &papi_call_self)
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
    __atomic_store_n(&papi_calls_blocked, 0, __ATOMIC_SEQ_CST);
}
