/* clock_sync.c: clock offsets between ranks, measured in a binomial tree rooted at rank
 * 0: each rank against its parent (the rank with its lowest set bit cleared) by
 * ping-pong (Cristian's method: the offset from the exchange with the shortest round
 * trip, whose half bounds the error), then its parent's offset to rank 0 added. A rank
 * syncs with its parent first and then serves its children, the largest subtree first,
 * as a binomial broadcast does: about log2 P rounds of exchanges, where rank 0 serving
 * every rank in turn took P - 1 (1-2 s at 100,000 ranks, twice a job). The error bound
 * of a composed offset is the sum of the round-trip halves along the path to rank 0.
 * A rank of its parent's boot (the same /proc/sys/kernel/random/boot_id: one kernel,
 * one CLOCK_MONOTONIC) has offset 0 to it exactly and skips the ping-pong: on a shared,
 * oversubscribed node a round trip can take milliseconds, and its half would be the
 * error. `force` (PAPI_MPI_CLOCK_PINGPONG=1) makes them exchange all the same (tests of
 * the exchange on one node). Point-to-point only: no collective. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock_sync.h"
#include "clock.h"
#include "idle_wait.h"

#define ROUNDS 4
#define TAG    7301

/* A partner's first message, which may come after a whole subtree's exchanges: waited
 * for without holding a core (idle_wait.c). The ping-pongs that follow spin: their
 * round trips are the measurement. */
static void recv_first(void *buf, int n, MPI_Datatype t, int from, MPI_Comm comm)
{
    MPI_Request req;
    pmpi_idle_complete(PMPI_Irecv(buf, n, t, from, TAG, comm, &req), &req);
}

/* This kernel's boot id (36 characters), or "" when unreadable. */
static void boot_id(char id[40])
{
    memset(id, 0, 40);
    int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    ssize_t n = read(fd, id, 39);
    close(fd);
    if (n < 36)
        memset(id, 0, 40);
    id[36] = '\0';
}

/* The parent's side with child c: the child's boot id in, then whether they share a
 * clock, the parent's own offset and bound out, then the ping-pongs unless shared. */
static void serve(MPI_Comm comm, int c, const char *mine, int force, const double own[2])
{
    char theirs[40];
    recv_first(theirs, (int)sizeof theirs, MPI_CHAR, c, comm);
    theirs[39] = '\0';
    double head[3] = {mine[0] && strcmp(mine, theirs) == 0 && !force, own[0], own[1]};
    PMPI_Send(head, 3, MPI_DOUBLE, c, TAG, comm);
    for (int k = 0; k < ROUNDS && !head[0]; k++) {
        long long ping = 0, now;
        PMPI_Recv(&ping, 1, MPI_LONG_LONG, c, TAG, comm, MPI_STATUS_IGNORE);
        now = pmpi_now_ns();
        PMPI_Send(&now, 1, MPI_LONG_LONG, c, TAG, comm);
    }
}

/* The child's side with parent p: own[0] its offset to rank 0, own[1] the bound. */
static void sync_with(MPI_Comm comm, int p, const char *mine, double own[2])
{
    double head[3] = {0, 0, 0}, best_rtt = -1, off = 0;
    PMPI_Send(mine, 40, MPI_CHAR, p, TAG, comm);
    recv_first(head, 3, MPI_DOUBLE, p, comm);
    for (int k = 0; k < ROUNDS && !head[0]; k++) {
        long long ta = pmpi_now_ns(), t0 = 0;
        PMPI_Send(&ta, 1, MPI_LONG_LONG, p, TAG, comm);
        PMPI_Recv(&t0, 1, MPI_LONG_LONG, p, TAG, comm, MPI_STATUS_IGNORE);
        long long tb = pmpi_now_ns();
        double rtt = (double)(tb - ta);
        if (best_rtt < 0 || rtt < best_rtt) {
            best_rtt = rtt;
            off = ((double)ta + (double)tb) / 2 - (double)t0;
        }
    }
    own[0] = off + head[1];
    own[1] = (best_rtt > 0 ? best_rtt / 2 : 0) + head[2];
}

void pmpi_clock_sync(MPI_Comm comm, int force, double *offset_ns, double *residual_ns)
{
    int rank = 0, size = 1;
    char mine[40];
    double own[2] = {0, 0};
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    boot_id(mine);
    int low = rank & -rank; /* the lowest set bit: the children are below it */
    if (rank != 0)
        sync_with(comm, rank - low, mine, own);
    int top = 1;
    while (top < size && (rank == 0 || top < low))
        top <<= 1;
    for (int bit = top >> 1; bit > 0; bit >>= 1) /* the largest subtree first */
        if (rank + bit < size && (rank == 0 || bit < low))
            serve(comm, rank + bit, mine, force, own);
    *offset_ns = own[0];
    *residual_ns = own[1];
}
