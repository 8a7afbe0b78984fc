/* papi_mpi_internal.h: state shared by the PMPI wrapper library's parts.
 * Hot path (every intercepted call): two clock reads and single-writer adds in the
 * calling thread's own slot; with call sites on, one probe of that thread's fixed-size
 * call-site table keyed by (call, caller's return address). Everything else happens at
 * MPI_Init and MPI_Finalize.
 *
 * Lock discipline: pmpi_g.lock guards the region table, the event sets and the retired
 * counts. Pcontrol, the checkpoint thread, thread exit, MPI_Finalize and the exit paths
 * that run in normal context (MPI_Abort, atexit) take it; signal handlers never take a
 * lock nor allocate (they skip the counters and write a pre-sized buffer). */
#ifndef PAPI_MPI_INTERNAL_H
#define PAPI_MPI_INTERNAL_H

#include <limits.h>
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdatomic.h>
#include <time.h>

#include "papi_mpi_calls.h"

#define PMPI_MAX_THREADS 64 /* threads with a private slot; later ones share one */
#define PMPI_MAX_EVENTS 8
#define PMPI_MAX_REGIONS 16
#define PMPI_NAME_LEN 64
#define PMPI_SITE_SLOTS 1024 /* call sites per thread (power of two) */
#define PMPI_SITE_PROBES 16

enum pmpi_kind {
    PMPI_KIND_HAND, PMPI_KIND_P2P, PMPI_KIND_COLL, PMPI_KIND_SYNC, PMPI_KIND_MISC,
    PMPI_KIND_COMM, PMPI_KIND_RMA, PMPI_KIND_IO
};
enum pmpi_state { PMPI_OFF, PMPI_ACTIVE, PMPI_PAUSED, PMPI_DONE };

struct pmpi_call_info {
    const char *name;
    int kind;
};
extern const struct pmpi_call_info pmpi_calls[PMPI_NCALLS];

struct pmpi_stat {
    _Atomic long long calls, ns, sent, recvd; /* ns: in pmpi_ticks() units until the row */
};

/* One (call, caller) pair: key = return address | (call id + 1) << 48; 0 = free. */
struct pmpi_site {
    _Atomic uint64_t key;
    _Atomic long long calls, ticks, sent, recvd, min, max;
};

/* One per thread that made an MPI call; slot 0 is the thread that called MPI_Init. */
struct pmpi_thread {
    struct pmpi_stat stat[PMPI_NCALLS];
    struct pmpi_site *sites;          /* PMPI_SITE_SLOTS entries, or NULL (call sites off) */
    _Atomic long long sites_dropped;  /* calls whose site found no free entry */
    _Atomic long long mpi_ticks; /* time in MPI, pmpi_ticks() units */
    int shared;                        /* overflow slot: several writers, atomic adds */
    int evset;                         /* PAPI event set of this thread, or -1 */
    int exited;                        /* thread ended: final counts are in 'counts' */
    long long counts[PMPI_MAX_EVENTS]; /* counts at thread exit */
};

struct pmpi_region {
    char name[PMPI_NAME_LEN];
    long long entries, wall_ns, open_t0;
    long long counts[PMPI_MAX_EVENTS], open_counts[PMPI_MAX_EVENTS];
    int open;
};

/* Everything one rank knows at the end: what its row in the report holds. */
struct pmpi_row {
    int rank, nranks, finished;
    const char *exit_reason;
    int counters_read;        /* 0: counts not read (the row was made in a signal handler) */
    const char *counter_note; /* what limits the counts, or NULL */
    double wall_s, mpi_s;
    long long counts[PMPI_MAX_EVENTS];
    long long calls[PMPI_NCALLS], ns[PMPI_NCALLS], sent[PMPI_NCALLS], recvd[PMPI_NCALLS];
    int nthreads;
    int nregions;
    struct pmpi_region regions[PMPI_MAX_REGIONS]; /* a copy taken under the lock */
};

struct pmpi_global {
    _Atomic int state;
    int rank, nranks;
    long long t_init, t_final;      /* CLOCK_MONOTONIC ns */
    long long tick_init, tick_final; /* pmpi_ticks() at the same moments */
    int nevents;
    char event_names[PMPI_MAX_EVENTS][PMPI_NAME_LEN];
    char counter_note[256];
    const char *exit_reason;
    struct pmpi_region regions[PMPI_MAX_REGIONS];
    int nregions;
    int callsites;          /* PAPI_MPI_CALLSITES (default on) */
    int outdir_fd;          /* the output directory, opened at MPI_Init, or -1 */
    char outdir[PATH_MAX];  /* its name as given (PAPI_MPI_OUTPUT_DIR) */
    char run_id[48];        /* the same on every rank of a run: names it in every file */
    pthread_mutex_t lock;   /* see the lock discipline above */
};
extern struct pmpi_global pmpi_g;
extern struct pmpi_thread pmpi_threads[PMPI_MAX_THREADS + 1];
extern _Atomic int pmpi_nthreads;
extern __thread struct pmpi_thread *pmpi_tls __attribute__((tls_model("initial-exec")));

