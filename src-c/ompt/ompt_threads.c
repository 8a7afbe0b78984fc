/* ompt_threads.c: the threads' own slots (ompt_threads.h). A thread claims one at its
 * first callback by an atomic increment; the slot stays for the report after the thread
 * ends. Slots are allocated zeroed (calloc): pages of the table never touched cost
 * nothing. */
#include <stdlib.h>

#include "ompt_threads.h"

__thread struct ompt_thread *ompt_self;
static __thread int no_slot; /* this thread found none: it does not try again */

static struct ompt_thread *_Atomic slots[OMPT_THREADS_MAX];
static atomic_int slots_claimed;
static atomic_ullong unmeasured_events;

struct ompt_thread *ompt_thread_claim(void)
{
    if (no_slot)
        return NULL;
    int i = atomic_fetch_add(&slots_claimed, 1);
    struct ompt_thread *th = i < OMPT_THREADS_MAX ? calloc(1, sizeof *th) : NULL;
    if (!th) {
        no_slot = 1;
        if (i >= OMPT_THREADS_MAX)
            atomic_store(&slots_claimed, OMPT_THREADS_MAX); /* no wrap however many come */
        return NULL;
    }
    for (int d = 0; d <= OMPT_DEPTH_MAX; d++)
        th->span_region[d] = -1; /* no region slice forked at that depth yet */
    /* Published with release: the report reads the slot after the runtime's joins. */
    atomic_store_explicit(&slots[i], th, memory_order_release);
    ompt_self = th;
    return th;
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

int ompt_thread_count(void)
{
    int n = atomic_load(&slots_claimed);
    return n > OMPT_THREADS_MAX ? OMPT_THREADS_MAX : n;
}

struct ompt_thread *ompt_thread_slot(int i)
{
    struct ompt_thread *th = atomic_load_explicit(&slots[i], memory_order_acquire);
    if (th)
        (void)atomic_load_explicit(&th->published, memory_order_acquire);
    return th;
}

uint64_t ompt_threads_unmeasured(void)
{
    return atomic_load(&unmeasured_events);
}

void ompt_threads_count_unmeasured(void)
{
    atomic_fetch_add_explicit(&unmeasured_events, 1, memory_order_relaxed);
}
