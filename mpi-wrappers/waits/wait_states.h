/* wait_states.h: why MPI time was lost, from the event log (event_log.h), computed at
 * MPI_Finalize (wait_states.c): late sender, late receiver, wait at N x N collectives,
 * wait at barrier, late root (1-to-N) and early reduce (N-to-1), per rank, per call site
 * and per region, on one clock (clock offsets to rank 0 measured at MPI_Init and
 * MPI_Finalize by ping-pong, clock_sync.c). */
#ifndef PAPI_MPI_WAIT_STATES_H
#define PAPI_MPI_WAIT_STATES_H

#include <stddef.h>
#include <stdint.h>

#include "state.h"

/* The wait kinds (enum pmpi_wait_kind, PMPI_WAIT_KINDS) and their report names
 * (pmpi_wait_names: "late_sender_s" ...) are generated from wait_kinds.list into
 * papi_mpi_calls.h (state.h includes it). */

/* A message whose send has this many bytes or more is taken for a rendezvous send (its
 * sender waits for the receive) as MPICH's and Open MPI's default eager limits are below
 * it; a synchronous send (Ssend, Issend) always is. */
#define PMPI_RENDEZVOUS_BYTES (64 * 1024)

/* The waits per call site, sorted by key (wait_states.c). */
struct pmpi_site_wait;
struct pmpi_event_log; /* event_log.h */

/* What pmpi_waits_compute returns: the report, the call sites and the trace read it. */
struct pmpi_wait_result {
    int done;                                            /* computed on this rank */
    double rank_ns[PMPI_WAIT_KINDS];                     /* this rank's waits */
    double region_ns[PMPI_MAX_REGIONS][PMPI_WAIT_KINDS]; /* while each region was open */
    long long p2p_matched, p2p_unmatched;                /* receives (and sends) matched or not */
    long long coll_matched, coll_unmatched; /* collectives on world-congruent or others */
    long long records, dropped;             /* the log's */
    long long capacity;                     /* the log's records per rank */
    const char *note;                       /* why the log is off or smaller, or NULL */
    double offset_ns, offset_end_ns, residual_ns;
    struct pmpi_site_wait *sites; /* heap, or NULL: pmpi_waits_free */
    size_t nsites;
};

/* Collective, at MPI_Init: the log made (PAPI_MPI_WAITS, PAPI_MPI_LOG_RECORDS) on every
 * rank or none, and the clock offsets measured. */
void pmpi_waits_init(void);
/* Collective, at MPI_Finalize before the report: every rank calls it (the log on or off
 * on all of them alike: the environment is the job's). The waits of the records of log
 * (its offsets at MPI_Finalize and residual filled in here). */
struct pmpi_wait_result pmpi_waits_compute(struct pmpi_event_log *log, double ns_per_tick);
/* The waits (ns) of one call site (the key of the call-site tables, state.h), added to
 * ns[]. */
void pmpi_waits_of_site(const struct pmpi_wait_result *w, uint64_t key,
                        long long ns[PMPI_WAIT_KINDS]);
void pmpi_waits_free(struct pmpi_wait_result *w);

#endif
