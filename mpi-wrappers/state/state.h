/* state.h: the wrapper library's shared state, split by who writes it. A leaf: it
 * declares data and includes nothing of the library but the generated call ids.
 *
 *  - pmpi_rec: what every intercepted call records (hot path): the run's recording
 *    state and one slot per thread, written by that thread (or with atomic adds in
 *    the shared overflow slot). Read at MPI_Finalize and by the exit paths.
 *  - the run, in three parts each with its own file: who the rank is and where it
 *    writes, fixed at MPI_Init (pmpi_identity.h); its events and metrics (run_events.h,
 *    the counters'); its MPI_Pcontrol regions (region_state.h, under the lock).
 *  - pmpi_fault: what the fault path (exit rows, checkpoints, signal handlers) writes:
 *    its file names, its own end time and whether the exit row was written. The fault
 *    path never writes the other two.
 *
 * Lock: pmpi_state_lock guards the regions, the counters' event sets and retired counts
 * (counters.c). Pcontrol, the checkpoint thread, thread exit, MPI_Finalize and the exit
 * paths that run in normal context (MPI_Abort, atexit) take it; signal handlers never
 * take a lock nor allocate. */
#ifndef PAPI_MPI_STATE_H
#define PAPI_MPI_STATE_H

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "papi_mpi_calls.h"

#define PMPI_MAX_THREADS 64 /* threads with a private slot; later ones share one */
#define PMPI_MAX_EVENTS 8
#define PMPI_MAX_METRICS 4 /* named metrics per run (papi_metrics(3)) */
#define PMPI_MAX_REGIONS 16
#define PMPI_NAME_LEN 64
#define PMPI_SITE_SLOTS 1024 /* call sites per thread (power of two) */
#define PMPI_SITE_PROBES 16
#define PMPI_SIZE_BUCKETS 40 /* message sizes: 0, then 2^(k-1)..2^k-1; the last open */
#define PMPI_PEER_BITS 10
#define PMPI_PEER_SLOTS (1 << PMPI_PEER_BITS) /* point-to-point partners per thread */
#define PMPI_PEER_PROBES 16

enum pmpi_state { PMPI_OFF, PMPI_ACTIVE, PMPI_PAUSED, PMPI_DONE };

/* ---- hot path: what each intercepted call records ---- */
struct pmpi_stat {
    _Atomic long long calls, ns, sent, recvd; /* ns: in pmpi_ticks() units until the row */
};

/* One (call, caller) pair: key = return address | (call id + 1) << 48; 0 = free. */
struct pmpi_site {
    _Atomic uint64_t key;
    _Atomic long long calls, ticks, sent, recvd, min, max;
};

/* One message-size bucket of one call (traffic.c reports them). */
struct pmpi_hist {
    _Atomic long long calls, ticks;
};

/* One point-to-point partner (world rank + 1 as key; 0 = free) of one thread. */
struct pmpi_peer {
    _Atomic int key;
    _Atomic long long sends, sent, send_ticks, recvs, recvd, recv_ticks;
};

/* One per thread that made an MPI call; slot 0 is the thread that called MPI_Init. */
struct pmpi_thread {
    struct pmpi_stat stat[PMPI_NCALLS];
    struct pmpi_site *sites;          /* PMPI_SITE_SLOTS entries, or NULL (call sites off) */
    _Atomic long long sites_dropped;  /* calls whose site found no free entry */
    struct pmpi_hist *hist;           /* PMPI_NCALLS x PMPI_SIZE_BUCKETS, or NULL */
    struct pmpi_peer *peers;          /* PMPI_PEER_SLOTS entries, or NULL */
    _Atomic long long peers_dropped;  /* partner records that found no free entry */
    _Atomic long long mpi_ticks;      /* time in MPI, pmpi_ticks() units */
    int shared;                       /* overflow slot: several writers, atomic adds */
    int tid;                          /* the OS thread id of a private slot's thread: a
                                       * trace labels the thread's track with it; 0 unknown */
};

/* Under MPI_THREAD_MULTIPLE, threads of a rank are in MPI at once: the rank's time in
 * MPI is the wall-clock union of their calls (a thread's own sums, added up, exceed the
 * wall time). `inside` counts the calls in progress; each time it leaves 0 the start is
 * subtracted from `ticks`, each time it returns to 0 the end is added, so `ticks` holds
 * the closed busy periods (plus, while inside > 0, minus the open one's start). On a
 * cache line of its own: every call of every thread writes it. */
struct pmpi_busy {
    _Alignas(64) _Atomic long long inside;
    _Atomic long long ticks;
    char pad[64 - 2 * sizeof(long long)];
};

struct pmpi_record_state {
    _Atomic int state;  /* enum pmpi_state */
    int callsites;      /* PAPI_MPI_CALLSITES: new slots get a call-site table */
    int concurrent;     /* MPI_THREAD_MULTIPLE: the busy union is kept (pmpi_busy) */
    _Atomic int nthreads; /* slots claimed (may exceed PMPI_MAX_THREADS: shared slot) */
    struct pmpi_busy busy;
    struct pmpi_thread threads[PMPI_MAX_THREADS + 1];
};
extern struct pmpi_record_state pmpi_rec;

/* A slot's tables are made by its own thread just after the slot is counted in nthreads
 * (thread_slots.c), so a thread that reads another's slot (checkpoint, exit paths,
 * MPI_Finalize under MPI_THREAD_MULTIPLE) takes the pointers with acquire; the owner's
 * hot path reads them plainly. */
static inline struct pmpi_site *pmpi_slot_sites(const struct pmpi_thread *th)
{
    return __atomic_load_n(&th->sites, __ATOMIC_ACQUIRE);
}
static inline struct pmpi_hist *pmpi_slot_hist(const struct pmpi_thread *th)
{
    return __atomic_load_n(&th->hist, __ATOMIC_ACQUIRE);
}
static inline struct pmpi_peer *pmpi_slot_peers(const struct pmpi_thread *th)
{
    return __atomic_load_n(&th->peers, __ATOMIC_ACQUIRE);
}
extern __thread struct pmpi_thread *pmpi_tls __attribute__((tls_model("initial-exec")));

/* Fortran callers: the forwarder (mpi_send_ ...) records the user's return address
 * here before entering the MPI's Fortran binding; the C wrapper it reaches takes that
 * as its site and says it counted the call. */
struct pmpi_fortran_call {
    void *site;
    int counted;
};
extern __thread struct pmpi_fortran_call pmpi_fcall __attribute__((tls_model("initial-exec")));

/* PAPI_SAMPLE (mpi_sample.c): the outermost MPI call this thread is in (id + 1, 0: none)
 * and its site, read by the thread's own sampling handler; the wrappers write it only
 * while pmpi_sampling is set (MPI_Init, never cleared). */
struct pmpi_sample_call {
    void *site;
    volatile int id, depth;
};
extern __thread struct pmpi_sample_call pmpi_scall __attribute__((tls_model("initial-exec")));
extern int pmpi_sampling;

/* ---- the fault path: exit rows and checkpoints ---- */
struct pmpi_fault_state {
    _Atomic int written;        /* the exit row: once, by the first exit path */
    long long t_end, tick_end;  /* when the exit path ran (not in a signal handler) */
    char partial_name[64], checkpoint_name[64], checkpoint_prev_name[64];
};
extern struct pmpi_fault_state pmpi_fault;

/* See the lock discipline above. */
extern pthread_mutex_t pmpi_state_lock;

#endif
