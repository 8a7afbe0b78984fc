/* mpi_sites_lib.h: a shared library that calls MPI (mpi_sites_lib.c). */
#ifndef MPI_SITES_LIB_H
#define MPI_SITES_LIB_H
void sites_lib_allreduce(int *v);
#endif
