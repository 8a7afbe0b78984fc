/* comm_translate.h: communicator ranks to world ranks (comm_translate.c). */
#ifndef PAPI_MPI_COMM_TRANSLATE_H
#define PAPI_MPI_COMM_TRANSLATE_H

#include <mpi.h>

/* At MPI_Init: the world group partners' ranks are translated into, and the attribute
 * key that caches each communicator's translation. */
void pmpi_comm_translate_init(void);
/* The world rank of rank r of comm, or -1 (negative r, MPI_PROC_NULL, unknown). */
int pmpi_world_rank(MPI_Comm comm, int r);
/* The world rank of rank r of group g, or -1. */
int pmpi_group_world_rank(MPI_Group g, int r);
/* Whether comm's rank i is world rank i for every i (MPI_COMM_WORLD, its duplicates):
 * collectives on those are matched across ranks by order (wait_states.c). */
int pmpi_comm_congruent(MPI_Comm comm);

#endif
