/* mpi_touch: an MPI program for papi_run under mpirun: rank r touches (r + 1) x 1000
 * fresh pages between MPI_Init and MPI_Finalize. */
#include <mpi.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const long ps = sysconf(_SC_PAGESIZE), pages = (rank + 1) * 1000L;
    volatile char *p = mmap(NULL, (size_t)(pages * ps), PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        MPI_Abort(MPI_COMM_WORLD, 3);
    for (long i = 0; i < pages; i++)
        p[i * ps] = 1;
    MPI_Barrier(MPI_COMM_WORLD);
    munmap((void *)p, (size_t)(pages * ps));
    MPI_Finalize();
    return 0;
}
