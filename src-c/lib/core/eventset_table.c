/* eventset_table.c: event set handles and their life cycle (create, destroy, cleanup,
 * state, listing, component assignment). Handles are small integers, reused after
 * destroy, looked up without a lock on the counting hot path. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "component_registry.h"
#include "eventset.h"
#include "threads.h"

_Atomic(struct eventset *) es_sets[MAX_EVENTSETS];

int es_get(int handle, struct eventset **es)
{
    if (g_papi.init_state == PAPI_NOT_INITED)
        return papi_error(PAPI_ENOINIT, "PAPI_library_init was not called");
    *es = es_lookup(handle);
    if (!*es)
        return papi_error(PAPI_ENOEVST, "EventSet %d does not exist", handle);
    return PAPI_OK;
}

int PAPI_create_eventset(int *EventSet)
{
    PAPI_CHECK_INIT();
    if (!EventSet)
        return papi_error(PAPI_EINVAL, "EventSet pointer is NULL");
    if (*EventSet != PAPI_NULL)
        return papi_error(PAPI_EINVAL, "*EventSet must be PAPI_NULL before PAPI_create_eventset (it is %d)",
                          *EventSet);
    struct eventset *es = calloc(1, sizeof *es);
    if (!es)
        return papi_error(PAPI_ENOMEM, "no memory for a new event set");
    es->state = PAPI_STOPPED;
    es->cidx = -1;
    es->domain = g_papi.default_domain;
    es->granularity = g_papi.default_granularity;
    es->owner_tid = papi_gettid();
    es->cpu = -1;
    pthread_mutex_lock(&g_papi_lock);
    int h = 0;
    while (h < MAX_EVENTSETS && atomic_load(&es_sets[h]))
        h++;
    if (h == MAX_EVENTSETS) {
        pthread_mutex_unlock(&g_papi_lock);
        free(es);
        return papi_error(PAPI_ENOMEM, "all %d event set handles are in use", MAX_EVENTSETS);
    }
    es->handle = h;
    atomic_store_explicit(&es_sets[h], es, memory_order_release);
    pthread_mutex_unlock(&g_papi_lock);
    *EventSet = h;
    return PAPI_OK;
}

int PAPI_cleanup_eventset(int EventSet)
{
    struct eventset *es;
    int ret = es_get(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    if (es->state & PAPI_RUNNING)
        return papi_error(PAPI_EISRUN, "EventSet %d is running: stop it first", EventSet);
    es_close_all(es);
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
    pthread_mutex_lock(&g_papi_lock);
    atomic_store(&es_sets[es->handle], NULL);
    pthread_mutex_unlock(&g_papi_lock);
    es_close_all(es);
    free(es);
    *EventSet = PAPI_NULL;
    return PAPI_OK;
}

/* A forked child's copies of its parent's sets: out of the table (so no call of the child
 * reaches them, before or after its PAPI_library_init), closed by es_free_all. */
static struct eventset *inherited;

void es_hide_inherited(void)
{
    for (int h = 0; h < MAX_EVENTSETS; h++) {
        struct eventset *es = atomic_exchange(&es_sets[h], NULL);
        if (es) {
            es->inherited_next = inherited;
            inherited = es;
        }
    }
}

static void free_set(struct eventset *es)
{
    es_close_all(es);
    free(es->overflow);
    free(es->profile);
    free(es);
}

/* Shutdown: close every descriptor and free every set. */
void es_free_all(int stop_running)
{
    while (inherited) { /* never stopped: that would stop the parent's counters */
        struct eventset *es = inherited;
        inherited = es->inherited_next;
        free_set(es);
    }
    for (int h = 0; h < MAX_EVENTSETS; h++) {
        struct eventset *es = atomic_exchange(&es_sets[h], NULL);
        if (!es)
            continue;
        if (stop_running && (es->state & PAPI_RUNNING) && es->ctx) {
            es->cmp->stop(es->ctx);
            if (es->overflow)
                es_overflow_hooks->stop(es); /* deletes a software-overflow timer that would keep firing */
        }
        free_set(es);
    }
}

int PAPI_state(int EventSet, int *status)
{
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
    struct eventset *es;
    int ret = es_get(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    return es->nentries;
}

int PAPI_list_events(int EventSet, int *Events, int *number)
{
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
    struct eventset *es;
    int ret = es_get(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    if (!component_get(cidx))
        return PAPI_ENOCMP;
    if (es->nentries > 0 && es->cidx != cidx)
        return papi_error(PAPI_EINVAL, "EventSet %d already holds events of component %d",
                          EventSet, es->cidx);
    es->cidx = cidx;
    return PAPI_OK;
}

int PAPI_get_eventset_component(int EventSet)
{
    struct eventset *es;
    int ret = es_get(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    if (es->cidx < 0)
        return papi_error(PAPI_ENOCMP, "EventSet %d has no component yet (no event added)", EventSet);
    return es->cidx;
}

/* Moved here from events/preset_tables.c (preset_in_running_set): the event-set table
 * answers questions about its sets. */
int es_code_in_running_set(int code)
{
    for (int h = 0; h < MAX_EVENTSETS; h++) {
        struct eventset *es = es_lookup(h);
        if (!es || !(es->state & PAPI_RUNNING))
            continue;
        if (es_entry_index(es, code) >= 0)
            return es->handle;
    }
    return -1;
}
