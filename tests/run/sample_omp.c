/* sample_omp.c: two OpenMP threads (the master and one of libgomp's) each spin N units
 * in omp_work, for papi_run --sample (check_sample.py omp): both threads' ids under
 * omp_work in the profile. Built with -fopenmp and frame pointers. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long sink;

__attribute__((noinline)) void omp_work(long units)
{
    unsigned long x = (unsigned long)units; /* (not sink: the other thread adds to it) */
    for (long i = 0; i < units * 1000000L; i++)
        x = x * 6364136223846793005UL + 1442695040888963407UL;
#pragma omp atomic /* (both threads add: no race) */
    sink += x;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10;
    int threads = 0;
#pragma omp parallel num_threads(2)
    {
        omp_work(n);
#pragma omp atomic
        threads++;
    }
    printf("omp threads %d (%lx)\n", threads, sink);
    return threads == 2 ? 0 : 1;
}
