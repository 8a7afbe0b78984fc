/* mpi_series_spin: rank r of N uses (r + 1) / (N + 1) of 0.1 s of CPU time, then sleeps
 * to the end of the 0.1 s period, 8 periods, with no MPI call in between: the ranks'
 * CPU_UTILIZATION per interval differs (check_mpi_series_metrics.py). argv[1]: finish
 * (MPI_Finalize), exit (exit(0) without MPI_Finalize: the exit row) or kill (SIGKILL:
 * only the checkpoint row is left). */
#include <mpi.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PERIODS 8
#define PERIOD_S 0.1

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int rank, size;
    const char *mode = argc > 1 ? argv[1] : "finish";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double start = clock_s(CLOCK_MONOTONIC), share = (double)(rank + 1) / (size + 1);
    volatile unsigned long x = 0;
    for (int p = 0; p < PERIODS; p++) {
        double cpu0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
        while (clock_s(CLOCK_THREAD_CPUTIME_ID) - cpu0 < share * PERIOD_S)
            x++;
        double left = start + (p + 1) * PERIOD_S - clock_s(CLOCK_MONOTONIC);
        if (left > 0)
            usleep((useconds_t)(left * 1e6));
    }
    if (!strcmp(mode, "exit"))
        exit(0);
    if (!strcmp(mode, "kill"))
        raise(SIGKILL);
    MPI_Finalize();
    return 0;
}
