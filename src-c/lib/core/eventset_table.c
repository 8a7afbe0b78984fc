/* eventset_table.c: event set handles and their life cycle (create, destroy, cleanup,
 * state, listing, component assignment). Handles are small integers, reused after
 * destroy, looked up without a lock on the counting hot path. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "call_guard.h"
#include "component_registry.h"
#include "counting.h"
#include "eventset_events.h"
#include "events.h"
#include "eventset_handles.h"
#include "eventset_table.h"
#include "threads.h"

/* One past the highest handle ever given out: the scans below stop there (handles are
 * reused lowest first, so this stays small). Only grows (written under g_papi_lock). */
static atomic_int es_top;

/* Freed sets, kept for reuse until the library is unloaded (es_unload): PAPI_read and
 * PAPI_accum look at a set without the call guard (counting.c), so a set they found may
 * have been taken away by a shutdown since; its memory must still be a set. Under
 * g_papi_lock. */
static struct eventset *pool;

/* A set from the pool, zeroed (its mark too: in a forked child, a mark a thread of the
 * parent left there would make the child's shutdown wait for it forever), or a new one. */
static struct eventset *set_alloc(void)
{
    pthread_mutex_lock(&g_papi_lock);
    struct eventset *es = pool;
    if (es)
        pool = es->next_free;
    pthread_mutex_unlock(&g_papi_lock);
    if (!es)
        return calloc(1, sizeof *es);
    memset(es, 0, sizeof *es);
    return es;
}

/* A set's arrays freed (es_free_arrays), the set back to the pool. */
static void set_free(struct eventset *es)
{
    es_free_arrays(es);
    pthread_mutex_lock(&g_papi_lock);
    es->next_free = pool;
    pool = es;
    pthread_mutex_unlock(&g_papi_lock);
}

void es_unload(void)
{
    pthread_mutex_lock(&g_papi_lock);
    while (pool) {
        struct eventset *n = pool->next_free;
        free(pool);
        pool = n;
    }
    pthread_mutex_unlock(&g_papi_lock);
}

static es_slot_t *current_table(void)
{
    return atomic_load_explicit(&es_tables.current, memory_order_relaxed);
}

/* The handle of a running set that counts code, or -1: the preset tables ask it (through
 * the query installed below) before they replace a definition. */
static int code_in_running_set(int code)
{
    int top = atomic_load_explicit(&es_top, memory_order_acquire);
    for (int h = 0; h < top; h++) {
        struct eventset *es = es_lookup(h);
        if (!es || !(es->state & PAPI_RUNNING))
            continue;
        if (es_entry_index(es, code) >= 0)
            return es->handle;
    }
    return -1;
}

static void sets_lifecycle(const struct papi_life *ev);

/* What the layers below need to know of the sets; idempotent, so done at every create
 * (until a set exists, nothing is to be freed or asked). */
static void register_hooks(void)
{
    papi_lifecycle_register(PAPI_LIFE_STAGE_SETS, sets_lifecycle);
    papi_lifecycle_register_fork(sets_lifecycle);
    preset_set_running_query(code_in_running_set);
}

/* The thread that created event sets ends: nothing can count it any more, so its sets'
 * descriptors go back to the process (10,000 such threads kept 1,434 fds open, past the
 * default limit of 1,024). */
static pthread_key_t owner_key;
static pthread_once_t owner_once = PTHREAD_ONCE_INIT;
static int owner_key_ok;

/* Guarded (es_release_thread): when the call guard's own thread-exit destructor ran
 * first (its key is older), the guard takes a slot again for this call (call_guard.c). */
static void owner_exit(void *arg)
{
    (void)arg;
    es_release_thread(papi_gettid());
}

static void make_owner_key(void)
{
    owner_key_ok = thread_exit_key_create(&owner_key, owner_exit) == 0;
}

static void note_set_owner(void)
{
    pthread_once(&owner_once, make_owner_key);
    if (owner_key_ok && !pthread_getspecific(owner_key))
        pthread_setspecific(owner_key, &owner_key_ok); /* any non-NULL value */
}

int PAPI_create_eventset(int *EventSet)
{
    PAPI_CALL_GUARD();
    PAPI_CHECK_INIT();
    if (!EventSet)
        return papi_error(PAPI_EINVAL, "EventSet pointer is NULL");
    if (*EventSet != PAPI_NULL)
        return papi_error(PAPI_EINVAL,
                          "*EventSet must be PAPI_NULL before PAPI_create_eventset (it is %d)",
                          *EventSet);
    struct eventset *es = set_alloc();
    if (!es)
        return papi_error(PAPI_ENOMEM, "no memory for a new event set");
    es->state = PAPI_STOPPED;
    es->cidx = -1;
    es->domain = g_papi.default_domain;
    es->granularity = g_papi.default_granularity;
    es->owner_tid = papi_gettid();
    es->cpu = -1;
    register_hooks();
    pthread_mutex_lock(&g_papi_lock);
    es_slot_t *t = current_table();
    int h = 0;
    while (h < MAX_EVENTSETS && atomic_load(&t[h]))
        h++;
    if (h == MAX_EVENTSETS) {
        pthread_mutex_unlock(&g_papi_lock);
        set_free(es);
        return papi_error(PAPI_ENOMEM, "all %d event set handles are in use", MAX_EVENTSETS);
    }
    es->handle = h;
    if (h >= atomic_load_explicit(&es_top, memory_order_relaxed))
        atomic_store_explicit(&es_top, h + 1, memory_order_release);
    atomic_store_explicit(&t[h], es, memory_order_release);
    pthread_mutex_unlock(&g_papi_lock);
    note_set_owner();
    *EventSet = h;
    return PAPI_OK;
}

