/* coll_groups.h: the key of a communicator's group and the sequence of this rank's
 * collectives on that group, which match the collectives of communicators other than
 * MPI_COMM_WORLD across ranks at MPI_Finalize (coll_groups.c). */
#ifndef PAPI_MPI_COLL_GROUPS_H
#define PAPI_MPI_COLL_GROUPS_H

#include <mpi.h>
#include <stdint.h>

/* When the event log starts (MPI_Init): the attribute key that caches each
 * communicator's group entry (made once; without it no collective is matched). */
void pmpi_coll_groups_init(void);
/* A collective on comm, a communicator not congruent with MPI_COMM_WORLD: the next of
 * this rank's sequence numbers on comm's group (from 0), its group's key in *key; -1
 * (*key untouched) when it cannot be matched: no attribute key, a member outside world,
 * more groups than entries. */
int pmpi_coll_group_next(MPI_Comm comm, uint32_t *key);

#endif
