/* mpi_exit_status: a program that exits with a status of its own (argv[1]) after a
 * few MPI calls, and prints (rank 0) how many arguments it got and their total length:
 * check_wrong_mpi.py runs it with the other MPI's wrapper, preloaded or linked, and
 * checks the status, the arguments and that nothing was recorded. With argv[2] "env",
 * rank 0 also prints LD_PRELOAD and the wrapper's rerun marker as it sees them and as a
 * child shell sees them (the rerun must hand both back as the user set them). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "<who> LD_PRELOAD=<value or (unset)> marker=<value or (unset)>" */
static void print_env(void)
{
    const char *pre = getenv("LD_PRELOAD"), *mark = getenv("PAPI_MPI_WRONG_MPI_RERUN");
    printf("mpi_exit_status env: program LD_PRELOAD=%s marker=%s\n", pre ? pre : "(unset)",
           mark ? mark : "(unset)");
    fflush(stdout);
    if (system("echo \"mpi_exit_status env: child LD_PRELOAD=${LD_PRELOAD-(unset)} "
               "marker=${PAPI_MPI_WRONG_MPI_RERUN-(unset)}\"") != 0)
        printf("mpi_exit_status env: the child shell failed\n");
    fflush(stdout);
}

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
    if (rank == 0 && argc > 2 && strcmp(argv[2], "env") == 0)
        print_env();
    MPI_Finalize();
    return argc > 1 ? atoi(argv[1]) : 0;
}
