/* mpi_persist_reuse.c: persistent requests freed and their handles reused by new
 * *_init calls with other partners (check_mpi_trace.py --part persist_reuse). Every rank
 * of a ring, right = rank + 1, left = rank - 1, across = rank + 2:
 *   round A: MPI_Send_init to right (tag 1, 1 int), MPI_Recv_init from left; one
 *     MPI_Startall + MPI_Waitall; both freed.
 *   round B, made while recording is paused (MPI_Pcontrol(0)), then resumed
 *     (MPI_Pcontrol(1)): MPI_Send_init to left (tag 2, 2 ints), MPI_Recv_init from right;
 *     ROUNDS x (MPI_Start each + MPI_Waitall); both freed.
 *   round C: MPI_Ssend_init to across (tag 3, 3 ints), MPI_Recv_init from across; one
 *     MPI_Startall + MPI_Waitall; both freed.
 * Rank 0 prints "REUSED n": how many of rounds B's and C's handles (4) were a handle of
 * the round before, which the MPI chose to reuse.
 * With argument "drop", only: MANY MPI_Send_init to right (tag 4, 1 int), more than the
 * table of persistent requests holds, started by one MPI_Startall, received by MANY
 * MPI_Irecv from left: some requests are filed nowhere, and the partners and the event
 * log must both miss the same ones. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define ROUNDS 3
#define MANY   6000

/* More persistent requests alive at once than the table holds (4096). */
static void drop(int right, int left)
{
    static MPI_Request s[MANY], r[MANY];
    static MPI_Status st[MANY];
    static int in[MANY];
    int out = 4;
    for (int i = 0; i < MANY; i++) {
        MPI_Send_init(&out, 1, MPI_INT, right, 4, MPI_COMM_WORLD, &s[i]);
        MPI_Irecv(&in[i], 1, MPI_INT, left, 4, MPI_COMM_WORLD, &r[i]);
    }
    MPI_Startall(MANY, s);
    for (int i = 0; i < MANY; i += 50) /* the log matches 64 requests of a Waitall */
        MPI_Waitall(MANY - i < 50 ? MANY - i : 50, &r[i], st);
    MPI_Waitall(MANY, s, st);
    for (int i = 0; i < MANY; i++)
        if (in[i] != 4 || MPI_Request_free(&s[i]) != MPI_SUCCESS)
            MPI_Abort(MPI_COMM_WORLD, 1);
}

/* Whether handle h is one of the two in was[] (the round before, freed). */
static int reused(MPI_Request h, const MPI_Request was[2])
{
    return memcmp(&h, &was[0], sizeof h) == 0 || memcmp(&h, &was[1], sizeof h) == 0;
}

int main(int argc, char **argv)
{
    int rank, size, out[3] = {1, 2, 3}, in[3] = {0};
    MPI_Request rq[2], was[2];
    MPI_Status st[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size, across = (rank + 2) % size;
    if (argc > 1 && strcmp(argv[1], "drop") == 0) {
        drop(right, left);
        MPI_Finalize();
        return 0;
    }

    MPI_Send_init(out, 1, MPI_INT, right, 1, MPI_COMM_WORLD, &rq[0]);
    MPI_Recv_init(in, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &rq[1]);
    MPI_Startall(2, rq);
    MPI_Waitall(2, rq, st);
    memcpy(was, rq, sizeof rq);
    MPI_Request_free(&rq[0]);
    MPI_Request_free(&rq[1]);

    MPI_Pcontrol(0);
    MPI_Send_init(out, 2, MPI_INT, left, 2, MPI_COMM_WORLD, &rq[0]);
    MPI_Recv_init(in, 2, MPI_INT, right, 2, MPI_COMM_WORLD, &rq[1]);
    MPI_Pcontrol(1);
    int n = reused(rq[0], was) + reused(rq[1], was);
    for (int k = 0; k < ROUNDS; k++) {
        MPI_Start(&rq[1]);
        MPI_Start(&rq[0]);
        MPI_Waitall(2, rq, st);
    }
    memcpy(was, rq, sizeof rq);
    MPI_Request_free(&rq[0]);
    MPI_Request_free(&rq[1]);

    MPI_Ssend_init(out, 3, MPI_INT, across, 3, MPI_COMM_WORLD, &rq[0]);
    MPI_Recv_init(in, 3, MPI_INT, across, 3, MPI_COMM_WORLD, &rq[1]);
    n += reused(rq[0], was) + reused(rq[1], was);
    MPI_Startall(2, rq);
    MPI_Waitall(2, rq, st);
    MPI_Request_free(&rq[0]);
    MPI_Request_free(&rq[1]);
    if (rank == 0)
        printf("REUSED %d\n", n);
    MPI_Finalize();
    return 0;
}
