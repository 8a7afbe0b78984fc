/* threads.c: thread identification, the registry of known threads, thread-specific
 * pointers and the two user locks. Every thread's event sets count only that thread
 * (perf_event pid 0 is the calling thread). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "threads.h"

struct thread_rec {
    unsigned long id;
    pid_t tid;
    void *data[PAPI_NUM_TLS]; /* the user's slots, PAPI_HIGH_LEVEL_TLS included */
    void *hl_state;           /* the library's own high-level state of this thread */
    struct thread_rec *next;
};

static struct thread_rec *threads;
static _Thread_local struct thread_rec *self;
static _Thread_local unsigned self_generation;
static unsigned generation = 1; /* bumped by shutdown: older thread-local records are gone */
static _Thread_local pid_t cached_tid;
static _Thread_local unsigned cached_tid_forks; /* papi_fork_count() when it was cached */
static pthread_mutex_t user_locks[PAPI_NUM_LOCK] = {PTHREAD_MUTEX_INITIALIZER,
                                                    PTHREAD_MUTEX_INITIALIZER};

/* fork copies the forking thread's cached id into the child, where it names the
 * parent: signals routed to it (overflow) would reach, and kill, the parent. The child
 * handler counts the fork in the library's state (papi_fork_count: a page the child
 * writes anyway) and the cache is valid for the count it was made under; writing the
 * thread-local cache in the child would cost it two more page faults. */
PAPI_FORK_CHILD_CODE static void count_fork(void)
{
    /* A load and a store, not an atomic add: the child has one thread, and arm64's
     * outlined atomics would map one more page of code in it. */
    unsigned n = atomic_load_explicit(&g_papi.forks, memory_order_relaxed);
    atomic_store_explicit(&g_papi.forks, n + 1, memory_order_relaxed);
}
static pthread_once_t forks_once = PTHREAD_ONCE_INIT;
static void register_count_fork(void)
{
    pthread_atfork(NULL, NULL, count_fork);
}

void threads_watch_forks(void)
{
    pthread_once(&forks_once, register_count_fork);
}

pid_t papi_gettid(void)
{
    unsigned forks = papi_fork_count();
    if (!cached_tid || cached_tid_forks != forks) {
        threads_watch_forks();
        forks = papi_fork_count();
        cached_tid = (pid_t)syscall(SYS_gettid);
        cached_tid_forks = forks;
    }
    return cached_tid;
}

static unsigned long current_id(void)
{
    unsigned long (*fn)(void) = atomic_load(&g_papi.thread_id_fn);
    return fn ? fn() : (unsigned long)papi_gettid();
}

/* This thread's record, created on first need. Caller must not hold g_papi_lock. */
static struct thread_rec *self_record(void)
{
    if (self && self_generation == generation)
        return self;
    struct thread_rec *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->id = current_id();
    r->tid = papi_gettid();
    pthread_mutex_lock(&g_papi_lock);
    r->next = threads;
    threads = r;
    pthread_mutex_unlock(&g_papi_lock);
    self = r;
    self_generation = generation;
    return r;
}

void *thread_hl_slot(void)
{
    struct thread_rec *r = self_record();
    return r ? &r->hl_state : NULL;
}

#define EXIT_KEYS 8
static pthread_key_t exit_keys[EXIT_KEYS];
static int nexit_keys;
static pthread_mutex_t exit_keys_lock = PTHREAD_MUTEX_INITIALIZER;

int thread_exit_key_create(pthread_key_t *key, void (*fn)(void *))
{
    pthread_mutex_lock(&exit_keys_lock);
    int err = nexit_keys < EXIT_KEYS ? pthread_key_create(key, fn) : EAGAIN;
    if (err == 0)
        exit_keys[nexit_keys++] = *key;
    pthread_mutex_unlock(&exit_keys_lock);
    return err;
}

void threads_unload(void)
{
    pthread_mutex_lock(&exit_keys_lock);
    while (nexit_keys > 0)
        pthread_key_delete(exit_keys[--nexit_keys]);
    pthread_mutex_unlock(&exit_keys_lock);
}

void threads_shutdown(void)
{
    pthread_mutex_lock(&g_papi_lock);
    while (threads) {
        struct thread_rec *n = threads->next;
        free(threads);
        threads = n;
    }
    generation++;
    pthread_mutex_unlock(&g_papi_lock);
    self = NULL;
}

int PAPI_thread_init(unsigned long (*id_fn)(void))
{
    PAPI_CHECK_INIT();
    if (!id_fn)
        return papi_error(PAPI_EINVAL, "thread id function is NULL");
    atomic_store(&g_papi.thread_id_fn, id_fn);
    g_papi.init_state |= PAPI_THREAD_LEVEL_INITED;
    return PAPI_OK;
}

