/* mpi_sample.c: the workload of check_mpi_sample.py (PAPI_SAMPLE under the MPI wrapper).
 * 2 ranks. Region "work": rank 1 spends 0.3 s of its own CPU time in heavy() and 0.1 s in
 * light() (3:1, timed on the thread's CPU clock, so load on the machine does not change
 * the split) while rank 0 waits in main's barrier after it. Then rank 1 sleeps 300 ms
 * while rank 0's waiter() sits in MPI_Barrier (the line marked SAMPLE_BARRIER). A second
 * thread of rank 1 (MPI_THREAD_MULTIPLE) makes one MPI call, which gives it a recording
 * slot and so a sampler, then spends 0.2 s of CPU in threadwork(). */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static volatile double sink;

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Arithmetic until s seconds of this thread's CPU time have passed; inlined, so the
 * samples fall in heavy() and light() themselves (the clock is read every ~0.3 ms). */
static inline __attribute__((always_inline)) void spin(double s)
{
    double end = cpu_now() + s, x = sink;
    while (cpu_now() < end)
        for (int i = 0; i < 200000; i++)
            x = x * 1.0000001 + 1e-9;
    sink = x;
}

__attribute__((noinline)) void heavy(void)
{
    spin(0.3);
}

__attribute__((noinline)) void light(void)
{
    spin(0.1);
}

__attribute__((noinline)) void waiter(void)
{
    MPI_Barrier(MPI_COMM_WORLD); /* SAMPLE_BARRIER */
}

__attribute__((noinline)) void threadwork(void)
{
    spin(0.2);
}

static void *worker(void *arg)
{
    int size;
    (void)arg;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    threadwork();
    return NULL;
}

int main(int argc, char **argv)
{
    int rank, provided;
    pthread_t thread;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Pcontrol(1, "work");
    int threaded = rank == 1 && provided == MPI_THREAD_MULTIPLE &&
                   pthread_create(&thread, NULL, worker, NULL) == 0;
    if (rank == 1) {
        heavy();
        light();
    }
    if (threaded)
        pthread_join(thread, NULL);
    MPI_Pcontrol(-1, "work");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        struct timespec ts = {0, 300 * 1000 * 1000};
        nanosleep(&ts, NULL);
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        waiter();
    }
    MPI_Finalize();
    return 0;
}
