/* mpi_omp_trace.c: MPI calls made inside OpenMP implicit tasks (check_mpi_omp_trace.py).
 * Each rank: an MPI_Barrier outside any parallel region, then 3 instances of a parallel
 * region of 2 threads whose master thread calls MPI_Allreduce and MPI_Barrier inside its
 * implicit task (MPI_THREAD_FUNNELED), thread t sleeping (t+1) x 5 ms first. Unchanged:
 * MPI and OpenMP only. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <time.h>

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

int main(int argc, char **argv)
{
    int provided, rank, sum = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < 3; k++) {
#pragma omp parallel num_threads(2)
        {
            sleep_ms(5 * (omp_get_thread_num() + 1));
#pragma omp master
            {
                int one = 1;
                MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
                MPI_Barrier(MPI_COMM_WORLD);
            }
        }
    }
    printf("{\"rank\": %d, \"sum\": %d, \"provided\": %d}\n", rank, sum, provided);
    MPI_Finalize();
    return 0;
}
