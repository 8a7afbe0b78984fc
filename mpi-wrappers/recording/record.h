/* record.h: the hot path of every intercepted call: two clock reads and single-writer
 * adds in the calling thread's own slot (pmpi_rec, state.h); with call sites on, one
 * probe of that thread's fixed-size call-site table keyed by (call, caller's return
 * address). The inline functions reach only the state and the thread slots below them
 * (thread_slots.h: a thread's first call claims its slot there, out of line). */
#ifndef PAPI_MPI_RECORD_H
#define PAPI_MPI_RECORD_H

#include <mpi.h>

#include "clock.h"
#include "state.h"
#include "thread_slots.h"

static inline int pmpi_active(void)
{
    return atomic_load_explicit(&pmpi_rec.state, memory_order_relaxed) == PMPI_ACTIVE;
}

struct pmpi_frame {
    long long t0;
    int busy; /* counted in pmpi_rec.busy: leaves it whatever the state then */
};

/* A call starts (MPI_THREAD_MULTIPLE only): the first one in progress opens a busy
 * period, from a clock read after the count (so it never starts before the end of the
 * period another thread just closed). */
static inline int pmpi_busy_enter(void)
{
    if (atomic_fetch_add_explicit(&pmpi_rec.busy.inside, 1, memory_order_acq_rel) == 0)
        atomic_fetch_sub_explicit(&pmpi_rec.busy.ticks, pmpi_ticks(), memory_order_relaxed);
    return 1;
}

/* A call ends at t1: the last one in progress closes the busy period. */
static inline void pmpi_busy_leave(long long t1)
{
    if (atomic_fetch_sub_explicit(&pmpi_rec.busy.inside, 1, memory_order_acq_rel) == 1)
        atomic_fetch_add_explicit(&pmpi_rec.busy.ticks, t1, memory_order_relaxed);
}

static inline void pmpi_enter(struct pmpi_frame *f)
{
    f->t0 = pmpi_active() ? pmpi_ticks() : 0;
    f->busy = f->t0 && pmpi_rec.concurrent ? pmpi_busy_enter() : 0;
}

static inline void pmpi_add(_Atomic long long *x, long long v, int shared)
{
    if (shared)
        atomic_fetch_add_explicit(x, v, memory_order_relaxed);
    else /* single writer: a plain load and store, readers see whole values */
        atomic_store_explicit(x, atomic_load_explicit(x, memory_order_relaxed) + v,
                              memory_order_relaxed);
}

static inline void pmpi_min_max(struct pmpi_site *e, long long dt, int first, int shared)
{
    if (!shared) {
        if (first || dt < atomic_load_explicit(&e->min, memory_order_relaxed))
            atomic_store_explicit(&e->min, dt, memory_order_relaxed);
        if (dt > atomic_load_explicit(&e->max, memory_order_relaxed))
            atomic_store_explicit(&e->max, dt, memory_order_relaxed);
        return;
    }
    long long m = atomic_load_explicit(&e->min, memory_order_relaxed);
    while ((first || m == 0 || dt < m) &&
           !atomic_compare_exchange_weak_explicit(&e->min, &m, dt, memory_order_relaxed,
                                                  memory_order_relaxed))
        first = 0;
    m = atomic_load_explicit(&e->max, memory_order_relaxed);
    while (dt > m && !atomic_compare_exchange_weak_explicit(&e->max, &m, dt, memory_order_relaxed,
                                                            memory_order_relaxed))
        ;
}

/* A call whose site found no entry in its thread's table: counted, and the site
 * remembered outside the table (record.c), so the report says how many were dropped. */
void pmpi_site_overflow(struct pmpi_thread *th, uint64_t key);

/* The call site's entry in this thread's table (linear probing, bounded). */
static inline void pmpi_site_add(struct pmpi_thread *th, int id, void *site, long long dt,
                                 long long sent, long long recvd)
{
    uint64_t key = (uint64_t)(uintptr_t)site | ((uint64_t)(id + 1) << 48);
    uint64_t h = (key * 0x9E3779B97F4A7C15ULL) >> 54; /* 10 bits: PMPI_SITE_SLOTS */
    for (int p = 0; p < PMPI_SITE_PROBES; p++) {
        struct pmpi_site *e = &th->sites[(h + (uint64_t)p) & (PMPI_SITE_SLOTS - 1)];
        uint64_t k = atomic_load_explicit(&e->key, memory_order_acquire);
        if (k == 0) {
            uint64_t zero = 0;
            if (!th->shared)
                atomic_store_explicit(&e->key, key, memory_order_release);
            else if (!atomic_compare_exchange_strong(&e->key, &zero, key) && zero != key)
                continue;
            k = key;
        }
        if (k != key)
            continue;
        int first = atomic_load_explicit(&e->calls, memory_order_relaxed) == 0;
        pmpi_add(&e->calls, 1, th->shared);
        pmpi_add(&e->ticks, dt, th->shared);
        if (sent)
            pmpi_add(&e->sent, sent, th->shared);
        if (recvd)
            pmpi_add(&e->recvd, recvd, th->shared);
        pmpi_min_max(e, dt, first, th->shared);
        return;
    }
    pmpi_site_overflow(th, key);
}

