/* finalize_agreement.c: the finalize steps' agreements ("every rank has its buffers",
 * "the most sequence numbers", "every rank computed its waits") folded into one
 * MPI_Allreduce per round instead of one per integer: at 256 ranks oversubscribed on 2
 * cores each world-wide collective cost 2 to 5 s, and the wait-state step alone made 13.
 * A round's values travel as (operation, value) pairs of long long through one
 * user-defined, commutative operation, so minima, maxima and sums share the vector.
 * The steps share one communicator too, opened at MPI_Init when the event log's clock
 * exchange runs there: each PMPI_Comm_dup agrees on a context id, a collective of its
 * own. Finalize (and MPI_Init) run on one thread: no lock. */
#include "finalize_agreement.h"

static long long slot_op[PMPI_AGREE_HANDLES], slot_value[PMPI_AGREE_HANDLES];
static int round_start, n; /* the round being filled: handles round_start..n-1 */

/* The reduction: each pair's operation (the first long long, the same on every rank)
 * applied to its value (the second). */
static void fold(void *in, void *inout, int *len, MPI_Datatype *type)
{
    const long long *a = in;
    long long *b = inout;
    (void)type;
    for (int i = 0; i + 1 < *len; i += 2) {
        if (a[i] == PMPI_AGREE_SUM)
            b[i + 1] += a[i + 1];
        else if (a[i] == PMPI_AGREE_MAX ? a[i + 1] > b[i + 1] : a[i + 1] < b[i + 1])
            b[i + 1] = a[i + 1];
    }
}

int pmpi_agree_add(enum pmpi_agree_op op, long long value)
{
    if (n >= PMPI_AGREE_HANDLES || n - round_start >= PMPI_AGREE_SLOTS)
        return -1;
    slot_op[n] = op;
    slot_value[n] = value;
    return n++;
}

int pmpi_agree_pairs(MPI_Comm comm, const long long *pairs, long long *out, int count)
{
    MPI_Op op;
    int rc = PMPI_Op_create(fold, 1, &op);
    if (rc == MPI_SUCCESS) {
        rc = PMPI_Allreduce(pairs, out, 2 * count, MPI_LONG_LONG, op, comm);
        PMPI_Op_free(&op);
    }
    return rc;
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

static MPI_Comm finalize_comm = MPI_COMM_NULL;

static void dup_world(void)
{
    if (finalize_comm == MPI_COMM_NULL &&
        PMPI_Comm_dup(MPI_COMM_WORLD, &finalize_comm) != MPI_SUCCESS)
        finalize_comm = MPI_COMM_NULL;
}

void pmpi_finalize_comm_open(void)
{
    MPI_Errhandler eh;
    if (finalize_comm == MPI_COMM_NULL) {
        dup_world();
        return;
    }
    /* opened at MPI_Init: MPI_COMM_WORLD's error handler as it is now, as a duplicate
     * made now would have it (the program may have set its own since); local calls */
    if (PMPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh) == MPI_SUCCESS) {
        PMPI_Comm_set_errhandler(finalize_comm, eh);
        PMPI_Errhandler_free(&eh);
    }
}

MPI_Comm pmpi_finalize_comm(void)
{
    dup_world();
    return finalize_comm != MPI_COMM_NULL ? finalize_comm : MPI_COMM_WORLD;
}

void pmpi_finalize_comm_close(void)
{
    if (finalize_comm != MPI_COMM_NULL)
        PMPI_Comm_free(&finalize_comm);
}
