/* report_traffic: an MPI program with known per-rank work and known point-to-point
 * traffic, for the papi_report checks. Rank r computes (r + 1) units of busy work, then
 * sends (r + 1) * (q + 1) * 100 bytes to every other rank q (MPI_Isend, received with
 * MPI_Recv from MPI_ANY_SOURCE), then one MPI_Allreduce of 8 bytes. check_papi_report.py
 * knows the pattern and compares the report's tables with it. Argument: ms per unit. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Busy work of the given length (a loop the compiler cannot drop). */
static double spin(double seconds)
{
    volatile double x = 1.0;
    double end = now() + seconds;
    while (now() < end)
        for (int i = 0; i < 1000; i++)
            x = x * 1.0000001 + 1e-9;
    return x;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double unit = (argc > 1 ? atof(argv[1]) : 20.0) * 1e-3;
    spin(unit * (rank + 1));
    int max = size * size * 100;
    char *out = calloc((size_t)max, 1), *in = calloc((size_t)max, 1);
    MPI_Request req[64];
    MPI_Status st[64];
    int n = 0;
    if (size > 64)
        MPI_Abort(MPI_COMM_WORLD, 2); /* the checker runs 4 ranks */
    for (int q = 0; q < size; q++)
        if (q != rank)
            MPI_Isend(out, (rank + 1) * (q + 1) * 100, MPI_BYTE, q, 7, MPI_COMM_WORLD, &req[n++]);
    for (int k = 0; k < size - 1; k++)
        MPI_Recv(in, max, MPI_BYTE, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Waitall(n, req, st);
    double v = rank, sum = 0;
    MPI_Allreduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    free(out);
    free(in);
    MPI_Finalize();
    return sum == size * (size - 1) / 2.0 ? 0 : 1;
}
