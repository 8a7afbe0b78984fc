/* finalize_agreement.c: the finalize steps' agreements ("every rank has its buffers",
 * "the most sequence numbers", "rank 0 has a directory") folded into one MPI_Allreduce
 * per round instead of one per integer: at 256 ranks oversubscribed on 2 cores each
 * world-wide collective cost 2 to 5 s, and the wait-state step alone made 13. A round's
 * minima and maxima travel in one MPI_Allreduce (MPI_MAX) of long long, a minimum as the
 * maximum of its negation; a round with sums adds one MPI_SUM vector. Built-in
 * operations only: nothing to create that could fail on one rank. A step's vector of
 * maxima of doubles (the wait states' collective arrivals) rides in the MPI_MAX
 * reduction too, each double as an integer of the same order: no reduction of its own.
 * The steps share one communicator too, the wrapper's own, made at MPI_Init: each
 * PMPI_Comm_dup agrees on a context id, a collective of its own. Finalize (and
 * MPI_Init) run on one thread: no lock. */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "finalize_agreement.h"
#include "idle_wait.h"

static long long slot_op[PMPI_AGREE_HANDLES], slot_value[PMPI_AGREE_HANDLES];
static int round_start, n; /* the round being filled: handles round_start..n-1 */

/* The doubles riding in the next round (their integer keys) and where their maxima go. */
static long long ride[PMPI_AGREE_DOUBLES];
static double *ride_out;
static int ride_n;

/* A double as an integer of the same order (the sign bit kept, a negative value's other
 * bits flipped), and back: MPI_MAX over the integers is the maximum of the doubles. */
static long long double_key(double d)
{
    long long b;
    memcpy(&b, &d, sizeof b);
    return b >= 0 ? b : b ^ LLONG_MAX;
}

static double key_double(long long k)
{
    double d;
    k = k >= 0 ? k : k ^ LLONG_MAX;
    memcpy(&d, &k, sizeof d);
    return d;
}

int pmpi_agree_add_max_doubles(const double *in, double *out, int count)
{
    if (ride_n || count < 1 || count > PMPI_AGREE_DOUBLES)
        return -1;
    for (int i = 0; i < count; i++)
        ride[i] = double_key(in ? in[i] : -INFINITY);
    ride_out = out;
    ride_n = count;
    return 0;
}

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

/* One reduction of the pairs of one kind (sums, or minima and maxima, then the nextra
 * values of extra) into out's values and extra's; returns the MPI's code (MPI_SUCCESS
 * when there are none). */
static int reduce_kind(MPI_Comm comm, const long long *pairs, long long *out, int count, int sums,
                       long long *extra, int nextra)
{
    /* static: the doubles riding along are thousands (finalize runs on one thread) */
    static long long in[PMPI_AGREE_SLOTS + PMPI_AGREE_DOUBLES],
        red[PMPI_AGREE_SLOTS + PMPI_AGREE_DOUBLES];
    int k = 0;
    for (int i = 0; i < count; i++)
        if ((pairs[2 * i] == PMPI_AGREE_SUM) == sums)
            in[k++] = pairs[2 * i] == PMPI_AGREE_MIN ? negate(pairs[2 * i + 1]) : pairs[2 * i + 1];
    int nslots = k;
    for (int i = 0; i < nextra; i++)
        in[k++] = extra[i];
    if (k == 0)
        return MPI_SUCCESS;
    MPI_Request req;
    int rc = pmpi_idle_complete(
        PMPI_Iallreduce(in, red, k, MPI_LONG_LONG, sums ? MPI_SUM : MPI_MAX, comm, &req), &req);
    k = 0;
    for (int i = 0; i < count && rc == MPI_SUCCESS; i++)
        if ((pairs[2 * i] == PMPI_AGREE_SUM) == sums) {
            out[2 * i + 1] = pairs[2 * i] == PMPI_AGREE_MIN ? negate(red[k]) : red[k];
            k++;
        }
    for (int i = 0; i < nextra && rc == MPI_SUCCESS; i++)
        extra[i] = red[nslots + i];
    return rc;
}

static int agree(MPI_Comm comm, const long long *pairs, long long *out, int count, long long *extra,
                 int nextra)
{
    if (count < 0 || count > PMPI_AGREE_SLOTS)
        return MPI_ERR_COUNT; /* the same count on every rank: none reduces */
    for (int i = 0; i < 2 * count; i++)
        out[i] = pairs[i];
    int rc = reduce_kind(comm, pairs, out, count, 0, extra, nextra);
    int rs = reduce_kind(comm, pairs, out, count, 1, NULL, 0);
    return rc != MPI_SUCCESS ? rc : rs;
}

int pmpi_agree_pairs(MPI_Comm comm, const long long *pairs, long long *out, int count)
{
    return agree(comm, pairs, out, count, NULL, 0);
}

int pmpi_agree_run(MPI_Comm comm)
{
    long long pairs[2 * PMPI_AGREE_SLOTS] = {0}, out[2 * PMPI_AGREE_SLOTS];
    int count = n - round_start;
    for (int i = 0; i < count; i++) {
        pairs[2 * i] = slot_op[round_start + i];
        pairs[2 * i + 1] = slot_value[round_start + i];
    }
    int rc = agree(comm, pairs, out, count, ride, ride_n);
    for (int i = 0; ride_out && i < ride_n; i++) /* maxima, or this rank's own on failure */
        ride_out[i] = key_double(ride[i]);
    ride_n = 0;
    ride_out = NULL;
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
