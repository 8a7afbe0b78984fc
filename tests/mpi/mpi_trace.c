/* mpi_trace.c: a ring for PAPI_MPI_TRACE (check_mpi_trace.py): ROUNDS rounds of a
 * blocking send to the right and an Irecv from the left completed by MPI_Wait, one
 * Allreduce and one Barrier, all inside the MPI_Pcontrol region "ring". argv[1] = MS:
 * then each rank computes MS ms of wall time, so PAPI_INTERVAL takes samples on every
 * rank whatever the MPI's speed (the metric tracks' test). argv[2] = N: N rounds instead
 * of ROUNDS (check_mpi_trace_ranks.py: a trace of many records per rank). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 5

/* the busy work's result: kept, so that no compiler drops the loop */
static volatile double work_sink;

int main(int argc, char **argv)
{
    int rank, size, out, in = -1, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rounds = argc > 2 ? atoi(argv[2]) : ROUNDS;
    MPI_Pcontrol(1, "ring");
    for (int k = 0; k < rounds; k++) {
        MPI_Request req;
        out = rank * 100 + k;
        MPI_Irecv(&in, 1, MPI_INT, (rank + size - 1) % size, k, MPI_COMM_WORLD, &req);
        MPI_Send(&out, 1, MPI_INT, (rank + 1) % size, k, MPI_COMM_WORLD);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    MPI_Allreduce(&in, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Pcontrol(-1, "ring");
    double until = MPI_Wtime() + (argc > 1 ? atof(argv[1]) : 0) * 1e-3;
    while (MPI_Wtime() < until)
        for (int i = 0; i < 10000; i++)
            work_sink += i * 0.5;
    if (rank == 0)
        printf("sum %d\n", sum);
    MPI_Finalize();
    return 0;
}
