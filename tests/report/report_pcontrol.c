/* report_pcontrol: MPI_Pcontrol regions with known MPI calls, for check_report_pcontrol.py
 * (which knows the pattern below and compares the report and papi_report's tables with
 * it). Argument: ms per unit of work. On P ranks, rank r (world):
 *   - one MPI_Barrier before any region;
 *   - "all" (every rank) around everything below;
 *   - "phase1" (every rank) entered twice, each time: r + 1 units of work, r + 1
 *     MPI_Sendrecv of 8 bytes to itself (on MPI_COMM_SELF), one MPI_Barrier and one
 *     MPI_Allreduce; in the first entry recording is paused (MPI_Pcontrol(0)) around
 *     one more MPI_Barrier, which no table may count;
 *   - "phase2" (even ranks only): 3 MPI_Send of 100 bytes to rank r + 1, which receives
 *     them (3 MPI_Recv) outside phase2 but inside "all";
 *   - "many" (every rank): 18 distinct local calls, 22 calls in all (more distinct calls
 *     than a region lists: 16 listed, the rest counted as unlisted);
 *   - one MPI_Gather inside "all"; then "all" closes and MPI_Finalize. */
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

#include "test_workload.h"

/* 18 distinct calls that stay local, 22 calls (5 MPI_Group_free). */
static void many(void)
{
    int n, k, res, flag, cls, dims[2] = {0, 0}, zero = 0, out, *attr;
    MPI_Group g, g1, g2, g3, g4;
    MPI_Comm_rank(MPI_COMM_WORLD, &k);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_group(MPI_COMM_WORLD, &g);
    MPI_Group_size(g, &n);
    MPI_Group_rank(g, &k);
    MPI_Group_compare(g, g, &res);
    MPI_Group_incl(g, 1, &zero, &g1);
    MPI_Group_union(g, g1, &g2);
    MPI_Group_intersection(g, g1, &g3);
    MPI_Group_difference(g, g1, &g4);
    MPI_Group_translate_ranks(g1, 1, &zero, g, &out);
    MPI_Group_free(&g4);
    MPI_Group_free(&g3);
    MPI_Group_free(&g2);
    MPI_Group_free(&g1);
    MPI_Group_free(&g);
    MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &res);
    MPI_Comm_test_inter(MPI_COMM_WORLD, &flag);
    MPI_Error_class(MPI_ERR_OTHER, &cls);
    MPI_Dims_create(4, 2, dims);
    MPI_Topo_test(MPI_COMM_WORLD, &res);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &attr, &flag);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double unit = (argc > 1 ? atof(argv[1]) : 10.0) * 1e-3;
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Pcontrol(1, "all");
    for (int pass = 0; pass < 2; pass++) {
        MPI_Pcontrol(1, "phase1");
        test_spin(unit * (rank + 1));
        char a[8] = {0}, b[8];
        for (int i = 0; i <= rank; i++)
            MPI_Sendrecv(a, 8, MPI_BYTE, 0, 3, b, 8, MPI_BYTE, 0, 3, MPI_COMM_SELF,
                         MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
        if (pass == 0) {
            MPI_Pcontrol(0);
            MPI_Barrier(MPI_COMM_WORLD); /* not recorded */
            MPI_Pcontrol(1);
        }
        double v = rank, sum = 0;
        MPI_Allreduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        MPI_Pcontrol(-1, "phase1");
    }

    char buf[100] = {0};
    if (rank % 2 == 0 && rank + 1 < size) {
        MPI_Pcontrol(1, "phase2");
        for (int i = 0; i < 3; i++)
            MPI_Send(buf, 100, MPI_BYTE, rank + 1, 5, MPI_COMM_WORLD);
        MPI_Pcontrol(-1, "phase2");
    } else if (rank % 2 == 1) {
        for (int i = 0; i < 3; i++)
            MPI_Recv(buf, 100, MPI_BYTE, rank - 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }

    MPI_Pcontrol(1, "many");
    many();
    MPI_Pcontrol(-1, "many");

    int one = rank, *all = rank == 0 ? calloc((size_t)size, sizeof *all) : NULL;
    MPI_Gather(&one, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Pcontrol(-1, "all");
    free(all);
    MPI_Finalize();
    return 0;
}