unsigned long PAPI_thread_id(void)
{
    unsigned long (*fn)(void) = atomic_load(&g_papi.thread_id_fn);
    if (!(g_papi.init_state & PAPI_THREAD_LEVEL_INITED) || !fn) {
        papi_error(PAPI_EMISC, "PAPI_thread_init was not called");
        return (unsigned long)-1;
    }
    return fn();
}

int PAPI_register_thread(void)
{
    PAPI_CHECK_INIT();
    return self_record() ? PAPI_OK : papi_error(PAPI_ENOMEM, "no memory for the thread record");
}

int PAPI_unregister_thread(void)
{
    PAPI_CHECK_INIT();
    if (!self || self_generation != generation)
        return papi_error(PAPI_EINVAL, "this thread was not registered");
    pthread_mutex_lock(&g_papi_lock);
    for (struct thread_rec **p = &threads; *p; p = &(*p)->next)
        if (*p == self) {
            *p = self->next;
            break;
        }
    pthread_mutex_unlock(&g_papi_lock);
    free(self);
    self = NULL;
    return PAPI_OK;
}

int PAPI_list_threads(PAPI_thread_id_t *tids, int *number)
{
    PAPI_CHECK_INIT();
    if (!number || *number < 0)
        return papi_error(PAPI_EINVAL, "number is NULL or negative");
    if (*number > 0 && !tids)
        return papi_error(PAPI_EINVAL, "tids is NULL but *number is %d", *number);
    int n = 0;
    pthread_mutex_lock(&g_papi_lock);
    for (struct thread_rec *r = threads; r; r = r->next) {
        if (n < *number)
            tids[n] = r->id;
        n++;
    }
    pthread_mutex_unlock(&g_papi_lock);
    *number = n;
    return PAPI_OK;
}

int PAPI_set_thr_specific(int tag, void *ptr)
{
    PAPI_CHECK_INIT();
    /* PAPI 3.x/5.x codes store their own pointer under PAPI_HIGH_LEVEL_TLS too. */
    if (tag < 0 || tag >= PAPI_NUM_TLS)
        return papi_error(PAPI_EINVAL,
                          "tag %d is not PAPI_USR1_TLS, PAPI_USR2_TLS or PAPI_HIGH_LEVEL_TLS", tag);
    struct thread_rec *r = self_record();
    if (!r)
        return papi_error(PAPI_ENOMEM, "no memory for the thread record");
    r->data[tag] = ptr;
    return PAPI_OK;
}

int PAPI_get_thr_specific(int tag, void **ptr)
{
    PAPI_CHECK_INIT();
    if (!ptr)
        return papi_error(PAPI_EINVAL, "ptr is NULL");
    int all = tag & PAPI_TLS_ALL_THREADS;
    tag &= ~PAPI_TLS_ALL_THREADS;
    if (tag < 0 || tag >= PAPI_NUM_TLS)
        return papi_error(PAPI_EINVAL, "tag %d is not a thread-specific storage tag", tag);
    if (!all) {
        struct thread_rec *r = self_record();
        if (!r)
            return papi_error(PAPI_ENOMEM, "no memory for the thread record");
        *ptr = r->data[tag];
        return PAPI_OK;
    }
    /* ptr points at a PAPI_all_thr_spec_t whose arrays hold num entries. */
    PAPI_all_thr_spec_t *all_spec = (PAPI_all_thr_spec_t *)ptr;
    if (all_spec->num < 0 || (all_spec->num > 0 && (!all_spec->id || !all_spec->data)))
        return papi_error(PAPI_EINVAL, "PAPI_all_thr_spec_t has no room (num %d)", all_spec->num);
    int n = 0;
    pthread_mutex_lock(&g_papi_lock);
    for (struct thread_rec *r = threads; r && n < all_spec->num; r = r->next, n++) {
        all_spec->id[n] = r->id;
        all_spec->data[n] = r->data[tag];
    }
    pthread_mutex_unlock(&g_papi_lock);
    all_spec->num = n;
    return PAPI_OK;
}

int PAPI_lock(int lck)
{
    if (lck < 0 || lck >= PAPI_NUM_LOCK)
        return papi_error(PAPI_EINVAL, "lock %d is not PAPI_USR1_LOCK or PAPI_USR2_LOCK", lck);
    pthread_mutex_lock(&user_locks[lck]);
    return PAPI_OK;
}

int PAPI_unlock(int lck)
{
    if (lck < 0 || lck >= PAPI_NUM_LOCK)
        return papi_error(PAPI_EINVAL, "lock %d is not PAPI_USR1_LOCK or PAPI_USR2_LOCK", lck);
    pthread_mutex_unlock(&user_locks[lck]);
    return PAPI_OK;
}
