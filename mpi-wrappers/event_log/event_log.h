/* event_log.h: the per-rank event log behind the wait states (wait_states.c) and the
 * traces: one fixed-size record per MPI call (enter and exit times, communicator class,
 * partner, tag, bytes, the request it made or completed, its call site, the thread that
 * made it) and per region enter/exit, appended by the calling thread into one bounded
 * buffer per rank; and with PAPI_INTERVAL one record per event per sample (the
 * sampler's), so a dead job's log still has its counters.
 *
 * Bounded: PAPI_MPI_LOG_RECORDS records (default 65536, 64 bytes each: 4 MiB, allocated
 * and touched at MPI_Init). When it is full later records are dropped and counted
 * (pmpi_log.dropped), not written over: matching sends to receives and collectives
 * across ranks goes by order, and the first N records of every rank stay in step,
 * while a ring that overwrote its oldest would not. PAPI_MPI_WAITS=0 turns the log off:
 * then each wrapped call pays one predictable branch (pmpi_log.on).
 *
 * A trace writer reads pmpi_log.ev[0 .. pmpi_log_count()) after MPI_Finalize's wait
 * computation: times are pmpi_ticks() units (pmpi_ns_per_tick converts; add
 * pmpi_log.offset_ns to put them on rank 0's clock). */
#ifndef PAPI_MPI_EVENT_LOG_H
#define PAPI_MPI_EVENT_LOG_H

#include <mpi.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "event_record.h"
#include "persistent_requests.h"

/* pmpi_log_call's peer for a collective without a root (MPICH's MPI_PROC_NULL is -1) */
#define PMPI_LOG_NO_ROOT (-0x7fffffff)

struct pmpi_event_log {
    int on;                    /* PAPI_MPI_WAITS: 1 (default) or 0 */
    long long cap;             /* records */
    struct pmpi_event *ev;     /* cap records, or NULL */
    _Atomic long long next;    /* records claimed (may exceed cap: the excess dropped) */
    _Atomic long long shipped; /* records the event log file has (event_log_file.c): a
                                * poll's fold among them is not extended */
    _Atomic int coll_seq;      /* collectives on world-congruent communicators so far */
    double offset_ns;          /* this rank's clock minus rank 0's, at MPI_Init (ns) */
    double offset_end_ns;      /* the same at MPI_Finalize */
    double residual_ns;        /* half the shortest ping-pong round trip: the error bound */
    const char *note;          /* why the log is off or smaller, or NULL */
};
extern struct pmpi_event_log pmpi_log;

/* At MPI_Init (after the rank is known): PAPI_MPI_WAITS and PAPI_MPI_LOG_RECORDS read,
 * the buffer made. A size of 0 or one past memory: said in one line, log off, the rest
 * of the run's counters still written. */
void pmpi_log_init(int rank);
void pmpi_log_free(void);
/* Records of log written (at most cap) and dropped. */
long long pmpi_log_count(const struct pmpi_event_log *log);
long long pmpi_log_dropped(const struct pmpi_event_log *log);

/* The hot path: one record for a call that took [t0, t0 + dt). comm may be
 * MPI_COMM_NULL (no communicator); peer is a rank of comm or negative. */
void pmpi_log_call(int id, int kind, long long t0, long long dt, void *site, MPI_Comm comm,
                   int peer, int tag, long long bytes, uint64_t req, int flags);
/* A Sendrecv (and its _replace and I forms): its send and receive records, claimed
 * together so they stay adjacent (the trace reads one call from them). */
void pmpi_log_sendrecv(int id, long long t0, long long dt, void *site, MPI_Comm comm, int dest,
                       int sendtag, long long sent, int source, int recvtag, long long recvd,
                       uint64_t req);
/* Wait/Test forms: one record per request completed (reqs: the handles before the call;
 * statuses may be MPI_STATUSES_IGNORE; n requests at most PMPI_LOG_WAIT_MAX are matched,
 * the rest counted in pmpi_log_unmatched); a call that completed none because every
 * handle was MPI_REQUEST_NULL one PMPI_EV_CALL record, so the trace has it as the report
 * does. n -1: a Test not done yet, a poll: folded with this thread's polls just before
 * it (PMPI_EVF_POLL), so a polling loop does not fill the log. */
#define PMPI_LOG_WAIT_MAX 64
void pmpi_log_wait(int id, long long t0, long long dt, void *site, int n, const uint64_t *reqs,
                   const MPI_Status *statuses);
/* Waitany/Testany/Waitsome/Testsome: the ndone requests completed, reqs[indices[k]] with
 * statuses[k] (statuses may be NULL); none (ndone 0: every handle MPI_REQUEST_NULL) one
 * PMPI_EV_CALL record; ndone -1 (a Test form not done yet, a poll): folded (PMPI_EVF_POLL). */
void pmpi_log_wait_some(int id, long long t0, long long dt, void *site, int nrq,
                        const uint64_t *reqs, int ndone, const int *indices,
                        const MPI_Status *statuses);
/* A MPI_Start/MPI_Startall: one PMPI_EV_SEND or PMPI_EV_RECV record per request whose
 * *_init filed a send or receive, as the start's wrapper read them (persistent_requests.h;
 * partitioned and collective requests log none); returns how many. */
