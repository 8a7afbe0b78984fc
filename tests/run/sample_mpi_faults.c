/* sample_mpi_faults.c: papi_run --sample -m over MPI ranks (check_sample.py mpi_metrics).
 *   sample_mpi_faults PASSES SPIN0 SPIN1
 * Every rank's touch_pages faults in the 1024 pages of a 4 MiB mapping PASSES times
 * (dropped again after each pass, so each pass faults them anew), computing SPIN0 (rank
 * 0) or SPIN1 (the other ranks) steps after each page; then crunch computes. The more a
 * rank computes per page, the fewer page faults per ms of CPU its touch_pages has. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGES 1024

static volatile unsigned long sink;

__attribute__((noinline)) void touch_pages(char *map, long page, long passes, long spin)
{
    unsigned long x = sink;
    for (long p = 0; p < passes; p++) {
        for (long i = 0; i < PAGES; i++) {
            map[i * page] = (char)i;
            for (long k = 0; k < spin; k++)
                x = x * 6364136223846793005UL + 1442695040888963407UL;
        }
        madvise(map, (size_t)(PAGES * page), MADV_DONTNEED);
    }
    sink = x;
}

__attribute__((noinline)) void crunch(long steps)
{
    unsigned long x = sink;
    for (long i = 0; i < steps; i++)
        x = x * 6364136223846793005UL + 1442695040888963407UL;
    sink = x;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 4) {
        if (rank == 0)
            fprintf(stderr, "usage: sample_mpi_faults PASSES SPIN0 SPIN1\n");
        MPI_Finalize();
        return 2;
    }
    long page = sysconf(_SC_PAGESIZE), passes = atol(argv[1]);
    long spin = atol(argv[rank == 0 ? 2 : 3]);
    char *map = mmap(NULL, (size_t)(PAGES * page), PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED)
        return perror("mmap"), 1;
    touch_pages(map, page, passes, spin);
    crunch(50000000L);
    munmap(map, (size_t)(PAGES * page));
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
