/* finalize_collectives_shim.c: preloaded ahead of the wrapper by
 * check_finalize_collectives.py. Counts the collective PMPI calls (and the communicator
 * constructors, which agree on a context id) made between the program's MPI_Finalize and
 * the wrapper's PMPI_Finalize, the wrapper's finalize sequence, and prints them per rank
 * as one line: "FINALIZE_COLLECTIVES rank R total N name=count ...". Built per MPI: the
 * prototypes are that MPI's own. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NCALLS = 24, CLOCK_TAG = 7301 };
static const char *names[NCALLS];
static int counts[NCALLS], counting, clock_messages;

static void *next(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "finalize_collectives_shim: no %s after this library\n", name);
        abort();
    }
    return f;
}

static void count(const char *name)
{
    if (!counting)
        return;
    for (int i = 0; i < NCALLS; i++)
        if (!names[i] || strcmp(names[i], name) == 0) {
            names[i] = name;
            counts[i]++;
            return;
        }
}

/* PMPI_name with the parameter list params, forwarded with args after being counted. */
#define COUNTED(name, params, args)            \
    int P##name params                         \
    {                                          \
        static int(*real) params;              \
        if (!real)                             \
            *(void **)&real = next("P" #name); \
        count(#name);                          \
        return real args;                      \
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
    return real();
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
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < NCALLS && names[i]; i++)
        total += counts[i];
    int at = snprintf(line, sizeof line, "FINALIZE_COLLECTIVES rank %d total %d clock_messages %d",
                      rank, total, clock_messages);
    for (int i = 0; i < NCALLS && names[i] && at < (int)sizeof line; i++)
        at += snprintf(line + at, sizeof line - (size_t)at, " %s=%d", names[i], counts[i]);
    fprintf(stderr, "%s\n", line);
    return real();
}
