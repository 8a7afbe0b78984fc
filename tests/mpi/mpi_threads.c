/* mpi_threads.c: MPI_THREAD_MULTIPLE with three threads that make MPI calls, touch
 * pages and end before MPI_Finalize: the rank's row must hold every thread's calls and
 * the sum of every thread's page faults. argv[1] = N: the main thread touches N pages,
 * thread t touches (t+1) x N after its first MPI call (when its counters start).
 * argv[2] = "alive": the threads are still alive (idle) during MPI_Finalize, so their
 * counters are read from the finalising thread instead of at their exit.
 * argv[2] = "time": instead, 4 threads that spend nearly the whole run in MPI at the
 * same time (check_thread_time.py): each receives TIME_ROUNDS messages from its own
 * rank (tag = its number), blocked in MPI_Recv, and the main thread sends each round's
 * messages after a pause of TIME_PAUSE_MS.
 * argv[2] = "many": besides their calls above, the workers each make MANY_ROUNDS of an
 * MPI_Sendrecv and an Isend + Irecv + Waitall(2) to their own rank at the same time:
 * calls that log two records each, which the trace must keep as one call per slice
 * however the threads' records interleave (check_mpi_trace.py --part threads_many). */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "test_workload.h"

enum { NTHREADS = 3, CALLS = 50, MSG = 100 };
enum { TIME_THREADS = 4, TIME_ROUNDS = 10, TIME_PAUSE_MS = 30 };
enum { MANY_ROUNDS = 2000 };
static long pages;
static int alive, many;
static pthread_barrier_t done_mpi, after_finalize;

static void *worker(void *arg)
{
    int t = (int)(long)arg, me, rank;
    char out[MSG] = {0}, in[MSG];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    touch_pages((t + 1) * pages);
    for (int i = 1; i < CALLS; i++)
        MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Sendrecv(out, MSG, MPI_CHAR, rank, 10 + t, in, MSG, MPI_CHAR, rank, 10 + t, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int i = 0; many && i < MANY_ROUNDS; i++) {
        MPI_Request rq[2];
        MPI_Status st[2]; /* not MPI_STATUSES_IGNORE: gcc 12 takes MPICH's (MPI_Status *)1
                           * for an array of size 0 */
        MPI_Sendrecv(out, MSG, MPI_CHAR, rank, 20 + t, in, MSG, MPI_CHAR, rank, 20 + t,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Irecv(in, MSG, MPI_CHAR, rank, 30 + t, MPI_COMM_WORLD, &rq[0]);
        MPI_Isend(out, MSG, MPI_CHAR, rank, 30 + t, MPI_COMM_WORLD, &rq[1]);
        MPI_Waitall(2, rq, st);
    }
    if (alive) {
        pthread_barrier_wait(&done_mpi);       /* MPI work done... */
        pthread_barrier_wait(&after_finalize); /* ...stay alive until after Finalize */
    }
    return NULL;
}

static void *time_worker(void *arg)
{
    int t = (int)(long)arg, rank, v;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int r = 0; r < TIME_ROUNDS; r++)
        MPI_Recv(&v, 1, MPI_INT, rank, t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return NULL;
}

/* The "time" pattern: the workers are in MPI together while the main thread pauses. */
static void time_pattern(int rank)
{
    pthread_t th[TIME_THREADS];
    struct timespec pause = {0, TIME_PAUSE_MS * 1000000L};
    for (long t = 0; t < TIME_THREADS; t++)
        pthread_create(&th[t], NULL, time_worker, (void *)t);
    for (int r = 0; r < TIME_ROUNDS; r++) {
        nanosleep(&pause, NULL);
        for (int t = 0; t < TIME_THREADS; t++)
            MPI_Send(&r, 1, MPI_INT, rank, t, MPI_COMM_WORLD);
    }
    for (int t = 0; t < TIME_THREADS; t++)
        pthread_join(th[t], NULL);
}

int main(int argc, char **argv)
{
    int provided, rank;
    pthread_t th[NTHREADS];
    pages = argc > 1 ? atol(argv[1]) : 0;
    alive = argc > 2 && strcmp(argv[2], "alive") == 0;
    int timed = argc > 2 && strcmp(argv[2], "time") == 0;
    many = argc > 2 && strcmp(argv[2], "many") == 0;
    pthread_barrier_init(&done_mpi, NULL, NTHREADS + 1);
    pthread_barrier_init(&after_finalize, NULL, NTHREADS + 1);
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) {
        printf("SKIPPED: MPI_THREAD_MULTIPLE not provided\n");
        MPI_Finalize();
        return 77;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (timed) {
        time_pattern(rank);
        MPI_Finalize();
        return 0;
    }
    touch_pages(pages);
    for (long t = 0; t < NTHREADS; t++)
        pthread_create(&th[t], NULL, worker, (void *)t);
    if (alive) {
        pthread_barrier_wait(&done_mpi);
        MPI_Finalize();
        pthread_barrier_wait(&after_finalize);
    }
    for (int t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);
    if (!alive)
        MPI_Finalize();
    return 0;
}
