/* hl_omp_regions: a region on the OpenMP master thread around a parallel loop in which
 * every thread touches PAGES fresh pages (hl_omp_regions THREADS PAGES WARM). WARM 1
 * creates the thread pool before the region (a pool that existed before) in a first
 * region that also takes the one-time costs (code pages faulted in), 0 inside it.
 * The region report (PAPI_EVENTS=perf::PAGE-FAULTS) then holds the master's own count
 * (PAGES) and, in "all_threads", the sum over every thread (THREADS x PAGES);
 * check_hl_all_threads.py reads it. No PAPI call beside the region's begin and end.
 * A fourth argument SECONDS spins the master in the region (PAPI_INTERVAL series). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <omp.h>
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static void touch(long pages)
{
    const long ps = sysconf(_SC_PAGESIZE);
    volatile char *p = mmap(NULL, (size_t)(pages * ps), PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        abort();
    for (long i = 0; i < pages; i++)
        p[i * ps] = 1;
    munmap((void *)p, (size_t)(pages * ps));
}

static void spin(double seconds)
{
    const double end = omp_get_wtime() + seconds;
    while (omp_get_wtime() < end)
        ;
}

int main(int argc, char **argv)
{
    if (argc != 4 && argc != 5)
        return 2;
    const int threads = atoi(argv[1]), warm = atoi(argv[3]);
    const long pages = atol(argv[2]);
    omp_set_num_threads(threads);
    if (warm) { /* the pool, and a first region's one-time costs (code pages, sets) */
        PAPI_hl_region_begin("warm-up");
#pragma omp parallel
        {
            touch(1);
        }
        PAPI_hl_region_end("warm-up");
        /* libgomp allocates its team (memalign) at each parallel region, and frees it at
         * the end: a few more, outside the regions, leave the heap in the state where the
         * region's allocation reuses memory already touched (the first ones may take a
         * chunk the library freed but never wrote: a page fault counted in the region). */
        for (int i = 0; i < 4; i++) {
#pragma omp parallel
            {
                touch(1);
            }
        }
    }
    if (PAPI_hl_region_begin("work") != PAPI_OK)
        return 1;
#pragma omp parallel
    {
        touch(pages);
    }
    if (argc == 5) /* the PAPI_INTERVAL test: the master spins SECONDS in the region */
        spin(atof(argv[4]));
    if (PAPI_hl_region_end("work") != PAPI_OK)
        return 1;
    return 0;
}
