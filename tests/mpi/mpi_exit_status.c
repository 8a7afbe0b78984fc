/* mpi_exit_status: a program that exits with a status of its own (argv[1]) after a
 * few MPI calls, and prints (rank 0) how many arguments it got and their total length:
 * check_wrong_mpi.py runs it with the other MPI's wrapper, preloaded or linked, and
 * checks the status, the arguments and that nothing was recorded. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank = 0, size = 0, one = 1, sum = 0;
    size_t bytes = 0;
    for (int i = 1; i < argc; i++)
        bytes += strlen(argv[i]);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("mpi_exit_status: %d ranks, sum %d, %d arguments, %zu bytes\n", size, sum,
               argc - 1, bytes);
    MPI_Finalize();
    return argc > 1 ? atoi(argv[1]) : 0;
}
