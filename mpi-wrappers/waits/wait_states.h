/* wait_states.h: why MPI time was lost, from the event log (event_log.h), computed at
 * MPI_Finalize (wait_states.c): late sender, late receiver, wait at N x N collectives,
 * wait at barrier, late root (1-to-N) and early reduce (N-to-1), per rank, per call site
 * and per region, on one clock (clock offsets to rank 0 measured at MPI_Init and
 * MPI_Finalize by ping-pong, clock_sync.c). */
#ifndef PAPI_MPI_WAIT_STATES_H
#define PAPI_MPI_WAIT_STATES_H

#include <stddef.h>
#include <stdint.h>

#include "wait_rules.h" /* the result, the kinds, the per-site lookup */

struct pmpi_event_log; /* event_log.h */

/* Collective, at MPI_Init, after pmpi_log_init: log kept (PAPI_MPI_WAITS,
 * PAPI_MPI_LOG_RECORDS) on every rank or freed on all, and its clock offsets measured. */
void pmpi_waits_init(struct pmpi_event_log *log);
/* Collective, at MPI_Finalize before the report: every rank calls it (the log on or off
 * on all of them alike: the environment is the job's). The waits of the records of log
 * (its offsets at MPI_Finalize and residual filled in here). */
struct pmpi_wait_result pmpi_waits_compute(struct pmpi_event_log *log, double ns_per_tick);

#endif
