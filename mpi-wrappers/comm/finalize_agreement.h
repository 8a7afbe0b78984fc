/* finalize_agreement.h: the job-wide agreements of the finalize sequence (and MPI_Init's)
 * on a few integers each, folded into one reduction per round, and the sequence's one
 * communicator (finalize_agreement.c). */
#ifndef PAPI_MPI_FINALIZE_AGREEMENT_H
#define PAPI_MPI_FINALIZE_AGREEMENT_H

#include <mpi.h>

/* How a value is agreed: its minimum, maximum or sum over the ranks. "Every rank can"
 * is the minimum of a 0/1 flag. */
enum pmpi_agree_op { PMPI_AGREE_MIN, PMPI_AGREE_MAX, PMPI_AGREE_SUM };

/* At most this many values in one round, and in a run (a step registers a handful). */
#define PMPI_AGREE_SLOTS   32
#define PMPI_AGREE_HANDLES 256

/* A step registers its value for the next round: returns the handle that reads the
 * agreed value back once the round ran, or -1 when the slots are taken (a wrapper bug:
 * its value then reads 0, "not every rank can"). */
int pmpi_agree_add(enum pmpi_agree_op op, long long value);
/* Collective over comm (every rank registered the same slots in the same order): one
 * MPI_Allreduce of every value registered since the last round. Returns 0, or -1 when
 * the MPI failed (then each slot keeps its local value and MIN slots read 0). */
int pmpi_agree_run(MPI_Comm comm);
/* The agreed value of a handle whose round ran (its local value before; 0 for -1). */
long long pmpi_agree_value(int handle);
/* The reduction itself, for a step's own vector on any communicator: count pairs of
 * (enum pmpi_agree_op, value), the same operations in the same order on every rank of
 * comm, into out (2 * count). Collective; returns the MPI's code. */
int pmpi_agree_pairs(MPI_Comm comm, const long long *pairs, long long *out, int count);

/* Collective, at the start of the finalize sequence (or at MPI_Init, by the event log's
 * first clock exchange, and kept for the run): its steps' communicator, one duplicate of
 * MPI_COMM_WORLD (its error handler) for all of them, each step with its own tags and
 * every message of a step received before the next one begins. Once open it is not
 * opened again (no collective): MPI_COMM_WORLD's error handler is copied onto it. */
void pmpi_finalize_comm_open(void);
/* That communicator, opened here if it was not (then collective); MPI_COMM_WORLD only
 * when the MPI could not duplicate it. */
MPI_Comm pmpi_finalize_comm(void);
/* At the end of the sequence, on every rank. */
void pmpi_finalize_comm_close(void);

#endif
