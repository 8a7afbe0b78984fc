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
#include <limits.h>

#include "finalize_agreement.h"
#include "idle_wait.h"

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

/* A minimum travels negated through MPI_MAX (LLONG_MIN has no negation: -LLONG_MAX). */
static long long negate(long long v)
{
    return v == LLONG_MIN ? LLONG_MAX : -v;
}

/* One reduction of the pairs of one kind (sums, or minima and maxima) into out's
 * values; returns the MPI's code (MPI_SUCCESS when there are none). */
static int reduce_kind(MPI_Comm comm, const long long *pairs, long long *out, int count, int sums)
{
    long long in[PMPI_AGREE_SLOTS], red[PMPI_AGREE_SLOTS];
    int k = 0;
    for (int i = 0; i < count; i++)
        if ((pairs[2 * i] == PMPI_AGREE_SUM) == sums)
            in[k++] = pairs[2 * i] == PMPI_AGREE_MIN ? negate(pairs[2 * i + 1]) : pairs[2 * i + 1];
    if (k == 0)
        return MPI_SUCCESS;
    MPI_Request req;
    int rc = PMPI_Iallreduce(in, red, k, MPI_LONG_LONG, sums ? MPI_SUM : MPI_MAX, comm, &req);
    if (rc == MPI_SUCCESS)
        rc = pmpi_idle_wait(&req, MPI_STATUS_IGNORE);
    k = 0;
    for (int i = 0; i < count && rc == MPI_SUCCESS; i++)
        if ((pairs[2 * i] == PMPI_AGREE_SUM) == sums) {
            out[2 * i + 1] = pairs[2 * i] == PMPI_AGREE_MIN ? negate(red[k]) : red[k];
            k++;
        }
    return rc;
}

int pmpi_agree_pairs(MPI_Comm comm, const long long *pairs, long long *out, int count)
{
    if (count < 0 || count > PMPI_AGREE_SLOTS)
        return MPI_ERR_COUNT; /* the same count on every rank: none reduces */
    for (int i = 0; i < 2 * count; i++)
        out[i] = pairs[i];
    int rc = reduce_kind(comm, pairs, out, count, 0);
    int rs = reduce_kind(comm, pairs, out, count, 1);
    return rc != MPI_SUCCESS ? rc : rs;
}

int pmpi_agree_run(MPI_Comm comm)
{
    long long pairs[2 * PMPI_AGREE_SLOTS] = {0}, out[2 * PMPI_AGREE_SLOTS];
    int count = n - round_start;
    for (int i = 0; i < count; i++) {
        pairs[2 * i] = slot_op[round_start + i];
        pairs[2 * i + 1] = slot_value[round_start + i];
    }
    int rc = pmpi_agree_pairs(comm, pairs, out, count);
    for (int i = 0; i < count; i++) {
        long long *v = &slot_value[round_start + i];
        if (rc == MPI_SUCCESS)
            *v = out[2 * i + 1];
        else if (slot_op[round_start + i] == PMPI_AGREE_MIN)
            *v = 0; /* "every rank can" cannot be known */
    }
    round_start = n;
    return rc == MPI_SUCCESS ? 0 : -1;
}

long long pmpi_agree_value(int handle)
{
    return handle >= 0 && handle < n ? slot_value[handle] : 0;
}

static MPI_Comm own_comm = MPI_COMM_NULL;

void pmpi_own_comm_open(void)
{
    MPI_Errhandler eh;
    if (own_comm == MPI_COMM_NULL) {
        if (PMPI_Comm_dup(MPI_COMM_WORLD, &own_comm) != MPI_SUCCESS)
            own_comm = MPI_COMM_NULL;
        return;
    }
    /* opened at MPI_Init: MPI_COMM_WORLD's error handler as it is now, as a duplicate
     * made now would have it (the program may have set its own since); local calls */
    if (PMPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh) == MPI_SUCCESS) {
        PMPI_Comm_set_errhandler(own_comm, eh);
        PMPI_Errhandler_free(&eh);
    }
}

MPI_Comm pmpi_own_comm(void)
{
    return own_comm != MPI_COMM_NULL ? own_comm : MPI_COMM_WORLD;
}

void pmpi_own_comm_close(void)
{
    if (own_comm != MPI_COMM_NULL)
        PMPI_Comm_free(&own_comm);
}
