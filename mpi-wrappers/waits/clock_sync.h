/* clock_sync.h: this rank's clock offset to rank 0's (clock_sync.c). */
#ifndef PAPI_MPI_CLOCK_SYNC_H
#define PAPI_MPI_CLOCK_SYNC_H

#include <mpi.h>

/* Collective over comm (a duplicate of MPI_COMM_WORLD): rank 0 exchanges a few
 * ping-pongs with every other rank in turn; each keeps the one with the shortest round
 * trip. offset_ns: this rank's CLOCK_MONOTONIC minus rank 0's (0 on rank 0);
 * residual_ns: half that round trip, the bound of the offset's error. Ranks that share
 * rank 0's boot (its clock) take offset 0 without an exchange unless force is set. */
void pmpi_clock_sync(MPI_Comm comm, int force, double *offset_ns, double *residual_ns);

#endif
