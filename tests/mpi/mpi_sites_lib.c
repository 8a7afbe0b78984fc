/* mpi_sites_lib.c: libmpi_sites_lib.so, an MPI call made from a shared library: its
 * call site is the library's (object, offset), resolved to this file and line. */
#include <mpi.h>

#include "mpi_sites_lib.h"

void sites_lib_allreduce(int *v)
{
    MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* SITE lib */
}
