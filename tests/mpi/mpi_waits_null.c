/* mpi_waits_null.c: Wait and Test calls that complete nothing (check_mpi_trace.py
 * --part waits_null): ROUNDS times MPI_Wait, MPI_Waitall, MPI_Waitany, MPI_Waitsome,
 * MPI_Test, MPI_Testall, MPI_Testany and MPI_Testsome on MPI_REQUEST_NULL handles (as
 * LULESH's exchanges with no neighbour do): each call is one slice in the trace, as the
 * report counts it. Then polling loops: each of the four Test forms polls a receive from
 * the left neighbour, whose send comes after 2 ms of its own polling, so most polls return
 * not done: the trace's calls (each slice's args.calls) still equal the report's. */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

#define ROUNDS 7
#define N      3

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One receive from the left polled with Test form `form` until done; the send to the
 * right made after 2 ms of polling (MPI_Wtime is not called: it would end the run of
 * polls). Returns the polls that found it not done. */
static long poll_round(int form, int rank, int size)
{
    int in = -1, out = rank, flag = 0, index = -1, outcount = 0, indices[2], sent = 0;
    MPI_Request reqs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Status sts[2];
    long polls = 0;
    MPI_Irecv(&in, 1, MPI_INT, (rank + size - 1) % size, form, MPI_COMM_WORLD, &reqs[0]);
    double t0 = now_s();
    for (;;) {
        /* once done, no call on its null handle (a record each) while it sends */
        if (flag == 0 && form == 0)
            MPI_Test(&reqs[0], &flag, MPI_STATUS_IGNORE);
        else if (flag == 0 && form == 1)
            MPI_Testany(2, reqs, &index, &flag, MPI_STATUS_IGNORE);
        else if (flag == 0 && form == 2)
            MPI_Testall(2, reqs, &flag, sts);
        else if (flag == 0) {
            MPI_Testsome(2, reqs, &outcount, indices, sts);
            flag = outcount > 0 || outcount == MPI_UNDEFINED; /* done, or done before */
        }
        polls += !flag;
        if (!sent && now_s() - t0 > 0.002) {
            MPI_Send(&out, 1, MPI_INT, (rank + 1) % size, form, MPI_COMM_WORLD);
            sent = 1;
        }
        if (flag && sent)
            return polls;
    }
}

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
    int size;
    long polls = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int k = 0; k < ROUNDS; k++)
        for (int form = 0; form < 4; form++)
            polls += poll_round(form, rank, size);
    printf("mpi_waits_null: rank %d: %ld polls not done\n", rank, polls);
    if (bad)
        fprintf(stderr,
                "mpi_waits_null: rank %d: an MPI call returned what MPI says it "
                "cannot on null requests\n",
                rank);
    MPI_Finalize();
    return bad;
}
