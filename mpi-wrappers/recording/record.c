/* record.c: the slow parts of recording: calls counted outside the generated wrappers,
 * the Fortran forwarders' bookkeeping and the tick-to-ns ratio. Reaches only the thread
 * slots and the state below it. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "record.h"
#include "pmpi_identity.h"

void pmpi_count_call(int id, long long t0)
{
    if (atomic_load(&pmpi_rec.state) == PMPI_OFF)
        return;
    struct pmpi_thread *th = pmpi_tls ? pmpi_tls : pmpi_thread_slot_slow();
    long long dt = pmpi_ticks() - t0;
    atomic_fetch_add(&th->stat[id].calls, 1);
    atomic_fetch_add(&th->stat[id].ns, dt);
}

/* Fortran forwarders (generated): the user's return address becomes the site of the C
 * wrapper the binding reaches; a binding that enters PMPI_* directly reaches none, and
 * the forwarder counts the call (calls and time; those bindings move no buffer). */
void pmpi_fortran_enter(struct pmpi_frame *f, void *return_address)
{
    pmpi_fcall.site = return_address;
    pmpi_fcall.counted = 0;
    pmpi_enter(f);
}

long long pmpi_fortran_leave_bytes(int id, const struct pmpi_frame *f, long long sent,
                                   long long recvd)
{
    void *site = pmpi_fcall.site;
    long long dt = 0;
    pmpi_fcall.site = NULL;
    if (!pmpi_fcall.counted)
        dt = pmpi_leave(f, id, sent, recvd, site);
    else if (f->busy) /* the C wrapper counted the call: the forwarder's period ends */
        pmpi_busy_leave(pmpi_ticks());
    pmpi_fcall.counted = 0;
    return dt;
}

long long pmpi_fortran_leave(int id, const struct pmpi_frame *f)
{
    return pmpi_fortran_leave_bytes(id, f, 0, 0);
}

/* Read while other threads may be between their count and their clock update: a torn
 * pair can only overstate, so the result is kept within [0, wall]. At MPI_Finalize no
 * other thread is in MPI and the union is exact. */
long long pmpi_busy_ticks(long long sum, long long end_tick)
{
    if (!pmpi_rec.concurrent)
        return sum;
    long long inside = atomic_load(&pmpi_rec.busy.inside);
    long long t = atomic_load(&pmpi_rec.busy.ticks) + (inside > 0 ? end_tick : 0);
    long long wall = end_tick - pmpi_id()->tick_init;
    return t < 0 ? 0 : t > wall ? wall : t;
}

double pmpi_ns_per_tick(long long end_ns, long long end_tick)
{
    return end_tick > pmpi_id()->tick_init
               ? (double)(end_ns - pmpi_id()->t_init) / (double)(end_tick - pmpi_id()->tick_init)
               : 1.0;
}

void *pmpi_next_symbol(const char *name)
{
    void *p = dlsym(RTLD_NEXT, name);
    if (!p) {
        fprintf(stderr, "papi_mpi: %s not found after the wrapper library (%s)\n", name,
                dlerror());
        abort();
    }
    return p;
}

/* Call sites past a thread's table: each distinct one remembered with its calls in a
 * set that grows (16 bytes per dropped site, outside the table's bound), so the report
 * counts the dropped sites, not only their calls. Reached only when a table is full;
 * one lock for every slot's set (the shared slot has several writers). */
struct overflow_entry {
    uint64_t key;
    long long calls;
};
static struct site_overflow {
    struct overflow_entry *set;
    size_t n, cap; /* cap: 0 or a power of two */
    int failed;    /* a site that could not be remembered (no memory) */
} overflow[PMPI_MAX_THREADS + 1];
static pthread_mutex_t overflow_lock = PTHREAD_MUTEX_INITIALIZER;

static struct overflow_entry *overflow_find(struct site_overflow *o, uint64_t key)
{
    size_t mask = o->cap - 1;
    for (size_t i = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 20) & mask;; i = (i + 1) & mask)
        if (o->set[i].key == key || o->set[i].key == 0)
            return &o->set[i];
}

static void overflow_grow(struct site_overflow *o)
{
    size_t cap = o->cap ? 2 * o->cap : 256;
    struct overflow_entry *set = calloc(cap, sizeof *set);
    if (!set)
        return; /* the old set stays: it still takes sites while it has room */
    struct site_overflow bigger = {set, o->n, cap, o->failed};
    for (size_t i = 0; i < o->cap; i++)
        if (o->set[i].key)
            *overflow_find(&bigger, o->set[i].key) = o->set[i];
    free(o->set);
    *o = bigger;
}

void pmpi_site_overflow(struct pmpi_thread *th, uint64_t key)
{
    struct site_overflow *o = &overflow[th - pmpi_rec.threads];
    atomic_fetch_add_explicit(&th->sites_dropped, 1, memory_order_relaxed);
    pthread_mutex_lock(&overflow_lock);
    if (2 * o->n >= o->cap)
        overflow_grow(o);
    struct overflow_entry *e = o->cap ? overflow_find(o, key) : NULL;
    if (e && e->key == 0 && o->n + 1 < o->cap) {
        e->key = key;
        o->n++;
    }
    if (e && e->key == key)
        e->calls++;
    else
        o->failed = 1;
    pthread_mutex_unlock(&overflow_lock);
}

int pmpi_site_overflow_each(int slot, void (*fn)(void *arg, uint64_t key, long long calls),
                            void *arg)
{
    struct site_overflow *o = &overflow[slot];
    pthread_mutex_lock(&overflow_lock);
    for (size_t i = 0; i < o->cap; i++)
        if (o->set[i].key)
            fn(arg, o->set[i].key, o->set[i].calls);
    int failed = o->failed;
    pthread_mutex_unlock(&overflow_lock);
    return failed;
}
