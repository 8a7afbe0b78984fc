/* mpi_scaling.c: known work per rank for POP's computation scalability between two runs
 * (check_timeline_mpi.py --part scaling): each rank works K times (K the argument, 1 by
 * default), each time 600 ms asleep (most of the work: a loaded machine cannot stretch
 * it) and a fixed loop of arithmetic (instructions that grow with K), then MPI_Barrier
 * and MPI_Allreduce. Useful time and instructions of a
 * run with K = 2 are twice those of K = 1: computation scalability 0.5. Each rank prints
 * "WORK rank seconds", the work its own clock measured. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "test_workload.h"

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int k = argc > 1 ? atoi(argv[1]) : 1, rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double t0 = test_now();
    volatile double x = 1.0;
    for (int i = 0; i < k; i++) {
        sleep_ms(600);
        for (long j = 0; j < 5000000L; j++)
            x = x * 1.0000001 + 1e-9;
    }
    /* the work as this rank's clock saw it: a loaded machine stretches it */
    printf("WORK %d %.6f\n", rank, test_now() - t0);
    fflush(stdout);
    double v = x, sum = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Allreduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return sum > 0 ? 0 : 1;
}
