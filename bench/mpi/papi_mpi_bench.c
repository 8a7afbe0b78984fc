/* papi_mpi_bench: cost the wrapper adds to one intercepted call, measured in one run
 * by timing the same cheap call through MPI_* (wrapped) and PMPI_* (not wrapped):
 * MPI_Comm_rank and a 0-byte MPI_Sendrecv to self on MPI_COMM_SELF, on a duplicate of
 * MPI_COMM_WORLD and on a periodic Cartesian communicator (the wrapper translates the
 * partners' ranks of those two to world ranks), and MPI_Waitall of 4 null requests with
 * MPI_STATUSES_IGNORE (the path that substitutes the statuses while the event log
 * records). Median over batches, ns per call,
 * in wall time and in the thread's CPU time (CLOCK_THREAD_CPUTIME_ID: on a shared
 * machine the time the rank was not running is not the wrapper's cost).
 * Run it linked to libpapi_mpi (as built) under mpirun; the library's banner at
 * MPI_Finalize then reports the aggregation time and bytes per rank.
 * PAPI_MPI_CALLSITES=0 or 1 (the default) switches the per-call-site statistics,
 * PAPI_MPI_WAITS=0 or 1 (the default) the event log.
 * Modes: (none) the per-call costs; finalize-only (run_scale.sh, run_finalize_cost.sh):
 * a few calls, then MPI_Finalize timed on every rank; finalize-waits ROUNDS
 * (run_replay_cost.sh, issue 72 item 6): ROUNDS rounds of an imbalanced compute and a
 * neighbour exchange that leave waits for the root-cause replay at MPI_Finalize, then
 * MPI_Finalize timed the same way. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

enum { BATCHES = 31, PER_BATCH = 20000 };

static double clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double now_ns(void)
{
    return clock_ns(CLOCK_MONOTONIC);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v)
{
    qsort(v, BATCHES, sizeof *v, cmp);
    return v[BATCHES / 2];
}

/* The process's CPU time (user and system) in ms. */
static double cpu_ms(const struct rusage *ru)
{
    return (ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1e3 +
           (ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) * 1e-3;
}

/* Busy for us microseconds of this thread's CPU time: a compute phase whose work does not
 * shrink when the rank is preempted (the ranks share 2 cores here). */
static void compute_us(double us)
{
    double end = clock_ns(CLOCK_THREAD_CPUTIME_ID) + us * 1e3;
    volatile double x = 1;
    while (clock_ns(CLOCK_THREAD_CPUTIME_ID) < end)
        for (int i = 0; i < 64; i++)
            x = x * 1.0000001 + 1e-9;
}

/* finalize-waits: waits for the replay to explain. Each round, a compute of 20 to 60 us
 * that depends on the rank and shifts with the round (so the late rank, the cause, moves
 * around the ring), then an exchange with both ring neighbours (2 MPI_Irecv, 2 MPI_Isend,
 * MPI_Waitall: late-sender waits in the Waitall), and every 10th round an MPI_Allreduce
 * (waits at a collective): about 8 event-log records a round on every rank (8,100 at
 * 1000 rounds: papi_mpi_report.json's wait_states.log.records over the ranks). */
static void exchange_rounds(int rounds, int rank, int size)
{
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    double out[2] = {rank, rank}, in[2], sum = rank;
    for (int i = 0; i < rounds; i++) {
        compute_us(20 + 10 * ((rank * 3 + i) % 5));
        MPI_Request req[4];
        MPI_Status st[4];
        MPI_Irecv(&in[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(&in[1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[1]);
        MPI_Isend(&out[0], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[2]);
        MPI_Isend(&out[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[3]);
        MPI_Waitall(4, req, st);
        out[0] = in[1], out[1] = in[0];
        if (i % 10 == 9)
            MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
}

/* Alternate wrapped and direct batches so both see the same machine state. */
static void measure(const char *what, int kind, int rank, MPI_Comm comm, int print)
{
    double w[BATCHES], d[BATCHES], wc[BATCHES], dc[BATCHES];
    int r;
    char c = 0;
    MPI_Request nreq[4] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    /* the marker through a register: gcc takes the constant for an empty array */
    MPI_Status *ign = MPI_STATUSES_IGNORE;
    __asm__("" : "+r"(ign));
    for (int b = 0; b < BATCHES; b++) {
        for (int pass = 0; pass < 2; pass++) {
            double c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID), t0 = now_ns();
            for (int i = 0; i < PER_BATCH; i++) {
                if (kind == 0)
                    pass ? PMPI_Comm_rank(MPI_COMM_WORLD, &r) : MPI_Comm_rank(MPI_COMM_WORLD, &r);
                else if (kind == 2)
                    pass ? PMPI_Waitall(4, nreq, ign) : MPI_Waitall(4, nreq, ign);
                else if (pass)
                    PMPI_Sendrecv(&c, 0, MPI_BYTE, rank, 0, &c, 0, MPI_BYTE, rank, 0, comm,
                                  MPI_STATUS_IGNORE);
                else
                    MPI_Sendrecv(&c, 0, MPI_BYTE, rank, 0, &c, 0, MPI_BYTE, rank, 0, comm,
                                 MPI_STATUS_IGNORE);
            }
            (pass ? d : w)[b] = (now_ns() - t0) / PER_BATCH;
            (pass ? dc : wc)[b] = (clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0) / PER_BATCH;
        }
    }
    double mw = median(w), md = median(d), mwc = median(wc), mdc = median(dc);
    if (print) {
        printf("bench: %-30s wrapped %8.1f ns  direct %8.1f ns  overhead %6.1f ns per call "
               "(median of %d x %d)\n",
               what, mw, md, mw - md, BATCHES, PER_BATCH);
        printf("bench-cpu: %-26s wrapped %8.1f ns  direct %8.1f ns  overhead %6.1f ns per call "
               "(thread CPU time)\n",
               what, mwc, mdc, mwc - mdc);
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *cs = getenv("PAPI_MPI_CALLSITES"), *ws = getenv("PAPI_MPI_WAITS");
    if (rank == 0)
        printf("bench: %d ranks, call sites %s, wait states %s\n", size,
               cs && cs[0] == '0' ? "off" : "on", ws && ws[0] == '0' ? "off" : "on");
    int waits = argc >= 2 && strcmp(argv[1], "finalize-waits") == 0;
    if (waits) {
        int rounds = argc >= 3 ? atoi(argv[2]) : 1000;
        if (rank == 0)
            printf("bench: finalize-waits %d rounds\n", rounds);
        exchange_rounds(rounds, rank, size);
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (argc < 2 || strcmp(argv[1], "finalize-only") != 0) {
        measure("MPI_Comm_rank", 0, 0, MPI_COMM_WORLD, rank == 0);
        measure("MPI_Sendrecv 0 B to self", 1, 0, MPI_COMM_SELF, rank == 0);
        measure("MPI_Waitall 4 null requests", 2, 0, MPI_COMM_SELF, rank == 0);
        /* Partners on communicators whose ranks the wrapper translates (each rank to
         * itself: the same call on every rank, no wait for another). */
        MPI_Comm dup, cart;
        int dims[1] = {size}, periods[1] = {1}, me;
        PMPI_Comm_dup(MPI_COMM_WORLD, &dup);
        PMPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
        PMPI_Comm_rank(dup, &me);
        measure("MPI_Sendrecv 0 B, dup comm", 1, me, dup, rank == 0);
        PMPI_Comm_rank(cart, &me);
        measure("MPI_Sendrecv 0 B, Cartesian", 1, me, cart, rank == 0);
        PMPI_Comm_free(&cart);
        PMPI_Comm_free(&dup);
    } else { /* run_scale.sh: a few calls, then the report */
        int r;
        for (int i = 0; i < 100; i++)
            MPI_Comm_rank(MPI_COMM_WORLD, &r);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    PMPI_Barrier(MPI_COMM_WORLD); /* not counted: ranks enter Finalize together, so the
                                   * aggregation time is not the skew of the loops above */
    struct rusage ru0, ru1;
    getrusage(RUSAGE_SELF, &ru0);
    double t0 = now_ns();
    MPI_Finalize();
    double ms = (now_ns() - t0) * 1e-6;
    getrusage(RUSAGE_SELF, &ru1);
    if (rank == 0)
        printf("bench: MPI_Finalize with the report took %.3f ms at %d ranks\n", ms, size);
    /* Peak memory the report added on this rank (max RSS growth across MPI_Finalize), and
     * the CPU time the rank spent in it (against its wall time: polling or sleeping). */
    printf("bench: rank %d finalize_ms %.3f maxrss_growth_kb %ld cpu_ms %.1f\n", rank, ms,
           ru1.ru_maxrss - ru0.ru_maxrss, cpu_ms(&ru1) - cpu_ms(&ru0));
    return 0;
}
