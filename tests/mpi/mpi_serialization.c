/* mpi_serialization.c: a hybrid MPI x OpenMP program of a known serial fraction for
 * check_serialization.py (issue 69 item 5): 2 ranks, each ROUNDS rounds of a parallel
 * region of 2 threads that both sleep PAR_MS, then SER_MS of serial work outside MPI,
 * and CALLS cheap MPI calls a round (records for the trace the wrapper writes at
 * MPI_Finalize); no collective before MPI_Finalize, so that a rank slowed by a loaded
 * machine makes no other wait in MPI (time that papi_run counts as serial and the
 * wrapper as MPI). Nominal serialization PAR / (PAR + SER) = 0.75. The OpenMP runtime
 * starts after MPI_Init (the first region), so papi_run's run and the wrapper's start
 * nearly together (the runtime's start-up, counted by the wrapper alone, is a few tens of
 * ms: 4.8 s of run keep it under 0.02). Each rank prints its own clock's wall, MPI and
 * region times as JSON. Unchanged: MPI and OpenMP only. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <time.h>

#define ROUNDS 24
#define PAR_MS 150
#define SER_MS 50
#define CALLS  1000

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

int main(int argc, char **argv)
{
    int provided, rank, me;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    double start = MPI_Wtime(), region = 0, mpi = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = MPI_Wtime();
#pragma omp parallel num_threads(2)
        sleep_ms(PAR_MS);
        region += MPI_Wtime() - t0;
        sleep_ms(SER_MS);
        t0 = MPI_Wtime();
        for (int i = 0; i < CALLS; i++)
            MPI_Comm_rank(MPI_COMM_WORLD, &me);
        mpi += MPI_Wtime() - t0;
    }
    printf("{\"rank\": %d, \"wall_s\": %.6f, \"mpi_s\": %.6f, \"region_s\": %.6f}\n", rank,
           MPI_Wtime() - start, mpi, region);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
