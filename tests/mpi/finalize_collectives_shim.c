/* finalize_collectives_shim.c: preloaded ahead of the wrapper by
 * check_finalize_collectives.py. Counts the collective PMPI calls (and the communicator
 * constructors, which agree on a context id) made between the program's MPI_Finalize and
 * the wrapper's PMPI_Finalize, the wrapper's finalize sequence, and prints them per rank
 * as one line: "FINALIZE_COLLECTIVES rank R total N name=count ...". With
 * FINALIZE_COLLECTIVES_TIMES=1 in the environment each rank also prints, after the MPI's
 * own PMPI_Finalize, "FINALIZE_TIMES rank R sequence_ms S pmpi_finalize_ms F name=ms ...":
 * the wrapper's sequence, the MPI's finalize, and the time in each kind of collective
 * (bench/README.md's profile). Built per MPI: the prototypes are that MPI's own. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { NCALLS = 24, CLOCK_TAG = 7301 };
static const char *names[NCALLS];
static int counts[NCALLS], counting, clock_messages;
static long long spent_ns[NCALLS], t_start, t_end; /* FINALIZE_COLLECTIVES_TIMES */

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *next(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "finalize_collectives_shim: no %s after this library\n", name);
        abort();
    }
    return f;
}

/* The slot of name, counted once more; -1 outside the sequence. */
static int count(const char *name)
{
    if (!counting)
        return -1;
    for (int i = 0; i < NCALLS; i++)
        if (!names[i] || strcmp(names[i], name) == 0) {
            names[i] = name;
            counts[i]++;
            return i;
        }
    return -1;
}

/* PMPI_name with the parameter list params, forwarded with args after being counted
 * (and timed). */
