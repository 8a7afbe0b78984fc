/* mpi_hybrid_regions.c: parallel regions under MPI_Pcontrol regions, 2 ranks x 4 threads
 * (check_hybrid_regions.py). One parallel loop (one code address) in each rank runs in
 * the MPI_Pcontrol region "imbalanced" (thread t of 4 works t+1 units: load balance
 * 2.5/4 = 0.625), then in "balanced" after one unit of serial time (each thread one
 * unit: load balance 1.0, serialization 1/2), then outside both. Each rank prints its
 * loop's line, each region's serialization by its own clock (the loop's time over the
 * region's) and each thread's work in each place (work_ms) as JSON. Unchanged: MPI and
 * OpenMP only. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

#include "ompt_sleep.h" /* UNIT_MS, sleep_ms_timed */

/* Twice the OpenMP tests' unit: 2 ranks x 4 threads share the machine's cores here, and a
 * sleeper woken a few ms late must stay a small part of its unit for the staged shapes. */
#define HYBRID_UNIT_MS (2 * UNIT_MS)

static int loop_line;

/* Each thread's work in each place (ms) by the rank's own clock: a loaded machine wakes a
 * sleeper late, and the tool's load balance is judged against what ran. */
static double work_ms[3][4];

static void spread(int imbalanced, int place)
{
    loop_line = __LINE__ + 1;
#pragma omp parallel for schedule(static) num_threads(4)
    for (int i = 0; i < 4; i++) {
        double took = sleep_ms_timed(HYBRID_UNIT_MS * (imbalanced ? i + 1 : 1));
#pragma omp critical /* each thread once: a construct of the region (issue 73) */
        work_ms[place][i] = took;
    }
}

/* The region's serialization by this rank's clock. */
static double region(char *name, int imbalanced, int serial_ms, int place)
{
    MPI_Pcontrol(1, name);
    double t = MPI_Wtime();
    sleep_ms(serial_ms);
    double fork = MPI_Wtime();
    spread(imbalanced, place);
    double join = MPI_Wtime();
    MPI_Pcontrol(-1, name);
    return (join - fork) / (join - t);
}

int main(int argc, char **argv)
{
    int provided, rank;
#pragma omp parallel num_threads(4)
    (void)omp_get_thread_num(); /* the runtime and its threads start before MPI_Init */
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double imb = region("imbalanced", 1, 0, 0);
    double bal = region("balanced", 0, HYBRID_UNIT_MS, 1);
    spread(0, 2);
    MPI_Barrier(MPI_COMM_WORLD);
    /* the line made whole first and written at once: mpirun may forward a rank's output
     * as it comes, and two ranks' pieces of one line would interleave */
    char line[1024];
    int n = snprintf(line, sizeof line,
                     "{\"rank\": %d, \"file\": \"%s\", \"loop_line\": %d, "
                     "\"imbalanced_serialization\": %.4f, \"balanced_serialization\": %.4f, "
                     "\"work_ms\": {",
                     rank, __FILE__, loop_line, imb, bal);
    static const char *place[3] = {"imbalanced", "balanced", "outside"};
    for (int p = 0; p < 3; p++)
        n += snprintf(line + n, sizeof line - (size_t)n, "%s\"%s\": [%.3f, %.3f, %.3f, %.3f]",
                      p ? ", " : "", place[p], work_ms[p][0], work_ms[p][1], work_ms[p][2],
                      work_ms[p][3]);
    printf("%s}}\n", line);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