int PAPI_cleanup_eventset(int EventSet)
{
    PAPI_CALL_GUARD();
    struct eventset *es;
    int ret = es_get(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    if (es->state & PAPI_RUNNING)
        return papi_error(PAPI_EISRUN, "EventSet %d is running: stop it first", EventSet);
    pthread_mutex_lock(&es_tables.close_lock);
    es_close_all(es);
    pthread_mutex_unlock(&es_tables.close_lock);
    /* As PAPI 7: cleanup turns overflow and profiling off (the set is stopped, so no
     * timer or signal refers to them any more). */
    free(es->overflow);
    free(es->profile);
    es->overflow = NULL;
    es->profile = NULL;
    es->state &= ~(PAPI_OVERFLOWING | PAPI_PROFILING);
    es->nnat = 0;
    es->nentries = 0;
    es->cidx = -1;
    es->multiplexed = 0;
    es->state &= ~PAPI_MULTIPLEXING;
    return PAPI_OK;
}

int PAPI_destroy_eventset(int *EventSet)
{
    PAPI_CALL_GUARD();
    if (!EventSet)
        return papi_error(PAPI_EINVAL, "EventSet pointer is NULL");
    struct eventset *es;
    int ret = es_get(*EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    if (es->state & PAPI_RUNNING)
        return papi_error(PAPI_EISRUN, "EventSet %d is running: stop it first", *EventSet);
    if (es->nentries > 0)
        return papi_error(PAPI_EINVAL,
                          "EventSet %d still has %d events: PAPI_cleanup_eventset it first",
                          *EventSet, es->nentries);
    pthread_mutex_lock(&es_tables.close_lock);
    pthread_mutex_lock(&g_papi_lock);
    atomic_store(&current_table()[es->handle], NULL);
    pthread_mutex_unlock(&g_papi_lock);
    es_close_all(es);
    pthread_mutex_unlock(&es_tables.close_lock);
    set_free(es);
    *EventSet = PAPI_NULL;
    return PAPI_OK;
}

/* A forked child's copies of its parent's sets: out of reach (so no call of the child
 * reaches them, before or after its PAPI_library_init), closed by free_all. The child
 * switches to the other table, which is empty: its own sets were dropped (free_all)
 * before it could initialise the library and fork again. One pointer written: the
 * child's pages stay shared with the parent. */
PAPI_FORK_CHILD_CODE static void hide_inherited(void)
{
    es_slot_t *t = current_table();
    atomic_store_explicit(&es_tables.inherited, t, memory_order_relaxed);
    atomic_store_explicit(&es_tables.current, es_tables_other(t), memory_order_release);
}

/* Every set of table t out of it, passed to fn. */
static void drain_table(es_slot_t *t, void (*fn)(struct eventset *es, int stop), int stop)
{
    int top = atomic_load_explicit(&es_top, memory_order_acquire);
    for (int h = 0; h < top; h++) {
        if (!atomic_load_explicit(&t[h], memory_order_relaxed))
            continue; /* no write to a slot that is already empty */
        struct eventset *es = atomic_exchange(&t[h], NULL);
        if (es)
            fn(es, stop);
    }
}

static void free_set(struct eventset *es)
{
    es_close_all(es);
    free(es->overflow);
    free(es->profile);
    set_free(es);
}

static void stop_and_free(struct eventset *es, int stop_running)
{
    if (stop_running && (es->state & PAPI_RUNNING) && es->ctx) {
        es->cmp->stop(es->ctx);
        if (es->overflow)
            es_overflow_hooks->stop(
                es); /* deletes a software-overflow timer that would keep firing */
    }
    free_set(es);
}

static int drop_inherited(void)
{
    es_slot_t *t = atomic_exchange(&es_tables.inherited, NULL);
    if (!t)
        return 0;
    drain_table(t, stop_and_free, 0); /* never stopped: that would stop the parent's counters */
    return 1;
}

/* Shutdown: close every descriptor and free every set. stop_running 0: a forked child
 * dropping its parent's sets (close, no ioctl). The guarded calls are out already
 * (papi_calls_block_and_drain); PAPI_read and PAPI_accum of a set by its starting thread
 * are not guarded (counting.c): every set is taken out of the table and out of their
 * reach (reader and fast_read cleared), a barrier runs on every thread (when another
 * thread was a set's reader: only it may be inside the unguarded read), and each set is
 * freed once no read is inside it (but one this thread is inside: PAPI_shutdown from a
 * signal handler that interrupted it). */
static void free_all(int stop_running)
{
    drop_inherited();
    es_slot_t *t = current_table();
    struct eventset *taken = NULL;
    uintptr_t me = papi_thread_pointer();
    int foreign = 0;
    int top = atomic_load_explicit(&es_top, memory_order_acquire);
    for (int h = 0; h < top; h++) {
        if (!atomic_load_explicit(&t[h], memory_order_relaxed))
            continue; /* no write to a slot that is already empty */
        struct eventset *es = atomic_exchange(&t[h], NULL);
        if (!es)
            continue;
        uintptr_t reader = __atomic_exchange_n(&es->reader, 0, __ATOMIC_RELAXED);
        foreign |= reader != 0 && reader != me;
        __atomic_store_n(&es->fast_read, NULL, __ATOMIC_RELAXED);
        es->next_free = taken;
        taken = es;
    }
    if (!taken)
        return;
    if (foreign)
        papi_barrier_everywhere();
    while (taken) {
        struct eventset *es = taken;
        taken = es->next_free;
        uintptr_t r;
        while ((r = __atomic_load_n(&es->reading, __ATOMIC_ACQUIRE)) != 0 && r != me) {
            struct timespec ts = {0, 50000};
            nanosleep(&ts, NULL);
        }
        stop_and_free(es, stop_running);
    }
}

/* Guarded (a shutdown waits for it, or it does nothing), and each set under close_lock,
 * checked again there (another thread may have cleaned up or destroyed it meanwhile). */
void es_release_thread(pid_t tid)
{
    PAPI_CALL_GUARD_VOID();
    int n = atomic_load_explicit(&es_top, memory_order_acquire);
    for (int h = 0; h < n && g_papi.init_state != PAPI_NOT_INITED; h++) {
        if (!es_lookup(h))
            continue;
        pthread_mutex_lock(&es_tables.close_lock);
        struct eventset *es = es_lookup(h);
        if (es && es->owner_tid == tid && es->ctx &&
            !(es->state & (PAPI_ATTACHED | PAPI_CPU_ATTACHED))) {
            if (es->state & PAPI_RUNNING) {
                __atomic_store_n(&es->reader, 0, __ATOMIC_RELAXED);
                __atomic_store_n(&es->fast_read, NULL, __ATOMIC_RELAXED);
                es->cmp->stop(es->ctx);
                if (es->overflow)
                    es_overflow_hooks->stop(es);
                es_read_counts(es); /* the values stay readable, frozen */
                es->state = (es->state & ~PAPI_RUNNING) | PAPI_STOPPED;
            }
            es_close_all(es);
        }
        pthread_mutex_unlock(&es_tables.close_lock);
    }
}

/* The library's lifecycle (papi_sdk.h): at fork the child hides its parent's sets; at
 * shutdown every set goes, the inherited ones closed without being stopped. */
PAPI_FORK_CHILD_CODE static void sets_lifecycle(const struct papi_life *ev)
{
    if (ev->event == PAPI_LIFE_FORK_CHILD) {
        papi_child_reset_lock(&es_tables.close_lock); /* another thread may have held it */
        hide_inherited();
    } else
        free_all(!ev->keep_machine);
}

int PAPI_state(int EventSet, int *status)
{
    PAPI_CALL_GUARD();
    struct eventset *es;
    if (!status)
        return papi_error(PAPI_EINVAL, "status pointer is NULL");
    int ret = es_get(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    *status = es->state;
    return PAPI_OK;
}

int PAPI_num_events(int EventSet)
{
    PAPI_CALL_GUARD();
    struct eventset *es;
    int ret = es_get(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    return es->nentries;
}

int PAPI_list_events(int EventSet, int *Events, int *number)
{
    PAPI_CALL_GUARD();
    struct eventset *es;
    int ret = es_get(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    if (!number || *number < 0)
        return papi_error(PAPI_EINVAL, "number is NULL or negative");
    if (*number > 0 && !Events)
        return papi_error(PAPI_EINVAL, "Events is NULL but *number is %d", *number);
    int n = *number < es->nentries ? *number : es->nentries;
    for (int i = 0; i < n; i++)
        Events[i] = es->ent[i].code;
    *number = es->nentries;
    return PAPI_OK;
}

int PAPI_assign_eventset_component(int EventSet, int cidx)
{
    PAPI_CALL_GUARD();
    struct eventset *es;
    int ret = es_get(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    if (!component_get(cidx))
        return PAPI_ENOCMP;
    if (es->nentries > 0 && es->cidx != cidx)
        return papi_error(PAPI_EINVAL, "EventSet %d already holds events of component %d", EventSet,
                          es->cidx);
    es->cidx = cidx;
    return PAPI_OK;
}

int PAPI_get_eventset_component(int EventSet)
{
    PAPI_CALL_GUARD();
    struct eventset *es;
    int ret = es_get(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    if (es->cidx < 0)
        return papi_error(PAPI_ENOCMP, "EventSet %d has no component yet (no event added)",
                          EventSet);
    return es->cidx;
}