#define COUNTED(name, params, args)              \
    int P##name params                           \
    {                                            \
        static int(*real) params;                \
        if (!real)                               \
            *(void **)&real = next("P" #name);   \
        int slot = count(#name);                 \
        long long t0 = slot >= 0 ? now_ns() : 0; \
        int rc = real args;                      \
        if (slot >= 0)                           \
            spent_ns[slot] += now_ns() - t0;     \
        return rc;                               \
    }

/* A nonblocking collective, counted; its time runs from its start to the PMPI_Test
 * that completes it (the wrapper waits for one at a time: idle_wait.c). */
static int pending_slot = -1;
static long long pending_t0;

#define COUNTED_NB(name, params, args)         \
    int P##name params                         \
    {                                          \
        static int(*real) params;              \
        if (!real)                             \
            *(void **)&real = next("P" #name); \
        int slot = count(#name);               \
        if (slot >= 0) {                       \
            pending_slot = slot;               \
            pending_t0 = now_ns();             \
        }                                      \
        return real args;                      \
    }

COUNTED_NB(MPI_Iallreduce,
           (const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c, MPI_Request *q),
           (s, r, n, t, op, c, q))
COUNTED_NB(MPI_Ireduce,
           (const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c,
            MPI_Request *q),
           (s, r, n, t, op, root, c, q))
COUNTED_NB(MPI_Ibcast, (void *b, int n, MPI_Datatype t, int root, MPI_Comm c, MPI_Request *q),
           (b, n, t, root, c, q))
COUNTED_NB(MPI_Igather,
           (const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, int root,
            MPI_Comm c, MPI_Request *q),
           (s, sn, st, r, rn, rt, root, c, q))
COUNTED_NB(MPI_Ireduce_scatter_block,
           (const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c, MPI_Request *q),
           (s, r, n, t, op, c, q))

int PMPI_Test(MPI_Request *q, int *done, MPI_Status *st)
{
    static int (*real)(MPI_Request *, int *, MPI_Status *);
    if (!real)
        *(void **)&real = next("PMPI_Test");
    int rc = real(q, done, st);
    if (counting && pending_slot >= 0 && *done) {
        spent_ns[pending_slot] += now_ns() - pending_t0;
        pending_slot = -1;
    }
    return rc;
}

COUNTED(MPI_Allreduce, (const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c),
        (s, r, n, t, op, c))
COUNTED(MPI_Reduce,
        (const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c),
        (s, r, n, t, op, root, c))
COUNTED(MPI_Bcast, (void *b, int n, MPI_Datatype t, int root, MPI_Comm c), (b, n, t, root, c))
COUNTED(MPI_Barrier, (MPI_Comm c), (c))
COUNTED(MPI_Gather,
        (const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, int root,
         MPI_Comm c),
        (s, sn, st, r, rn, rt, root, c))
COUNTED(MPI_Gatherv,
        (const void *s, int sn, MPI_Datatype st, void *r, const int *rn, const int *rd,
         MPI_Datatype rt, int root, MPI_Comm c),
        (s, sn, st, r, rn, rd, rt, root, c))
COUNTED(MPI_Allgather,
        (const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, MPI_Comm c),
        (s, sn, st, r, rn, rt, c))
COUNTED(MPI_Allgatherv,
        (const void *s, int sn, MPI_Datatype st, void *r, const int *rn, const int *rd,
         MPI_Datatype rt, MPI_Comm c),
        (s, sn, st, r, rn, rd, rt, c))
COUNTED(MPI_Scatter,
        (const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, int root,
         MPI_Comm c),
        (s, sn, st, r, rn, rt, root, c))
COUNTED(MPI_Alltoall,
        (const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, MPI_Comm c),
        (s, sn, st, r, rn, rt, c))
COUNTED(MPI_Alltoallv,
        (const void *s, const int *sn, const int *sd, MPI_Datatype st, void *r, const int *rn,
         const int *rd, MPI_Datatype rt, MPI_Comm c),
        (s, sn, sd, st, r, rn, rd, rt, c))
COUNTED(MPI_Reduce_scatter_block,
        (const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c), (s, r, n, t, op, c))
COUNTED(MPI_Scan, (const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c),
        (s, r, n, t, op, c))
COUNTED(MPI_Exscan, (const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c),
        (s, r, n, t, op, c))
COUNTED(MPI_Comm_dup, (MPI_Comm c, MPI_Comm *out), (c, out))
COUNTED(MPI_Comm_split, (MPI_Comm c, int color, int key, MPI_Comm *out), (c, color, key, out))
COUNTED(MPI_Comm_split_type, (MPI_Comm c, int type, int key, MPI_Info info, MPI_Comm *out),
        (c, type, key, info, out))
COUNTED(MPI_Comm_create, (MPI_Comm c, MPI_Group g, MPI_Comm *out), (c, g, out))

int PMPI_Send(const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c)
{
    static int (*real)(const void *, int, MPI_Datatype, int, int, MPI_Comm);
    if (!real)
        *(void **)&real = next("PMPI_Send");
    clock_messages += counting && tag == CLOCK_TAG;
    return real(b, n, t, to, tag, c);
}

int PMPI_Irecv(void *b, int n, MPI_Datatype t, int from, int tag, MPI_Comm c, MPI_Request *q)
{
    static int (*real)(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
    if (!real)
        *(void **)&real = next("PMPI_Irecv");
    clock_messages += counting && tag == CLOCK_TAG;
    return real(b, n, t, from, tag, c, q);
}

int PMPI_Recv(void *b, int n, MPI_Datatype t, int from, int tag, MPI_Comm c, MPI_Status *st)
{
    static int (*real)(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Status *);
    if (!real)
        *(void **)&real = next("PMPI_Recv");
    clock_messages += counting && tag == CLOCK_TAG;
    return real(b, n, t, from, tag, c, st);
}

/* The program's MPI_Finalize: the wrapper's (next) runs its sequence, counted. */
int MPI_Finalize(void)
{
    static int (*real)(void);
    if (!real)
        *(void **)&real = next("MPI_Finalize");
    counting = 1;
    t_start = now_ns();
    return real();
}

/* FINALIZE_COLLECTIVES_TIMES=1: this rank's times, after the MPI's finalize. */
static void print_times(int rank, long long t_mpi)
{
    char line[1024];
    int at =
        snprintf(line, sizeof line, "FINALIZE_TIMES rank %d sequence_ms %.1f pmpi_finalize_ms %.1f",
                 rank, (t_end - t_start) * 1e-6, t_mpi * 1e-6);
    for (int i = 0; i < NCALLS && names[i] && at < (int)sizeof line; i++)
        at +=
            snprintf(line + at, sizeof line - (size_t)at, " %s=%.1f", names[i], spent_ns[i] * 1e-6);
    fprintf(stderr, "%s\n", line);
}

/* The wrapper's sequence ends here: the counts are printed, the MPI's own ones are not. */
int PMPI_Finalize(void)
{
    static int (*real)(void);
    int rank = -1, total = 0;
    char line[1024];
    if (!real)
        *(void **)&real = next("PMPI_Finalize");
    counting = 0;
    t_end = now_ns();
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < NCALLS && names[i]; i++)
        total += counts[i];
    int at = snprintf(line, sizeof line, "FINALIZE_COLLECTIVES rank %d total %d clock_messages %d",
                      rank, total, clock_messages);
    for (int i = 0; i < NCALLS && names[i] && at < (int)sizeof line; i++)
        at += snprintf(line + at, sizeof line - (size_t)at, " %s=%d", names[i], counts[i]);
    fprintf(stderr, "%s\n", line);
    const char *times = getenv("FINALIZE_COLLECTIVES_TIMES");
    if (!times || strcmp(times, "1") != 0)
        return real();
    long long t0 = now_ns();
    int rc = real();
    print_times(rank, now_ns() - t0);
    return rc;
}