static inline long long pmpi_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Interval timer of the hot path: the TSC on x86 (about half the cost of
 * clock_gettime here), converted to ns with the ratio measured over the whole run. */
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
static inline long long pmpi_ticks(void)
{
    return (long long)__rdtsc();
}
#else
static inline long long pmpi_ticks(void)
{
    return pmpi_now_ns();
}
#endif

static inline int pmpi_active(void)
{
    return atomic_load_explicit(&pmpi_g.state, memory_order_relaxed) == PMPI_ACTIVE;
}

struct pmpi_frame {
    long long t0;
};

static inline void pmpi_enter(struct pmpi_frame *f)
{
    f->t0 = pmpi_active() ? pmpi_ticks() : 0;
}

struct pmpi_thread *pmpi_thread_slot_slow(void);

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
    atomic_fetch_add_explicit(&th->sites_dropped, 1, memory_order_relaxed);
}

/* Fortran callers: the forwarder (mpi_send_ ...) records the user's return address
 * here before entering libmpichfort; the C wrapper it reaches takes that as its site
 * and says it counted the call. */
struct pmpi_fortran_call {
    void *site;
    int counted;
};
extern __thread struct pmpi_fortran_call pmpi_fcall __attribute__((tls_model("initial-exec")));

static inline void *pmpi_site(void *return_address)
{
    void *s = pmpi_fcall.site;
    if (!s)
        return return_address;
    pmpi_fcall.site = NULL;
    return s;
}

static inline void pmpi_leave(const struct pmpi_frame *f, int id, long long sent, long long recvd,
                              void *site)
{
    pmpi_fcall.counted = 1;
    if (!f->t0 || !pmpi_active())
        return;
    long long dt = pmpi_ticks() - f->t0;
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
}

long long pmpi_fortran_enter(void *return_address);
void pmpi_fortran_leave(int id, long long t0);

/* Helpers the byte expressions of mpi_calls.list use. */
long long tsz(MPI_Datatype t);
long long csz(MPI_Comm c);
int crank(MPI_Comm c);
int isroot(int root, MPI_Comm c);
long long vsum(const int *counts, MPI_Comm c);
long long wsum(const int *counts, const MPI_Datatype *types, MPI_Comm c);
int nbr_in(MPI_Comm c);
int nbr_out(MPI_Comm c);
long long nsum(const int *counts, int n);
long long nwsum(const int *counts, const MPI_Datatype *types, int n);

/* Lifecycle hooks (runtime.c), shared by the C wrappers and the f08 forwarders. */
void pmpi_after_init(void);
int pmpi_before_finalize(void); /* nonzero: the report could not be written */
void pmpi_before_abort(void);
void pmpi_pcontrol(int level, const char *name);
void *pmpi_next_symbol(const char *name);
void pmpi_count_call(int id, long long t0);

/* Counters (counters.c). */
void pmpi_counters_init(void);
void pmpi_counters_thread_start(struct pmpi_thread *th);
void pmpi_counters_thread_exit(struct pmpi_thread *th);
/* Sums all threads of this rank (the caller holds pmpi_g.lock); returns a note when
 * the counts are incomplete. */
const char *pmpi_counters_read_rank(long long *sum);
int pmpi_counters_read_self(long long *out);
void pmpi_counters_shutdown(void);

/* Rows, aggregation and files (row.c, aggregate.c, report_files.c, partial_rows.c). */
struct tbuf;
double pmpi_ns_per_tick(long long end_ns, long long end_tick);
/* How a row is made: at MPI_Finalize and by the checkpoint thread (lock taken), on an
 * exit path (MPI_Abort, exit(): the lock is waited for at most 1 s, as exit() may run
 * in a program's signal handler that interrupted its holder), in a signal handler (no
 * lock, no counters). */
enum pmpi_row_mode { PMPI_ROW_NORMAL, PMPI_ROW_EXIT, PMPI_ROW_SIGNAL };
void pmpi_collect_row(struct pmpi_row *row, int finished, const char *reason, int mode);
void pmpi_row_json(const struct pmpi_row *row, struct tbuf *t);
void pmpi_row_csv(const struct pmpi_row *row, struct tbuf *t);
void pmpi_csv_header(struct tbuf *t);
int pmpi_aggregate_and_report(const struct pmpi_row *row); /* nonzero: not written */
/* All ranks write one file together; published only when every rank's part was
 * written whole (returns nonzero on every rank otherwise). */
int pmpi_write_shared(const char *name, const char *head, size_t head_len, const char *body,
                      size_t body_len, const char *sep, const char *tail, long long *bytes);
void pmpi_partial_install(void);
void pmpi_partial_write(const char *reason);
void pmpi_partial_finished(void);
/* Writes text to a new file published as name in the output directory; 0 or -1.
 * Async-signal-safe. */
int pmpi_publish_file(const char *name, const char *text, size_t len);

/* Call sites (callsites.c): merged across ranks at MPI_Finalize, top ones reported. */
struct pmpi_site_report;
struct pmpi_site_report *pmpi_callsites_merge(double ns_per_tick);
void pmpi_callsites_json(const struct pmpi_site_report *r, struct tbuf *t);
void pmpi_callsites_print(const struct pmpi_site_report *r, int top);
void pmpi_callsites_free(struct pmpi_site_report *r);

#endif
