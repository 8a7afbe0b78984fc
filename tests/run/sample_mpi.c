/* sample_mpi.c: MPI ranks for papi_run --sample (check_sample.py mpi).
 *   sample_mpi UNITS [SLOW FACTOR]
 * Every rank runs rank_work for UNITS, rank SLOW (default 1) for FACTOR (default 3)
 * times as long, then all meet in a barrier. Each rank prints the CPU time its thread
 * spent in rank_work ("EXPECT rank_work RANK SECONDS"): under oversubscription the
 * ranks share CPUs, and the sampled task clock is to match each rank's own clock. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) void rank_work(long units)
{
    unsigned long x = sink;
    for (long i = 0; i < units * 1000000L; i++)
        x = x * 6364136223846793005UL + 1442695040888963407UL;
    sink = x;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long units = argc > 1 ? atol(argv[1]) : 20;
    int slow = argc > 2 ? atoi(argv[2]) : 1;
    long factor = argc > 3 ? atol(argv[3]) : 3;
    double t0 = cpu_now();
    rank_work(rank == slow ? factor * units : units);
    double spent = cpu_now() - t0;
    printf("EXPECT rank_work %d %.6f\n", rank, spent);
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
