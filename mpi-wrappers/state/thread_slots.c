/* thread_slots.c: one recording slot per thread (thread_slots.h): a thread's first
 * intercepted call claims its slot; what a new or ending thread means for the counters
 * comes in as callbacks (pmpi_record_start). Reaches only the state below it. */
#include <pthread.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "thread_slots.h"

static pthread_key_t thread_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static void (*on_thread_start)(int slot);
static void (*on_thread_exit)(int slot);

static void thread_exit(void *arg)
{
    struct pmpi_thread *th = arg;
    if (on_thread_exit)
        on_thread_exit((int)(th - pmpi_rec.threads));
}

static int key_made;

static void make_key(void)
{
    key_made = pthread_key_create(&thread_key, thread_exit) == 0;
}

/* Unloaded (dlclose): a thread that ends afterwards must not call thread_exit, which is
 * gone with the library. */
__attribute__((destructor)) static void slots_unload(void)
{
    if (key_made)
        pthread_key_delete(thread_key);
    key_made = 0;
}

/* A slot's fixed tables: call sites (when on), message sizes and partners (traffic.c).
 * calloc'd: pages never touched cost nothing. */
static void slot_tables(struct pmpi_thread *th)
{
    /* Published with release: other threads may already see the slot (state.h). */
    if (pmpi_rec.callsites && !th->sites)
        __atomic_store_n(&th->sites, calloc(PMPI_SITE_SLOTS, sizeof *th->sites), __ATOMIC_RELEASE);
    if (!th->hist)
        __atomic_store_n(&th->hist,
                         calloc((size_t)PMPI_NCALLS * PMPI_SIZE_BUCKETS, sizeof *th->hist),
                         __ATOMIC_RELEASE);
    if (!th->peers)
        __atomic_store_n(&th->peers, calloc(PMPI_PEER_SLOTS, sizeof *th->peers), __ATOMIC_RELEASE);
}

/* First intercepted call of a thread: claim a private slot (or the shared overflow
 * slot when all are taken) and tell the layer above (its counters start). */
struct pmpi_thread *pmpi_thread_slot_slow(void)
{
    int i = atomic_fetch_add(&pmpi_rec.nthreads, 1);
    struct pmpi_thread *th;
    if (i < PMPI_MAX_THREADS) {
        th = &pmpi_rec.threads[i];
        th->tid = (int)syscall(SYS_gettid); /* once per thread, off the hot path */
        slot_tables(th);
        if (on_thread_start)
            on_thread_start(i);
        pthread_once(&key_once, make_key);
        pthread_setspecific(thread_key, th);
    } else {
        th = &pmpi_rec.threads[PMPI_MAX_THREADS]; /* marked shared at the start */
    }
    pmpi_tls = th;
    return th;
}

void pmpi_record_start(int callsites, int concurrent, void (*thread_start)(int slot),
                       void (*thread_exit_cb)(int slot))
{
    struct pmpi_thread *shared = &pmpi_rec.threads[PMPI_MAX_THREADS];
    pmpi_rec.callsites = callsites;
    pmpi_rec.concurrent = concurrent;
    on_thread_start = thread_start;
    on_thread_exit = thread_exit_cb;
    pmpi_tls = NULL;
    atomic_store(&pmpi_rec.nthreads, 0);
    shared->shared = 1;
    slot_tables(shared);
    pmpi_thread_slot_slow(); /* slot 0: the initialising thread */
}

int pmpi_record_nslots(void)
{
    int n = atomic_load(&pmpi_rec.nthreads);
    return n > PMPI_MAX_THREADS ? PMPI_MAX_THREADS + 1 : n;
}
