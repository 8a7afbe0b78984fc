/* mpi_bytes.h: helpers the byte expressions of mpi_calls.list use (sizes of types,
 * communicators and topologies through PMPI_* only). A leaf of the library. */
#ifndef PAPI_MPI_BYTES_H
#define PAPI_MPI_BYTES_H

#include <mpi.h>

long long tsz(MPI_Datatype t);
long long csz(MPI_Comm c);
int crank(MPI_Comm c);
int isroot(int root, MPI_Comm c);
long long vsum(const int *counts, MPI_Comm c);
long long wsum(const int *counts, const MPI_Datatype *types, MPI_Comm c);
int nbr_in(MPI_Comm c);
int nbr_out(MPI_Comm c);
long long nsum(const int *counts, int n);
long long nwsum(const int *counts, const MPI_Datatype *types, int n);

#endif
