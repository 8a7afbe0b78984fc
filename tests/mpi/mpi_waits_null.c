/* mpi_waits_null.c: Wait and Test calls that complete nothing (check_mpi_trace.py
 * --part waits_null): ROUNDS times MPI_Wait, MPI_Waitall, MPI_Waitany, MPI_Waitsome,
 * MPI_Test, MPI_Testall, MPI_Testany and MPI_Testsome on MPI_REQUEST_NULL handles (as
 * LULESH's exchanges with no neighbour do): each call is one slice in the trace, as the
 * report counts it. */
#include <mpi.h>
#include <stdio.h>

#define ROUNDS 7
#define N      3

int main(int argc, char **argv)
{
    int rank, flag = -1, index = -1, outcount = -1, indices[N], bad = 0;
    MPI_Request reqs[N], req = MPI_REQUEST_NULL;
    MPI_Status sts[N];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int k = 0; k < ROUNDS; k++) {
        for (int i = 0; i < N; i++)
            reqs[i] = MPI_REQUEST_NULL;
        req = MPI_REQUEST_NULL;
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Waitall(N, reqs, sts);
        MPI_Waitany(N, reqs, &index, MPI_STATUS_IGNORE);
        bad |= index != MPI_UNDEFINED;
        MPI_Waitsome(N, reqs, &outcount, indices, sts);
        bad |= outcount != MPI_UNDEFINED;
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        bad |= !flag;
        MPI_Testall(N, reqs, &flag, sts);
        bad |= !flag;
        MPI_Testany(N, reqs, &index, &flag, MPI_STATUS_IGNORE);
        bad |= !flag || index != MPI_UNDEFINED;
        MPI_Testsome(N, reqs, &outcount, indices, sts);
        bad |= outcount != MPI_UNDEFINED;
    }
    if (bad)
        fprintf(stderr,
                "mpi_waits_null: rank %d: an MPI call returned what MPI says it "
                "cannot on null requests\n",
                rank);
    MPI_Finalize();
    return bad;
}