/* The site of this call: a Fortran forwarder's caller when one recorded it. */
static inline void *pmpi_site(void *return_address)
{
    void *s = pmpi_fcall.site;
    if (!s)
        return return_address;
    pmpi_fcall.site = NULL;
    return s;
}

/* The message-size bucket: 0 for 0 bytes, else 1 + floor(log2(bytes)), capped. */
static inline int pmpi_size_bucket(long long bytes)
{
    if (bytes <= 0)
        return 0;
    int b = 64 - __builtin_clzll((unsigned long long)bytes);
    return b < PMPI_SIZE_BUCKETS ? b : PMPI_SIZE_BUCKETS - 1;
}

/* Calls that move messages (their sizes go to the histogram). */
static inline int pmpi_moves_data(int id)
{
    int k = pmpi_calls[id].kind;
    return k == PMPI_KIND_P2P || k == PMPI_KIND_COLL || k == PMPI_KIND_RMA || k == PMPI_KIND_IO;
}

/* Returns the call's time in ticks (at least 1), 0 when it was not recorded. */
static inline long long pmpi_leave(const struct pmpi_frame *f, int id, long long sent,
                                   long long recvd, void *site)
{
    pmpi_fcall.counted = 1;
    if (!f->t0)
        return 0;
    long long t1 = pmpi_ticks();
    if (f->busy)
        pmpi_busy_leave(t1);
    if (!pmpi_active())
        return 0;
    long long dt = t1 - f->t0;
    struct pmpi_thread *th = pmpi_tls ? pmpi_tls : pmpi_thread_slot_slow();
    struct pmpi_stat *s = &th->stat[id];
    pmpi_add(&s->calls, 1, th->shared);
    pmpi_add(&s->ns, dt, th->shared);
    pmpi_add(&th->mpi_ticks, dt, th->shared);
    if (sent)
        pmpi_add(&s->sent, sent, th->shared);
    if (recvd)
        pmpi_add(&s->recvd, recvd, th->shared);
    if (th->sites)
        pmpi_site_add(th, id, site, dt, sent, recvd);
    if (th->hist && pmpi_moves_data(id)) {
        struct pmpi_hist *h = &th->hist[id * PMPI_SIZE_BUCKETS +
                                        pmpi_size_bucket(sent > recvd ? sent : recvd)];
        pmpi_add(&h->calls, 1, th->shared);
        pmpi_add(&h->ticks, dt, th->shared);
    }
    return dt ? dt : 1;
}

/* PAPI_SAMPLE: the thread enters and leaves an MPI call (the outermost one is kept for
 * its sampling handler, mpi_sample.c); a load and a branch when nothing samples. */
static inline void pmpi_sample_enter(int id, void *site)
{
    if (pmpi_sampling && pmpi_scall.depth++ == 0) {
        pmpi_scall.site = site;
        atomic_signal_fence(memory_order_seq_cst); /* the site before the id, for the handler */
        pmpi_scall.id = id + 1;
    }
}

static inline void pmpi_sample_leave(void)
{
    if (pmpi_sampling && pmpi_scall.depth > 0 && --pmpi_scall.depth == 0)
        pmpi_scall.id = 0;
}

/* Calls counted outside the generated wrappers (Init, Finalize, Abort, Pcontrol). */
void pmpi_count_call(int id, long long t0);

/* Fortran forwarders (generated): see record.c. */
void pmpi_fortran_enter(struct pmpi_frame *f, void *return_address);
/* Both return the call's time in ticks when the forwarder recorded it (no C wrapper
 * was reached), else 0. */
long long pmpi_fortran_leave(int id, const struct pmpi_frame *f);
/* The same with the bytes the forwarder computed (used when no C wrapper counted). */
long long pmpi_fortran_leave_bytes(int id, const struct pmpi_frame *f, long long sent,
                                   long long recvd);
/* A Fortran call succeeded: its ierror says so, or was left out (optional in mpi_f08). */
static inline int pmpi_fortran_ok(const void *ierror)
{
    return !ierror || *(const MPI_Fint *)ierror == MPI_SUCCESS;
}
/* The rank's time in MPI up to end_tick, in ticks: the union of the busy periods under
 * MPI_THREAD_MULTIPLE (at most the wall time), else `sum` (the threads' own times). */
long long pmpi_busy_ticks(long long sum, long long end_tick);
/* The next definition of a symbol after this library (the MPI's own); aborts with a
 * message naming it when there is none. */
void *pmpi_next_symbol(const char *name);
/* ns per pmpi_ticks() unit over the run, from its start to (end_ns, end_tick). */
double pmpi_ns_per_tick(long long end_ns, long long end_tick);
/* The distinct sites of one slot that found no entry in its table, with their calls;
 * returns 1 when some could not be remembered either (no memory for the set). */
int pmpi_site_overflow_each(int slot, void (*fn)(void *arg, uint64_t key, long long calls),
                            void *arg);

#endif
