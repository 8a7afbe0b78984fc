/* sde_mpi.c: an MPI program whose own library part exports an SDE (rank r adds
 * 1000 * (r + 1) to sde:::mpilib::ops); test_sde_mpi runs it under the PMPI wrapper
 * with PAPI_MPI_EVENTS naming the SDE and checks the per-rank report. */
#include <mpi.h>

#include "sde_lib.h"

static long long ops;

int main(int argc, char **argv)
{
    int rank;
    papi_handle_t h = papi_sde_init("mpilib");
    if (papi_sde_register_counter(h, "ops", PAPI_SDE_DELTA, PAPI_SDE_long_long, &ops) != SDE_OK)
        return 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 1000 * (rank + 1); i++)
        ops++;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
