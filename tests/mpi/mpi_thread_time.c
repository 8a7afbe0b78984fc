/* mpi_thread_time: under MPI_THREAD_MULTIPLE, 4 threads that spend most of the run in
 * MPI at the same time. Each worker receives ROUNDS messages from its own rank (tag =
 * its number), blocked in MPI_Recv; the main thread sends each round's 4 messages after
 * a pause of PAUSE_MS. A rank's threads are then in MPI together for nearly all of the
 * run: the time in MPI of the rank (the union) is close to its wall time, the threads'
 * own times added up close to 4 times that (check_thread_time.py). */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

enum { NTHREADS = 4, ROUNDS = 10, PAUSE_MS = 30 };

static void *worker(void *arg)
{
    int t = (int)(long)arg, rank, v;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int r = 0; r < ROUNDS; r++)
        MPI_Recv(&v, 1, MPI_INT, rank, t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, rank;
    pthread_t th[NTHREADS];
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) {
        printf("SKIPPED: MPI_THREAD_MULTIPLE not provided\n");
        MPI_Finalize();
        return 77;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (long t = 0; t < NTHREADS; t++)
        pthread_create(&th[t], NULL, worker, (void *)t);
    struct timespec pause = {0, PAUSE_MS * 1000000L};
    for (int r = 0; r < ROUNDS; r++) {
        nanosleep(&pause, NULL);
        for (int t = 0; t < NTHREADS; t++)
            MPI_Send(&r, 1, MPI_INT, rank, t, MPI_COMM_WORLD);
    }
    for (int t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);
    MPI_Finalize();
    return 0;
}
