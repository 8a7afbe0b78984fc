/* mpi_metrics: rank r uses (r + 1) x 0.05 s of CPU time, then sleeps until 2 s after
 * MPI_Init, with no MPI call in between (a waiting MPI call may poll and use CPU): the
 * ranks' CPU_UTILIZATION grows with the rank (check_mpi_metrics.py). */
#include <mpi.h>
#include <time.h>
#include <unistd.h>

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    double start = clock_s(CLOCK_MONOTONIC), cpu0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    volatile unsigned long x = 0;
    /* Little CPU against a long common wall time: the ranks keep their order on a loaded
     * machine (with 0.1 s steps in 1 s, ranks 2 and 3 came out 0.188 and 0.22 at a load of
     * 8 on 2 cores: a spinner that gets a third of a CPU stretches its own wall time). */
    while (clock_s(CLOCK_PROCESS_CPUTIME_ID) - cpu0 < 0.05 * (rank + 1))
        x++;
    double left = 2.0 - (clock_s(CLOCK_MONOTONIC) - start);
    if (left > 0)
        usleep((useconds_t)(left * 1e6));
    MPI_Finalize();
    return 0;
}
