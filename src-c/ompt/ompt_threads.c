/* ompt_threads.c: the threads' own slots (ompt_threads.h). A thread claims one at its
 * first callback: a fresh one by an atomic increment while any is left, else one an
 * ended thread gave back (its flag taken by compare-and-swap: acquire, after the ended
 * thread's release). A slot keeps its accumulators for the report across its threads.
 * Slots are allocated zeroed (calloc): pages of the table never touched cost nothing. */
#include <stdlib.h>

#include "ompt_threads.h"

__thread struct ompt_thread *ompt_self;
static __thread int no_slot; /* this thread found none: it does not look again */

static struct ompt_thread *_Atomic slots[OMPT_THREADS_MAX];
static atomic_int slots_made, slot_free[OMPT_THREADS_MAX];
static atomic_ullong threads_seen, threads_ended, threads_without, unmeasured_events;
static atomic_ullong unmeasured_instances, unmeasured_tasks, region_tasks[OMPT_REGIONS_MAX];

/* A fresh slot, or NULL when all are made (or no memory: that slot stays empty). */
static struct ompt_thread *fresh_slot(void)
{
    if (atomic_load_explicit(&slots_made, memory_order_relaxed) >= OMPT_THREADS_MAX)
        return NULL;
    int i = atomic_fetch_add(&slots_made, 1);
    if (i >= OMPT_THREADS_MAX) {
        atomic_store(&slots_made, OMPT_THREADS_MAX); /* no wrap however many come */
        return NULL;
    }
    struct ompt_thread *th = calloc(1, sizeof *th);
    if (th) {
        th->index = i;
        /* Published with release: the report reads the slot after the runtime's joins. */
        atomic_store_explicit(&slots[i], th, memory_order_release);
    }
    return th;
}

/* A slot an ended thread gave back: its thread's own state started afresh, its sums kept. */
static struct ompt_thread *reused_slot(void)
{
    for (int i = 0; i < OMPT_THREADS_MAX; i++) {
        int one = 1;
        if (!atomic_load_explicit(&slot_free[i], memory_order_relaxed) ||
            !atomic_compare_exchange_strong_explicit(&slot_free[i], &one, 0, memory_order_acquire,
                                                     memory_order_relaxed))
            continue;
        struct ompt_thread *th = atomic_load_explicit(&slots[i], memory_order_acquire);
        th->type = 0, th->depth = 0, th->last_team = 0;
        th->counters = 0, th->eventset = 0; /* the last one's closed at its end */
        th->serial_cs = (struct ompt_construct_state){0};
        th->acquiring = NULL, th->held_n = 0, th->xtask = NULL;
        return th;
    }
    return NULL;
}

struct ompt_thread *ompt_thread_claim(void)
{
    if (no_slot)
        return NULL;
    struct ompt_thread *th = fresh_slot();
    if (!th)
        th = reused_slot();
    if (!th) {
        no_slot = 1;
        atomic_fetch_add_explicit(&threads_without, 1, memory_order_relaxed);
        return NULL;
    }
    for (int d = 0; d <= OMPT_DEPTH_MAX; d++)
        th->span_region[d] = -1; /* no region slice forked at that depth yet */
    atomic_fetch_add_explicit(&threads_seen, 1, memory_order_relaxed);
    ompt_self = th;
    return th;
}

void ompt_thread_release(void)
{
    struct ompt_thread *th = ompt_self;
    no_slot = 0;
    if (!th)
        return;
    atomic_fetch_add_explicit(&threads_ended, 1, memory_order_relaxed);
    ompt_spans_retire(th->spans); /* its slices stay for the trace, under its tid */
    th->spans = NULL;
    ompt_self = NULL;
    ompt_thread_publish(th);
    atomic_store_explicit(&slot_free[th->index], 1, memory_order_release);
}

struct ompt_acc *ompt_thread_acc(struct ompt_thread *th, int region, unsigned tnum)
{
    unsigned h = ((unsigned)region * 2654435761u) ^ (tnum * 40503u);
    for (unsigned probe = 0; probe < OMPT_ACC_MAX; probe++) {
        struct ompt_acc *a = &th->acc[(h + probe) & (OMPT_ACC_MAX - 1)];
        if (a->region == region + 1 && a->tnum == tnum)
            return a;
        if (a->region == 0) {
            a->region = region + 1;
            a->tnum = tnum;
            return a;
        }
    }
    return NULL;
}

struct ompt_cacc *ompt_thread_cacc(struct ompt_thread *th, int construct, unsigned tnum)
{
    unsigned h = ((unsigned)construct * 2654435761u) ^ (tnum * 40503u);
    for (unsigned probe = 0; construct >= 0 && probe < OMPT_CACC_MAX; probe++) {
        struct ompt_cacc *c = &th->cacc[(h + probe) & (OMPT_CACC_MAX - 1)];
        if (c->construct == construct + 1 && c->tnum == tnum)
            return c;
        if (c->construct == 0) {
            c->construct = construct + 1;
            c->tnum = tnum;
            return c;
        }
    }
    th->construct_drops++;
    return NULL;
}

int ompt_thread_count(void)
{
    int n = atomic_load(&slots_made);
    return n > OMPT_THREADS_MAX ? OMPT_THREADS_MAX : n;
}

struct ompt_thread *ompt_thread_slot(int i)
{
    struct ompt_thread *th = atomic_load_explicit(&slots[i], memory_order_acquire);
    if (th)
        (void)atomic_load_explicit(&th->published, memory_order_acquire);
    return th;
}

void ompt_threads_unmeasured(struct ompt_unmeasured *u)
{
    u->threads_seen = atomic_load(&threads_seen);
    u->threads_ended = atomic_load(&threads_ended);
    u->threads = atomic_load(&threads_without);
    u->events = atomic_load(&unmeasured_events);
    u->tasks = atomic_load(&unmeasured_tasks);
    u->instances = atomic_load(&unmeasured_instances);
}

uint64_t ompt_threads_unmeasured_tasks(int region)
{
    return region >= 0 && region < OMPT_REGIONS_MAX ? atomic_load(&region_tasks[region]) : 0;
}

void ompt_threads_count_unmeasured(void)
{
    atomic_fetch_add_explicit(&unmeasured_events, 1, memory_order_relaxed);
}

void ompt_threads_count_task(int region)
{
    atomic_fetch_add_explicit(&unmeasured_tasks, 1, memory_order_relaxed);
    if (region >= 0 && region < OMPT_REGIONS_MAX)
        atomic_fetch_add_explicit(&region_tasks[region], 1, memory_order_relaxed);
}

void ompt_threads_count_instance(void)
{
    atomic_fetch_add_explicit(&unmeasured_instances, 1, memory_order_relaxed);
}
