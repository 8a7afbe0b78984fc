/* bench_ompt_forkjoin.c: fork and join of an empty parallel region, the cost the OMPT
 * tool adds per region and thread (issue 58 item 6). bench_ompt_forkjoin N THREADS runs
 * N empty regions of THREADS threads after a warm-up and prints the ns per region; the
 * driver, bench/python/bench_ompt_cost.py, runs it without a tool, with the tool and its
 * counters off, and with counters on, in alternating order, and reports the medians. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_timing.h"

/* Nothing, which the compiler may not drop (an empty region it elides). */
#define EMPTY_BODY __asm__ __volatile__("" ::: "memory")

int main(int argc, char **argv)
{
    long n = argc == 3 ? atol(argv[1]) : 0;
    int threads = argc == 3 ? atoi(argv[2]) : 0;
    if (n < 1 || threads < 1) {
        fprintf(stderr, "usage: bench_ompt_forkjoin N THREADS\n");
        return 2;
    }
    omp_set_num_threads(threads);
    for (int i = 0; i < 1000; i++) { /* the team made, the tool's slots claimed */
#pragma omp parallel
        EMPTY_BODY;
    }
    long long t0 = now_ns();
    for (long i = 0; i < n; i++) {
#pragma omp parallel
        EMPTY_BODY;
    }
    printf("%.1f\n", (double)(now_ns() - t0) / (double)n);
    return 0;
}
