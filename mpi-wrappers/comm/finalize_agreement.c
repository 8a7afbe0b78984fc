/* finalize_agreement.c: the finalize steps' agreements ("every rank has its buffers",
 * "the most sequence numbers", "rank 0 has a directory") folded into one MPI_Allreduce
 * per round instead of one per integer: at 256 ranks oversubscribed on 2 cores each
 * world-wide collective cost 2 to 5 s, and the wait-state step alone made 13. A round's
 * minima and maxima travel in one MPI_Allreduce (MPI_MAX) of long long, a minimum as the
 * maximum of its negation; a round with sums adds one MPI_SUM vector. Built-in
 * operations only: nothing to create that could fail on one rank.
 * The steps share one communicator too, the wrapper's own, made at MPI_Init: each
 * PMPI_Comm_dup agrees on a context id, a collective of its own. Finalize (and
 * MPI_Init) run on one thread: no lock. */
#include "finalize_agreement.h"

static long long slot_op[PMPI_AGREE_HANDLES], slot_value[PMPI_AGREE_HANDLES];
static int round_start, n; /* the round being filled: handles round_start..n-1 */

int pmpi_agree_add(enum pmpi_agree_op op, long long value)
{
    if (n >= PMPI_AGREE_HANDLES || n - round_start >= PMPI_AGREE_SLOTS)
        return -1;
    slot_op[n] = op;
    slot_value[n] = value;
    return n++;
}

/* One reduction of the round's slots of one kind (sums, or minima and maxima): 0, or
 * -1 when the MPI failed (then "every rank can" reads 0). */
static int reduce_kind(MPI_Comm comm, int sums)
{
    long long in[PMPI_AGREE_SLOTS], out[PMPI_AGREE_SLOTS];
    int k = 0;
    for (int h = round_start; h < n; h++)
        if ((slot_op[h] == PMPI_AGREE_SUM) == sums)
            in[k++] = slot_op[h] == PMPI_AGREE_MIN ? -slot_value[h] : slot_value[h];
    if (k == 0)
        return 0;
    int rc = PMPI_Allreduce(in, out, k, MPI_LONG_LONG, sums ? MPI_SUM : MPI_MAX, comm);
    k = 0;
    for (int h = round_start; h < n; h++) {
        if ((slot_op[h] == PMPI_AGREE_SUM) != sums)
            continue;
        if (rc == MPI_SUCCESS)
            slot_value[h] = slot_op[h] == PMPI_AGREE_MIN ? -out[k] : out[k];
        else if (slot_op[h] == PMPI_AGREE_MIN)
            slot_value[h] = 0; /* "every rank can" cannot be known */
        k++;
    }
    return rc == MPI_SUCCESS ? 0 : -1;
}

int pmpi_agree_run(MPI_Comm comm)
{
    int rc = reduce_kind(comm, 0);
    rc |= reduce_kind(comm, 1);
    round_start = n;
    return rc;
}

long long pmpi_agree_value(int handle)
{
    return handle >= 0 && handle < n ? slot_value[handle] : 0;
}

static MPI_Comm own_comm = MPI_COMM_NULL;

void pmpi_own_comm_open(void)
{
    if (own_comm == MPI_COMM_NULL && PMPI_Comm_dup(MPI_COMM_WORLD, &own_comm) != MPI_SUCCESS)
        own_comm = MPI_COMM_NULL;
}

MPI_Comm pmpi_own_comm(void)
{
    pmpi_own_comm_open();
    return own_comm != MPI_COMM_NULL ? own_comm : MPI_COMM_WORLD;
}

void pmpi_own_comm_close(void)
{
    if (own_comm != MPI_COMM_NULL)
        PMPI_Comm_free(&own_comm);
}