int pmpi_log_start(int id, long long t0, long long dt, void *site, const struct pmpi_started *st);
/* Fortran statuses (an INTEGER array, or TYPE(MPI_Status) when f08), for forwarders
 * whose binding enters PMPI_* directly: whether st is the ignore marker, and its source
 * and tag into *c (1), or 0 when it cannot be read. */
int pmpi_fortran_status_ignored(const void *st, int f08);
/* Where a forwarder sees a Waitany/Waitsome index: 1-based from Fortran bindings, but
 * MPICH's mpi_f08 C bindings return C's (its module adds 1 after them). */
#if defined(MPICH_NUMVERSION)
#define PMPI_FORTRAN_INDEX_BASE(f08) ((f08) ? 0 : 1)
#else
#define PMPI_FORTRAN_INDEX_BASE(f08) 1
#endif
int pmpi_fortran_status(const void *st, int f08, MPI_Status *c);
/* One Fortran status in MPI_Fint words, as this MPI's Fortran bindings have it:
 * MPI_F_STATUS_SIZE from mpi.h (MPI 3+: MPICH, Open MPI 5). Open MPI 4.1's mpi.h lacks
 * it; its configure makes the Fortran MPI_STATUS_SIZE the C status in Fortran INTEGERs
 * (mpif-config.h: 6), which a whole number of words must hold. PMPI_F_STATUS_BYTES also
 * holds a TYPE(MPI_Status) of mpi_f08 (MPICH's MPI_F08_status). */
#ifdef MPI_F_STATUS_SIZE
#define PMPI_F_STATUS_WORDS MPI_F_STATUS_SIZE
#else
#define PMPI_F_STATUS_WORDS (sizeof(MPI_Status) / sizeof(MPI_Fint))
_Static_assert(sizeof(MPI_Status) % sizeof(MPI_Fint) == 0 &&
                   sizeof(MPI_Status) >= 3 * sizeof(MPI_Fint),
               "no MPI_F_STATUS_SIZE in mpi.h and the C status is not a whole number of "
               "MPI_Fint: say this MPI's Fortran MPI_STATUS_SIZE here");
#endif
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION >= 40000000 /* has MPI_F08_status */
_Static_assert(sizeof(MPI_F08_status) <= PMPI_F_STATUS_WORDS * sizeof(MPI_Fint),
               "TYPE(MPI_Status) larger than INTEGER(MPI_STATUS_SIZE)");
#endif
#define PMPI_F_STATUS_BYTES (PMPI_F_STATUS_WORDS * sizeof(MPI_Fint))
/* Arrays of statuses the caller ignores (MPI_STATUSES_IGNORE) are replaced by one of
 * ours while recording, so a wildcard receive completed by Waitall/Waitsome ... learns its
 * sender: stack (n statuses fit in its bytes) or a heap one (*heap, freed by the caller
 * when not NULL); the caller's own pointer when not recording, not ignored, or out of
 * memory (the old behaviour: statuses unread). C statuses, and the Fortran forms (an
 * INTEGER array of MPI_STATUS_SIZE each, or TYPE(MPI_Status) when f08).
 * Inline: the wrappers' common case (log off, or the caller's array) makes no call; only
 * a heap array (C) or an ignored Fortran array while recording goes out of line. */
MPI_Status *pmpi_log_statuses_heap(MPI_Status *arr, int n, void **heap);
void *pmpi_fortran_statuses_sub(void *arr, const void *count, int f08, void *stack,
                                size_t stack_bytes, void **heap);
/* Whether this rank keeps an event log (off: the callers skip what only it would use). */
static inline int pmpi_log_on(void)
{
    return pmpi_log.on;
}
static inline MPI_Status *pmpi_log_statuses(MPI_Status *arr, int n, MPI_Status *stack, int nstack,
                                            void **heap)
{
    *heap = NULL;
    if (!pmpi_log.on || arr != MPI_STATUSES_IGNORE || n < 0)
        return arr;
    return n <= nstack ? stack : pmpi_log_statuses_heap(arr, n, heap);
}
static inline void *pmpi_fortran_statuses_mine(void *arr, const void *count, int f08, void *stack,
                                               size_t stack_bytes, void **heap)
{
    *heap = NULL;
    if (!pmpi_log.on)
        return arr;
    return pmpi_fortran_statuses_sub(arr, count, f08, stack, stack_bytes, heap);
}
/* The first n of a Fortran array of statuses as C ones (source and tag): 1, or 0 when
 * they cannot be read (ignored). */
int pmpi_fortran_statuses(const void *arr, int f08, int n, MPI_Status *c);
/* A region opened (enter 1) or closed (enter 0) now. */
void pmpi_log_region(int index, int enter);
/* PAPI_INTERVAL's sampler: each of the n events' count since MPI_Init at tick, one
 * PMPI_EV_COUNTER record each (off the MPI call path). */
void pmpi_log_counters(long long tick, const long long *counts, int n);
/* A region entry closes (region: its index): each of the n named metrics of its counts
 * over its wall time that has a value, a PMPI_EVF_METRIC record each. */
void pmpi_log_region_metrics(int region, const double *value, const int *ok, int n);

#endif
