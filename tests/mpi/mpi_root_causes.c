/* mpi_root_causes.c: staged imbalance with known root causes (check_root_causes.py, the
 * delay analysis of papi_report's event-log path). Work is a timed busy loop (not a
 * sleep: the analysis compares compute time) in the MPI_Pcontrol region "assemble".
 *   pipeline (4 ranks): after a barrier every rank works 100 ms, rank 0 400 ms; rank 0
 *     sends to rank 1, which receives then sends to rank 2, which sends to rank 3: ranks
 *     1-3 wait about 300 ms each in MPI_Recv (late sender), all caused by rank 0's extra
 *     300 ms: 0.3 s direct, 0.6 s propagated (through the waits of ranks 1 and 2).
 *   allreduce (4 ranks): after a barrier rank k works (k+1) x 100 ms, then MPI_Allreduce:
 *     ranks 0-2 wait 300, 200, 100 ms (N x N), all caused by rank 3's work, direct.
 *   two_imbalances (4 ranks, --advise): rank 0 works 250 ms in "io" then sends to ranks 1
 *     and 2 (500 ms of late-sender waits); rank 3 works 300 ms in "fft": ranks 0-2 wait
 *     50 ms each for it in the final barrier (150 ms). fft sets the wall time, io does not.
 *   chain, chain_without_extra (4 ranks, --advise and --compare): every rank works 50 ms
 *     in "assemble", rank 0 then 300 ms in "extra" (chain only) before the pipeline
 *     0 -> 1 -> 2 -> 3: removing extra saves 300 ms of the wall time.
 *   waitall (4 ranks): rank k < 3 works (k+1) x 100 ms then sends to rank 3, which works
 *     50 ms and receives all three in one MPI_Waitall: one wait of 250 ms (the log has a
 *     record per request), caused by rank 2's work, direct.
 * A final barrier, then MPI_Finalize. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Busy for s seconds of wall-clock time in region: compute, as the analysis sees it. */
static void work_in(const char *region, double s)
{
    volatile double x = 0;
    double end = now() + s;
    MPI_Pcontrol(1, region);
    while (now() < end)
        for (int i = 0; i < 1000; i++)
            x += 1e-9 * i;
    MPI_Pcontrol(-1, region);
}

static void work(double s)
{
    work_in("assemble", s);
}

/* Each rank after the previous one: receive from rank - 1, send to rank + 1. */
static void pass_on(int rank, int size)
{
    int token = 0;
    if (rank > 0)
        MPI_Recv(&token, 1, MPI_INT, rank - 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank < size - 1)
        MPI_Send(&token, 1, MPI_INT, rank + 1, 7, MPI_COMM_WORLD);
}

static void pipeline(int rank, int size)
{
    work(rank == 0 ? 0.4 : 0.1);
    pass_on(rank, size);
}

static void chain(int rank, int size, int extra)
{
    work(0.05);
    if (rank == 0 && extra)
        work_in("extra", 0.3);
    pass_on(rank, size);
}

static void two_imbalances(int rank)
{
    int token = 0;
    if (rank == 0) {
        work_in("io", 0.25);
        MPI_Send(&token, 1, MPI_INT, 1, 8, MPI_COMM_WORLD);
        MPI_Send(&token, 1, MPI_INT, 2, 8, MPI_COMM_WORLD);
    } else if (rank < 3) {
        MPI_Recv(&token, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        work_in("fft", 0.3);
    }
}

static void waitall(int rank, int size)
{
    int token = rank, got[3] = {0, 0, 0};
    if (rank < 3) {
        work(0.1 * (rank + 1));
        MPI_Send(&token, 1, MPI_INT, 3, 9, MPI_COMM_WORLD);
    } else if (rank == 3) {
        MPI_Request req[3];
        MPI_Status st[3];
        work(0.05);
        for (int k = 0; k < 3; k++)
            MPI_Irecv(&got[k], 1, MPI_INT, k, 9, MPI_COMM_WORLD, &req[k]);
        MPI_Waitall(3, req, st);
    }
    (void)size;
}

static void allreduce(int rank)
{
    double in = rank, out = 0;
    work(0.1 * (rank + 1));
    MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mode = argc > 1 ? argv[1] : "pipeline";
    MPI_Barrier(MPI_COMM_WORLD);
    if (strcmp(mode, "pipeline") == 0)
        pipeline(rank, size);
    else if (strcmp(mode, "allreduce") == 0)
        allreduce(rank);
    else if (strcmp(mode, "two_imbalances") == 0)
        two_imbalances(rank);
    else if (strcmp(mode, "waitall") == 0)
        waitall(rank, size);
    else if (strncmp(mode, "chain", 5) == 0)
        chain(rank, size, strcmp(mode, "chain") == 0);
    else if (rank == 0)
        fprintf(stderr, "mpi_root_causes: unknown mode %s\n", mode);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
