/* sample_faults.c: known work per function for papi_run --sample -m (check_sample_metrics.py).
 *   sample_faults ROUNDS
 * touch_pages faults in the 1024 pages of a 4 MiB mapping (dropped again after each pass,
 * so each pass faults them anew), crunch only computes; each round does both. Built with
 * frame pointers and no inlining, so every function keeps its frame. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGES 1024

static volatile unsigned long sink;

__attribute__((noinline)) void touch_pages(char *map, long page, int passes)
{
    for (int p = 0; p < passes; p++) {
        for (long i = 0; i < PAGES; i++)
            map[i * page] = (char)i;
        madvise(map, (size_t)(PAGES * page), MADV_DONTNEED);
    }
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
    if (argc < 2)
        return fprintf(stderr, "usage: sample_faults ROUNDS\n"), 2;
    long page = sysconf(_SC_PAGESIZE), rounds = atol(argv[1]);
    char *map = mmap(NULL, (size_t)(PAGES * page), PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED)
        return perror("mmap"), 1;
    for (long r = 0; r < rounds; r++) {
        touch_pages(map, page, 10);
        crunch(10000000L);
    }
    munmap(map, (size_t)(PAGES * page));
    return 0;
}
