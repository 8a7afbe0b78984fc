/* mpi_hybrid.c: a staged hybrid MPI x OpenMP program, 2 ranks x 2 threads
 * (check_hybrid.py). Each rank: one parallel region of 2 threads where thread t works
 * (t+1) units (OpenMP load balance 0.75), then serial work outside MPI of (1 + rank) units,
 * then MPI_Barrier (rank 0 waits there 1 unit). Nominal answers: MPI parallel efficiency
 * (3 + 4) / 2 / 4 = 0.875; OpenMP serialization (2 + 2) / (3 + 4) = 4/7, load balance
 * 0.75, scheduling 1; OpenMP parallel efficiency 3/7; hybrid 0.375. Each rank prints its
 * own clock's wall, MPI, region and threads' work times as JSON (the staged answers are
 * formed from them). The OpenMP runtime and its threads start before MPI_Init (an empty
 * region): their start-up, which the runtime does before the first region's begin, is
 * then outside the measured run. Unchanged: MPI and OpenMP only. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <time.h>

#define UNIT_MS 200

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

int main(int argc, char **argv)
{
    int provided, rank;
    double work[2];
#pragma omp parallel num_threads(2)
    work[omp_get_thread_num()] = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    double start = MPI_Wtime();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double t0 = MPI_Wtime();
#pragma omp parallel num_threads(2)
    {
        double w = MPI_Wtime();
        sleep_ms(UNIT_MS * (omp_get_thread_num() + 1));
        work[omp_get_thread_num()] = MPI_Wtime() - w;
    }
    double region = MPI_Wtime() - t0;
    sleep_ms(UNIT_MS * (1 + rank));
    double t1 = MPI_Wtime();
    MPI_Barrier(MPI_COMM_WORLD);
    double mpi = MPI_Wtime() - t1, wall = MPI_Wtime() - start;
    printf("{\"rank\": %d, \"wall_s\": %.6f, \"mpi_s\": %.6f, \"region_s\": %.6f, "
           "\"work_s\": [%.6f, %.6f]}\n",
           rank, wall, mpi, region, work[0], work[1]);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
