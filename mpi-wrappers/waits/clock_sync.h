/* clock_sync.h: this rank's clock offset to rank 0's (clock_sync.c). */
#ifndef PAPI_MPI_CLOCK_SYNC_H
#define PAPI_MPI_CLOCK_SYNC_H

#include <mpi.h>

/* Collective over comm (a duplicate of MPI_COMM_WORLD), by point-to-point messages
 * only: each rank measures its offset to its parent in a binomial tree by a few
 * ping-pongs (the one with the shortest round trip kept) and adds its parent's offset
 * to rank 0; about log2 P rounds. offset_ns: this rank's CLOCK_MONOTONIC minus rank 0's
 * (0 on rank 0); residual_ns: the bound of its error, the sum of the round-trip halves
 * along the path to rank 0. A rank that shares its parent's boot (its clock) takes
 * offset 0 to it without an exchange unless force is set. */
void pmpi_clock_sync(MPI_Comm comm, int force, double *offset_ns, double *residual_ns);

#endif
