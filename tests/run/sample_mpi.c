/* sample_mpi.c: two MPI ranks for papi_run --sample (check_sample.py mpi): rank 1
 * spends 3 times longer than rank 0 in rank_work, then both meet in a barrier. */
#include <mpi.h>
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) void rank_work(long units)
{
    unsigned long x = sink;
    for (long i = 0; i < units * 1000000L; i++)
        x = x * 6364136223846793005UL + 1442695040888963407UL;
    sink = x;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long units = argc > 1 ? atol(argv[1]) : 20;
    rank_work(rank == 1 ? 3 * units : units);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
