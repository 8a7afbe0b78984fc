/* report_traffic: an MPI program with known per-rank work and known point-to-point
 * traffic, for the papi_report checks (check_papi_report.py knows the pattern and
 * compares the report's tables with it). Argument: ms per unit of work. On P ranks,
 * rank r (world):
 *   1. computes (r + 1) units of busy work;
 *   2. MPI_Isend (r + 1) * (q + 1) * 100 bytes to every other rank q (MPI_COMM_WORLD,
 *      received with MPI_Recv from MPI_ANY_SOURCE);
 *   3. persistent requests on a communicator with the ranks reversed (rank P-1-r):
 *      MPI_Send_init of 1000 + 10 r bytes to its next rank there (world rank r - 1),
 *      MPI_Recv_init from its previous, started REPS times with MPI_Startall;
 *   4. MPI_Sendrecv of 50 (r + 1) bytes on a periodic Cartesian communicator made from
 *      the reversed one, shifted by 2 (world rank r - 2), or by 1 when P < 3;
 *   5. MPI_Send of 7 (r + 1) bytes on a duplicate of MPI_COMM_WORLD to rank r + 1;
 *   6. twice, a communicator made and freed (its handle is reused): ranks in order,
 *      MPI_Send of 11 (r + 1) bytes to the next (world r + 1); then reversed, 22 (r + 1)
 *      bytes to the next (world r - 1): a translation kept past MPI_Comm_free would
 *      send the second to the wrong rank;
 *   7. one MPI_Allreduce of 8 bytes.
 * Ranks are modulo P. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_workload.h"

#define REPS 3

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double unit = (argc > 1 ? atof(argv[1]) : 20.0) * 1e-3;
    test_spin(unit * (rank + 1));
    int max = size * size * 100 + 2000 + 100 * size;
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

    /* 3. Persistent requests on the reversed communicator. */
    MPI_Comm rev, cart, dup;
    int k;
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - 1 - rank, &rev);
    MPI_Comm_rank(rev, &k);
    MPI_Request p[2];
    MPI_Pcontrol(1, "persistent"); /* a region on every rank, entered once per start */
    MPI_Send_init(out, 1000 + 10 * rank, MPI_BYTE, (k + 1) % size, 8, rev, &p[0]);
    MPI_Recv_init(in, max, MPI_BYTE, (k + size - 1) % size, 8, rev, &p[1]);
    for (int i = 0; i < REPS; i++) {
        MPI_Pcontrol(1, "start");
        MPI_Startall(2, p);
        MPI_Waitall(2, p, st);
        MPI_Pcontrol(-1, "start");
    }
    MPI_Pcontrol(-1, "persistent");
    MPI_Request_free(&p[0]);
    MPI_Request_free(&p[1]);

    /* 4. Cartesian, shifted by 2 (by 1 on fewer than 3 ranks). */
    int dims[1] = {size}, periods[1] = {1}, src, dst;
    MPI_Cart_create(rev, 1, dims, periods, 0, &cart);
    MPI_Cart_shift(cart, 0, size < 3 ? 1 : 2, &src, &dst);
    MPI_Sendrecv(out, 50 * (rank + 1), MPI_BYTE, dst, 9, in, max, MPI_BYTE, src, 9, cart,
                 MPI_STATUS_IGNORE);

    /* 5. A duplicate of MPI_COMM_WORLD (a region on the odd ranks only). */
    if (rank % 2)
        MPI_Pcontrol(1, "odd_ranks");
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Send_init(out, 1, MPI_BYTE, (rank + 1) % size, 10, dup, &p[0]); /* freed unstarted */
    MPI_Request_free(&p[0]);
    MPI_Isend(out, 7 * (rank + 1), MPI_BYTE, (rank + 1) % size, 10, dup, &req[0]);
    MPI_Recv(in, max, MPI_BYTE, (rank + size - 1) % size, 10, dup, MPI_STATUS_IGNORE);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    if (rank % 2)
        MPI_Pcontrol(-1, "odd_ranks");

    /* 6. A communicator made and freed twice: in order, then reversed. */
    for (int pass = 0; pass < 2; pass++) {
        MPI_Comm c;
        int me;
        MPI_Comm_split(MPI_COMM_WORLD, 0, pass ? size - 1 - rank : rank, &c);
        MPI_Comm_rank(c, &me);
        MPI_Isend(out, 11 * (pass + 1) * (rank + 1), MPI_BYTE, (me + 1) % size, 11, c, &req[0]);
        MPI_Recv(in, max, MPI_BYTE, (me + size - 1) % size, 11, c, MPI_STATUS_IGNORE);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        MPI_Comm_free(&c);
    }
    MPI_Comm_free(&dup);
    MPI_Comm_free(&cart);
    MPI_Comm_free(&rev);

    double v = rank, sum = 0;
    MPI_Allreduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    free(out);
    free(in);
    MPI_Finalize();
    return sum == size * (size - 1) / 2.0 ? 0 : 1;
}
