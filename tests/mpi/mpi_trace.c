/* mpi_trace.c: a ring for PAPI_MPI_TRACE (check_mpi_trace.py): ROUNDS rounds of a
 * blocking send to the right and an Irecv from the left completed by MPI_Wait, one
 * Allreduce and one Barrier, all inside the MPI_Pcontrol region "ring". */
#include <mpi.h>
#include <stdio.h>

#define ROUNDS 5

int main(int argc, char **argv)
{
    int rank, size, out, in = -1, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Pcontrol(2, "ring");
    for (int k = 0; k < ROUNDS; k++) {
        MPI_Request req;
        out = rank * 100 + k;
        MPI_Irecv(&in, 1, MPI_INT, (rank + size - 1) % size, k, MPI_COMM_WORLD, &req);
        MPI_Send(&out, 1, MPI_INT, (rank + 1) % size, k, MPI_COMM_WORLD);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    MPI_Allreduce(&in, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Pcontrol(-2, "ring");
    if (rank == 0)
        printf("sum %d\n", sum);
    MPI_Finalize();
    return 0;
}
