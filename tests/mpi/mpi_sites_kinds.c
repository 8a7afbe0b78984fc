/* mpi_sites_kinds: call sites the report must name (check_sites.py kinds), built -O2 -g:
 *  - MPI_Barrier in a static inline function inlined into another inlined into main:
 *    the site names the innermost function and the chain it is inlined into;
 *  - MPI_Allreduce made inside a shared library (libmpi_sites_lib.so, sites_lib.c): the
 *    site names the library, its function, file and line.
 * Each rank makes each call once. */
#include <mpi.h>

#include "mpi_sites_lib.h"

static volatile int sink;

static inline __attribute__((always_inline)) void sites_inlined_leaf(void)
{
    MPI_Barrier(MPI_COMM_WORLD); /* SITE inlined */
    sink++;
}

static inline __attribute__((always_inline)) void sites_inlined_middle(void)
{
    sink++;
    sites_inlined_leaf();
}

int main(int argc, char **argv)
{
    int v = 1;
    MPI_Init(&argc, &argv);
    sites_inlined_middle();
    sites_lib_allreduce(&v);
    MPI_Finalize();
    return v > 0 ? 0 : 1;
}
