/* papi_mpi_internal.h: state shared by the PMPI wrapper library's parts.
 * Hot path (every intercepted call): two clock reads and four single-writer adds in
 * the calling thread's own slot. Everything else happens at MPI_Init and MPI_Finalize. */
#ifndef PAPI_MPI_INTERNAL_H
#define PAPI_MPI_INTERNAL_H

#include <mpi.h>
#include <stdatomic.h>
#include <time.h>

#include "papi_mpi_calls.h"

#define PMPI_MAX_THREADS 64 /* threads with a private slot; later ones share one */
#define PMPI_MAX_EVENTS 8
#define PMPI_MAX_REGIONS 16
#define PMPI_NAME_LEN 64

enum pmpi_kind { PMPI_KIND_HAND, PMPI_KIND_P2P, PMPI_KIND_COLL, PMPI_KIND_SYNC, PMPI_KIND_MISC };
enum pmpi_state { PMPI_OFF, PMPI_ACTIVE, PMPI_PAUSED, PMPI_DONE };

struct pmpi_call_info {
    const char *name;
    int kind;
};
extern const struct pmpi_call_info pmpi_calls[PMPI_NCALLS];

struct pmpi_stat {
    _Atomic long long calls, ns, sent, recvd; /* ns: in pmpi_ticks() units until the row */
};

/* One per thread that made an MPI call; slot 0 is the thread that called MPI_Init. */
struct pmpi_thread {
    struct pmpi_stat stat[PMPI_NCALLS];
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
    double wall_s, mpi_s;
    long long counts[PMPI_MAX_EVENTS];
    long long calls[PMPI_NCALLS], ns[PMPI_NCALLS], sent[PMPI_NCALLS], recvd[PMPI_NCALLS];
    int nthreads;
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
    char outdir[512];
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

static inline void pmpi_leave(const struct pmpi_frame *f, int id, long long sent, long long recvd)
{
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
}

/* Helpers the byte expressions of mpi_calls.list use. */
long long tsz(MPI_Datatype t);
long long csz(MPI_Comm c);
int crank(MPI_Comm c);
int isroot(int root, MPI_Comm c);
long long vsum(const int *counts, MPI_Comm c);

/* Lifecycle hooks (runtime.c), shared by the C wrappers and the f08 forwarders. */
void pmpi_after_init(void);
void pmpi_before_finalize(void);
void pmpi_before_abort(void);
void pmpi_pcontrol(int level, const char *name);
void *pmpi_next_symbol(const char *name);
void pmpi_count_call(int id, long long t0);

/* Counters (counters.c). */
void pmpi_counters_init(void);
void pmpi_counters_thread_start(struct pmpi_thread *th);
void pmpi_counters_thread_exit(struct pmpi_thread *th);
void pmpi_counters_read_rank(long long *sum); /* sums all threads of this rank */
int pmpi_counters_read_self(long long *out);
void pmpi_counters_shutdown(void);

/* Rows, aggregation and files (row.c, aggregate.c, report_files.c, partial_rows.c). */
void pmpi_json_safe(char *s); /* user text into JSON: quotes, backslashes, controls -> '_' */
void pmpi_collect_row(struct pmpi_row *row, int finished, const char *reason);
char *pmpi_row_json(const struct pmpi_row *row, size_t *len);
char *pmpi_row_csv(const struct pmpi_row *row, size_t *len);
char *pmpi_csv_header(size_t *len);
void pmpi_aggregate_and_report(const struct pmpi_row *row);
int pmpi_write_shared(const char *path, const char *head, size_t head_len, const char *body,
                      size_t body_len, const char *sep, const char *tail, long long *bytes);
void pmpi_partial_install(void);
void pmpi_partial_write(const char *reason);
void pmpi_partial_finished(void);

#endif
