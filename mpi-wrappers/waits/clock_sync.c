/* clock_sync.c: clock offsets between ranks, by ping-pong against rank 0 (Cristian's
 * method: the offset from the exchange with the shortest round trip, whose half bounds
 * the error). Rank 0 serves the ranks one after the other, a few rounds each: P - 1
 * exchanges at MPI_Init and again at MPI_Finalize. Ranks of rank 0's boot (the same
 * /proc/sys/kernel/random/boot_id: one kernel, one CLOCK_MONOTONIC) have offset 0
 * exactly and skip the exchange: on a shared, oversubscribed node a round trip can
 * take milliseconds, and its half would be the error. `force` (PAPI_MPI_CLOCK_PINGPONG=1)
 * makes them exchange all the same (tests of the exchange on one node). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock_sync.h"
#include "clock.h"

#define ROUNDS 4
#define TAG    7301

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

void pmpi_clock_sync(MPI_Comm comm, int force, double *offset_ns, double *residual_ns)
{
    int rank = 0, size = 1;
    char mine[40], root[40];
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    *offset_ns = 0;
    *residual_ns = 0;
    boot_id(mine);
    memcpy(root, mine, sizeof root);
    PMPI_Bcast(root, (int)sizeof root, MPI_CHAR, 0, comm);
    int same = mine[0] && strcmp(mine, root) == 0 && !force;
    int *same_all = rank == 0 ? calloc((size_t)size, sizeof(int)) : NULL;
    int ok = rank != 0 || same_all, all = 0;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    if (all)
        PMPI_Gather(&same, 1, MPI_INT, same_all, 1, MPI_INT, 0, comm);
    else
        same = 0; /* no memory on rank 0: every rank exchanges */
    if (same && rank != 0)
        return;
    if (rank == 0) {
        for (int r = 1; r < size; r++)
            for (int k = 0; k < ROUNDS && !(all && same_all[r]); k++) {
                long long ping = 0, now;
                PMPI_Recv(&ping, 1, MPI_LONG_LONG, r, TAG, comm, MPI_STATUS_IGNORE);
                now = pmpi_now_ns();
                PMPI_Send(&now, 1, MPI_LONG_LONG, r, TAG, comm);
            }
        free(same_all);
        return;
    }
    double best_rtt = -1;
    for (int k = 0; k < ROUNDS; k++) {
        long long ta = pmpi_now_ns(), t0 = 0;
        PMPI_Send(&ta, 1, MPI_LONG_LONG, 0, TAG, comm);
        PMPI_Recv(&t0, 1, MPI_LONG_LONG, 0, TAG, comm, MPI_STATUS_IGNORE);
        long long tb = pmpi_now_ns();
        double rtt = (double)(tb - ta);
        if (best_rtt < 0 || rtt < best_rtt) {
            best_rtt = rtt;
            *offset_ns = ((double)ta + (double)tb) / 2 - (double)t0;
        }
    }
    *residual_ns = best_rtt / 2;
}
