/* mpi_pattern.c: a fixed MPI call pattern whose call counts and bytes the checker
 * (check_report.py) knows exactly. Rank r also touches (r+1) x N fresh pages between
 * MPI_Init and MPI_Finalize (N = argv[1]). argv[2] = "abort" makes rank 1 call
 * MPI_Abort after its first collectives; "exit" makes every rank exit() there without
 * MPI_Finalize; "signal" makes rank 0 raise SIGTERM there. Uses no PAPI call: it runs unmodified under
 * LD_PRELOAD as well as linked to the wrapper library. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "test_workload.h"

static const int sizes[] = {0, 8, 1000, 65536};
enum { REPS = 5, NDBL = 100 };

static void point_to_point(int rank, int partner, char *buf)
{
    int even = rank % 2 == 0;
    for (int s = 0; s < 4; s++)
        for (int r = 0; r < REPS; r++) {
            if (even) {
                MPI_Send(buf, sizes[s], MPI_BYTE, partner, 1, MPI_COMM_WORLD);
                MPI_Recv(buf, sizes[s], MPI_BYTE, partner, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, sizes[s], MPI_BYTE, partner, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, sizes[s], MPI_BYTE, partner, 1, MPI_COMM_WORLD);
            }
        }
    double out[NDBL] = {0}, in[NDBL];
    MPI_Request req[2];
    MPI_Irecv(in, NDBL, MPI_DOUBLE, partner, 2, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(out, NDBL, MPI_DOUBLE, partner, 2, MPI_COMM_WORLD, &req[1]);
    MPI_Status sts[2];
    MPI_Waitall(2, req, sts);
    int si[10] = {0}, ri[10];
    MPI_Sendrecv(si, 10, MPI_INT, partner, 3, ri, 10, MPI_INT, partner, 3, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (even) {
        MPI_Send(si, 3, MPI_INT, partner, 4, MPI_COMM_WORLD);
    } else {
        MPI_Status st;
        MPI_Probe(partner, 4, MPI_COMM_WORLD, &st);
        MPI_Recv(ri, 3, MPI_INT, partner, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    long pages = argc > 1 ? atol(argv[1]) : 0;
    int do_abort = argc > 2 && strcmp(argv[2], "abort") == 0;
    int do_exit = argc > 2 && strcmp(argv[2], "exit") == 0;
    int do_signal = argc > 2 && strcmp(argv[2], "signal") == 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    touch_pages((rank + 1) * pages);

    char *buf = calloc(65536, 1);
    int partner = rank ^ 1;
    if (partner < size)
        point_to_point(rank, partner, buf);

    double d[NDBL] = {0};
    MPI_Bcast(d, NDBL, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    int a[10] = {0}, b[10];
    MPI_Allreduce(a, b, 10, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (do_abort && rank == 1) {
        usleep(300000); /* time for PAPI_MPI_CHECKPOINT snapshots of the waiting ranks */
        fprintf(stderr, "rank 1: calling MPI_Abort on purpose\n");
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    if (do_exit)
        exit(0);
    if (do_signal && rank == 0)
        raise(SIGTERM);
    double r5[5] = {0}, r5o[5];
    MPI_Reduce(r5, r5o, 5, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    int one = rank, *all = calloc((size_t)size * 2, sizeof(int));
    MPI_Gather(&one, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    int *a2 = calloc((size_t)size * 2, sizeof(int));
    MPI_Alltoall(a2, 2, MPI_INT, all, 2, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < 3; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    MPI_Request rq;
    MPI_Ibarrier(MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    double x4[4] = {0}, y4[4];
    MPI_Iallreduce(x4, y4, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    int me;
    for (int i = 0; i < 100; i++)
        MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Pcontrol(1, "tail");
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Pcontrol(-1, "tail");
    /* MPI_PROC_NULL partners: the calls count, no byte moves. */
    MPI_Send(buf, 100, MPI_BYTE, MPI_PROC_NULL, 9, MPI_COMM_WORLD);
    MPI_Recv(buf, 100, MPI_BYTE, MPI_PROC_NULL, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    free(buf);
    free(all);
    free(a2);
    MPI_Finalize();
    return 0;
}
