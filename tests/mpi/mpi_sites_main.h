/* mpi_sites_main.h: main() of the call-site programs (mpi_sites200, mpi_sites_overflow):
 * each rank makes the program's sites() round rank + 1 times, and no other wrapped call,
 * so check_sites.py knows every site's count. Included once, after sites(). */
#ifndef MPI_SITES_MAIN_H
#define MPI_SITES_MAIN_H
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank); /* not wrapped: no site of its own */
    for (int i = 0; i <= rank; i++)
        sites();
    MPI_Finalize();
    return 0;
}
#endif
