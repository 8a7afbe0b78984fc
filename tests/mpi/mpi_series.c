/* mpi_series: rank r touches (r + 1) x 10 x 64 fresh pages in 10 steps 0.05 s apart
 * (about 0.5 s), then MPI_Finalize: the rank's PAPI_INTERVAL series grows in steps
 * (check_mpi_series.py). */
#include <mpi.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define STEPS 10
#define PAGES 64

int main(int argc, char **argv)
{
    int rank;
    long page = sysconf(_SC_PAGESIZE);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    size_t n = (size_t)(rank + 1) * PAGES * (size_t)page;
    for (int s = 0; s < STEPS; s++) {
        volatile char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            MPI_Abort(MPI_COMM_WORLD, 1);
        for (size_t i = 0; i < n; i += (size_t)page)
            p[i] = 1;
        munmap((void *)p, n);
        usleep(50000);
    }
    MPI_Finalize();
    return 0;
}
