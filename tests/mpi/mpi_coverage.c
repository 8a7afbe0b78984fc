/* mpi_coverage.c: known numbers of the calls the wrapper library wraps beyond the basic
 * ones: communicator and group constructors, persistent point-to-point, nonblocking and
 * persistent collectives, neighbourhood collectives, one-sided, matched probes and
 * MPI-IO. Each rank talks to rank ^ 1, so run it with an even number of ranks.
 * check_coverage.py knows every rank's exact calls and bytes. argv[1]: a file for MPI-IO. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static void communicators(int rank)
{
    MPI_Comm sub, dup, c0;
    MPI_Group g, g0;
    int zero = 0;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &sub);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_group(MPI_COMM_WORLD, &g);
    MPI_Group_incl(g, 1, &zero, &g0);
    MPI_Comm_create(MPI_COMM_WORLD, g0, &c0);
    MPI_Group_free(&g0);
    MPI_Group_free(&g);
    MPI_Comm_free(&sub);
    MPI_Comm_free(&dup);
    if (c0 != MPI_COMM_NULL)
        MPI_Comm_free(&c0);
}

static void persistent(int partner)
{
    int out[10] = {0}, in[10];
    MPI_Request r[2];
    MPI_Status st[2];
    MPI_Send_init(out, 10, MPI_INT, partner, 5, MPI_COMM_WORLD, &r[0]);
    MPI_Recv_init(in, 10, MPI_INT, partner, 5, MPI_COMM_WORLD, &r[1]);
    for (int i = 0; i < 3; i++) {
        MPI_Startall(2, r);
        MPI_Waitall(2, r, st);
    }
    MPI_Request_free(&r[0]);
    MPI_Request_free(&r[1]);
#if MPI_VERSION >= 4 /* persistent collectives: MPI 4.0 (MPICH 4), not Open MPI 4.1 */
    double a[5] = {0}, b[5];
    MPI_Request ar;
    MPI_Allreduce_init(a, b, 5, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &ar);
    for (int i = 0; i < 2; i++) {
        MPI_Start(&ar);
        MPI_Wait(&ar, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&ar);
#endif
}

/* Attribute caching on a communicator (the calls mpiP wraps): a keyval, set, get
 * twice, delete, free. */
static void attributes(void)
{
    int keyval, flag = 0, value = 42, *got = NULL;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keyval, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &value);
    MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &got, &flag);
    if (!flag || got != &value || *got != 42)
        fprintf(stderr, "mpi_coverage: attribute not read back\n");
    MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval);
    MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &got, &flag);
    MPI_Comm_free_keyval(&keyval);
}

static void nonblocking_collectives(int size)
{
    int v[10] = {0}, w[10], g[2] = {0}, all[2 * 64], t[64] = {0}, u[64];
    MPI_Request r[4];
    MPI_Status st[4];
    (void)size;
    MPI_Ibcast(v, 10, MPI_INT, 0, MPI_COMM_WORLD, &r[0]);
    MPI_Ireduce(v, w, 10, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &r[1]);
    MPI_Iallgather(g, 2, MPI_INT, all, 2, MPI_INT, MPI_COMM_WORLD, &r[2]);
    MPI_Ialltoall(t, 1, MPI_INT, u, 1, MPI_INT, MPI_COMM_WORLD, &r[3]);
    MPI_Waitall(4, r, st);
}

static void neighbourhood(int size)
{
    MPI_Comm ring;
    int dims[1] = {size}, periods[1] = {1};
    int s[3] = {0}, rcv[6], a[2] = {0}, b[2];
    MPI_Request r;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    MPI_Neighbor_allgather(s, 3, MPI_INT, rcv, 3, MPI_INT, ring);
    MPI_Neighbor_alltoall(a, 1, MPI_INT, b, 1, MPI_INT, ring);
    MPI_Ineighbor_allgather(s, 3, MPI_INT, rcv, 3, MPI_INT, ring, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Comm_free(&ring);
}

static void one_sided(int partner)
{
    int mem[100] = {0}, src[10] = {0}, dst[5];
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Info info;
    MPI_Win_get_info(win, &info);
    MPI_Win_set_info(win, info);
    MPI_Info_free(&info);
    MPI_Win_fence(0, win);
    MPI_Put(src, 10, MPI_INT, partner, 0, 10, MPI_INT, win);
    MPI_Get(dst, 5, MPI_INT, partner, 20, 5, MPI_INT, win);
    MPI_Win_fence(0, win);
    MPI_Accumulate(src, 2, MPI_INT, partner, 40, 2, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
}

static void matched_probe(int partner)
{
    char out[7] = "abcdef", in[7];
    MPI_Request r;
    MPI_Message m;
    MPI_Status st;
    MPI_Isend(out, 7, MPI_CHAR, partner, 9, MPI_COMM_WORLD, &r);
    MPI_Mprobe(partner, 9, MPI_COMM_WORLD, &m, &st);
    MPI_Mrecv(in, 7, MPI_CHAR, &m, MPI_STATUS_IGNORE);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
}

static void file_io(int rank, const char *path)
{
    MPI_File fh;
    char buf[16];
    memset(buf, 'a' + rank % 26, sizeof buf);
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_File_write_at(fh, rank * 16, buf, 16, MPI_CHAR, MPI_STATUS_IGNORE);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_read_at(fh, rank * 16, buf, 16, MPI_CHAR, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_File_delete(path, MPI_INFO_NULL);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size % 2 || size > 64 || argc < 2) {
        if (rank == 0)
            fprintf(stderr, "mpi_coverage: an even number of ranks (<= 64) and a file name\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    communicators(rank);
    attributes();
    persistent(rank ^ 1);
    nonblocking_collectives(size);
    neighbourhood(size);
    one_sided(rank ^ 1);
    matched_probe(rank ^ 1);
    file_io(rank, argv[1]);
    MPI_Finalize();
    return 0;
}
