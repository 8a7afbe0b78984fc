/* finalize_agreement.h: the job-wide agreements of the finalize sequence (and MPI_Init's)
 * on a few integers each, folded into one reduction per round, and the wrapper's own
 * communicator they and the steps' messages use (finalize_agreement.c). */
#ifndef PAPI_MPI_FINALIZE_AGREEMENT_H
#define PAPI_MPI_FINALIZE_AGREEMENT_H

#include <mpi.h>

/* How a value is agreed: its minimum, maximum or sum over the ranks. "Every rank can"
 * is the minimum of a 0/1 flag. */
enum pmpi_agree_op { PMPI_AGREE_MIN, PMPI_AGREE_MAX, PMPI_AGREE_SUM };

/* At most this many values in one round, and in a run (a step registers a handful). */
#define PMPI_AGREE_SLOTS   32
#define PMPI_AGREE_HANDLES 256
/* At most this many doubles riding in one round (the wait states' collective arrivals:
 * 3 per sequence number of the first 1024). */
#define PMPI_AGREE_DOUBLES 3072

/* A step registers its value for the next round: returns the handle that reads the
 * agreed value back once the round ran, or -1 when the slots are taken (a wrapper bug:
 * its value then reads 0, "not every rank can"). */
int pmpi_agree_add(enum pmpi_agree_op op, long long value);
/* A vector of count (at most PMPI_AGREE_DOUBLES) doubles for the next round, whose
 * maxima over the ranks it writes to out (when not NULL); in NULL: this rank has none
 * (-infinity each). Every rank registers the same count, one vector a round. Returns 0,
 * or -1 when the round has one already or count is out of range (a wrapper bug). */
int pmpi_agree_add_max_doubles(const double *in, double *out, int count);
/* Collective over comm (every rank registered the same slots in the same order): one
 * MPI_Allreduce (MPI_MAX, a minimum negated) of every minimum and maximum registered
 * since the last round with the doubles riding in it, and a second (MPI_SUM) only when
 * sums were. Returns 0, or -1 when the MPI failed (then each slot keeps its local value,
 * MIN slots read 0, and the doubles' out has this rank's own). */
int pmpi_agree_run(MPI_Comm comm);
/* The agreed value of a handle whose round ran (its local value before; 0 for -1). */
long long pmpi_agree_value(int handle);
/* The reduction itself, for a step's own vector on any communicator: count pairs (at
 * most PMPI_AGREE_SLOTS) of (enum pmpi_agree_op, value), the same operations in the
 * same order on every rank of comm, into out (2 * count), as pmpi_agree_run: one
 * MPI_MAX reduction, one MPI_SUM when there are sums. Collective; returns the MPI's code
 * (out's values are the local ones where it failed). */
int pmpi_agree_pairs(MPI_Comm comm, const long long *pairs, long long *out, int count);

/* Collective at MPI_Init: the wrapper's own communicator, one duplicate of
 * MPI_COMM_WORLD for the clock offsets and every step of the finalize sequence, each
 * with its own tags and every message of a step received before the next one begins.
 * Called again at the start of the finalize sequence it is local: MPI_COMM_WORLD's error
 * handler as it is then (the program may have set its own) is copied onto it. */
void pmpi_own_comm_open(void);
/* That communicator; MPI_COMM_WORLD when the MPI could not duplicate it (or before
 * MPI_Init, after MPI_Finalize): never a collective. */
MPI_Comm pmpi_own_comm(void);
/* At the end of the finalize sequence, on every rank. */
void pmpi_own_comm_close(void);

#endif
