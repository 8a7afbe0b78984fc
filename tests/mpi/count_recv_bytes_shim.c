/* count_recv_bytes_shim: LD_PRELOADed into the ranks by check_mpi_trace_ranks.py, ahead
 * of the wrapper. From the program's MPI_Finalize on (the wrapper's report, wait states
 * and trace), it counts the bytes each rank receives through the calls that move data
 * to it: Gather[v], Allgather[v], Scatter[v], Alltoall[v], Bcast, Recv, Mrecv and Get
 * (the wrapper's and OTF2's collectives call them through PMPI, which this defines), and
 * writes "RANK BYTES" to $COUNT_RECV_DIR/recv_bytes.RANK when MPI_Finalize returns. A
 * trace gathered to rank 0 shows there as its records' bytes; one each rank writes
 * itself does not. Nothing else changes. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int counting;
static unsigned long long received;

static void *next(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

#define NEXT(type, name) type name##_next = (type)next(#name)

static void add(long long n, MPI_Datatype t)
{
    int size = 0;
    if (!counting || n <= 0)
        return;
    PMPI_Type_size(t, &size);
    received += (unsigned long long)n * (unsigned long long)size;
}

static int me(MPI_Comm c)
{
    int r = -1;
    PMPI_Comm_rank(c, &r);
    return r;
}

static int ranks(MPI_Comm c)
{
    int n = 0, inter = 0;
    PMPI_Comm_test_inter(c, &inter);
    if (inter)
        PMPI_Comm_remote_size(c, &n);
    else
        PMPI_Comm_size(c, &n);
    return n;
}

static long long sum(const int *v, int n)
{
    long long s = 0;
    for (int i = 0; v && i < n; i++)
        s += v[i];
    return s;
}

typedef int (*gather_f)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm);
int PMPI_Gather(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, int root,
                MPI_Comm c)
{
    NEXT(gather_f, PMPI_Gather);
    if (me(c) == root)
        add((long long)rc * ranks(c), rt);
    return PMPI_Gather_next(s, sc, st, r, rc, rt, root, c);
}

typedef int (*gatherv_f)(const void *, int, MPI_Datatype, void *, const int *, const int *,
                         MPI_Datatype, int, MPI_Comm);
int PMPI_Gatherv(const void *s, int sc, MPI_Datatype st, void *r, const int *rc, const int *d,
                 MPI_Datatype rt, int root, MPI_Comm c)
{
    NEXT(gatherv_f, PMPI_Gatherv);
    if (me(c) == root)
        add(sum(rc, ranks(c)), rt);
    return PMPI_Gatherv_next(s, sc, st, r, rc, d, rt, root, c);
}

typedef int (*allgather_f)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm);
int PMPI_Allgather(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt,
                   MPI_Comm c)
{
    NEXT(allgather_f, PMPI_Allgather);
    add((long long)rc * ranks(c), rt);
    return PMPI_Allgather_next(s, sc, st, r, rc, rt, c);
}

typedef int (*allgatherv_f)(const void *, int, MPI_Datatype, void *, const int *, const int *,
                            MPI_Datatype, MPI_Comm);
int PMPI_Allgatherv(const void *s, int sc, MPI_Datatype st, void *r, const int *rc, const int *d,
                    MPI_Datatype rt, MPI_Comm c)
{
    NEXT(allgatherv_f, PMPI_Allgatherv);
    add(sum(rc, ranks(c)), rt);
    return PMPI_Allgatherv_next(s, sc, st, r, rc, d, rt, c);
}

typedef int (*scatter_f)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm);
int PMPI_Scatter(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, int root,
                 MPI_Comm c)
{
    NEXT(scatter_f, PMPI_Scatter);
    add(rc, rt);
    return PMPI_Scatter_next(s, sc, st, r, rc, rt, root, c);
}

typedef int (*scatterv_f)(const void *, const int *, const int *, MPI_Datatype, void *, int,
                          MPI_Datatype, int, MPI_Comm);
int PMPI_Scatterv(const void *s, const int *sc, const int *d, MPI_Datatype st, void *r, int rc,
                  MPI_Datatype rt, int root, MPI_Comm c)
{
    NEXT(scatterv_f, PMPI_Scatterv);
    add(rc, rt);
    return PMPI_Scatterv_next(s, sc, d, st, r, rc, rt, root, c);
}

typedef int (*alltoall_f)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm);
int PMPI_Alltoall(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt,
                  MPI_Comm c)
{
    NEXT(alltoall_f, PMPI_Alltoall);
    add((long long)rc * ranks(c), rt);
    return PMPI_Alltoall_next(s, sc, st, r, rc, rt, c);
}

typedef int (*alltoallv_f)(const void *, const int *, const int *, MPI_Datatype, void *,
                           const int *, const int *, MPI_Datatype, MPI_Comm);
int PMPI_Alltoallv(const void *s, const int *sc, const int *sd, MPI_Datatype st, void *r,
                   const int *rc, const int *rd, MPI_Datatype rt, MPI_Comm c)
{
    NEXT(alltoallv_f, PMPI_Alltoallv);
    add(sum(rc, ranks(c)), rt);
    return PMPI_Alltoallv_next(s, sc, sd, st, r, rc, rd, rt, c);
}

typedef int (*bcast_f)(void *, int, MPI_Datatype, int, MPI_Comm);
int PMPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c)
{
    NEXT(bcast_f, PMPI_Bcast);
    if (me(c) != root)
        add(n, t);
    return PMPI_Bcast_next(b, n, t, root, c);
}

typedef int (*recv_f)(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Status *);
int PMPI_Recv(void *b, int n, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Status *st)
{
    NEXT(recv_f, PMPI_Recv);
    MPI_Status mine;
    int got = 0, rc = PMPI_Recv_next(b, n, t, src, tag, c, st == MPI_STATUS_IGNORE ? &mine : st);
    PMPI_Get_count(st == MPI_STATUS_IGNORE ? &mine : st, t, &got);
    add(got, t);
    return rc;
}

typedef int (*mrecv_f)(void *, int, MPI_Datatype, MPI_Message *, MPI_Status *);
int PMPI_Mrecv(void *b, int n, MPI_Datatype t, MPI_Message *m, MPI_Status *st)
{
    NEXT(mrecv_f, PMPI_Mrecv);
    MPI_Status mine;
    int got = 0, rc = PMPI_Mrecv_next(b, n, t, m, st == MPI_STATUS_IGNORE ? &mine : st);
    PMPI_Get_count(st == MPI_STATUS_IGNORE ? &mine : st, t, &got);
    add(got, t);
    return rc;
}

typedef int (*get_f)(void *, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype, MPI_Win);
int PMPI_Get(void *o, int n, MPI_Datatype ot, int target, MPI_Aint disp, int tn, MPI_Datatype tt,
             MPI_Win w)
{
    NEXT(get_f, PMPI_Get);
    add(n, ot);
    return PMPI_Get_next(o, n, ot, target, disp, tn, tt, w);
}

typedef int (*finalize_f)(void);
int MPI_Finalize(void)
{
    NEXT(finalize_f, MPI_Finalize);
    int rank = me(MPI_COMM_WORLD);
    counting = 1;
    int rc = MPI_Finalize_next();
    counting = 0;
    const char *dir = getenv("COUNT_RECV_DIR");
    char path[4096];
    if (dir && snprintf(path, sizeof path, "%s/recv_bytes.%d", dir, rank) < (int)sizeof path) {
        FILE *f = fopen(path, "w");
        if (f) {
            fprintf(f, "%d %llu\n", rank, received);
            fclose(f);
        }
    }
    return rc;
}
