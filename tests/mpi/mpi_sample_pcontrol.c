/* mpi_sample_pcontrol.c: samples inside MPI_Pcontrol under PAPI_SAMPLE (check_mpi_sample.py
 * --part pcontrol). Each rank opens and closes region "loop" in marks(), 5,000 times a
 * round, until its thread has spent 0.6 s of CPU time there (a fixed count took 80 ms on a fast machine,
 * and 0.3 s gave under 100 samples on a loaded one: too few at one a millisecond): the wrapper's region marks read the counters, so
 * most of the rank's CPU time is inside MPI_Pcontrol, and its samples are to be filed
 * under that call at these two lines. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
#endif
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

__attribute__((noinline)) void marks(long n)
{
    for (long i = 0; i < n; i++) {
        MPI_Pcontrol(1, "loop");  /* PCONTROL_OPEN */
        MPI_Pcontrol(-1, "loop"); /* PCONTROL_CLOSE */
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long round = argc > 1 ? atol(argv[1]) : 5000;
    struct timespec t0, t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    do {
        marks(round);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    } while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 600000000L);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
