/* bench_ompt_constructs.c: the constructs the OMPT tool sees (issue 73 items 2 and 7), each
 * timed alone inside one parallel region of THREADS threads: bench_ompt_constructs N
 * THREADS runs N instances of each after a warm-up and prints "CONSTRUCT ns" per line, the
 * ns per instance (each thread meets every instance; a task: one created and run per
 * instance). The driver, bench/python/bench_ompt_constructs.py, runs it under the runtime
 * alone and with the tool, in alternating order, and reports the medians and what the
 * tool adds per construct and thread. Naming constructs after THREADS runs those only
 * (the driver's instruction counts, one construct at a time). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_timing.h"
#include "ompt_construct_bodies.h"

static int nasked;
static char **asked;

/* One construct's instances, each of the team's threads meeting each (the master's clock);
 * skipped where constructs were named and it is not one of them. */
static double timed(const char *name, long n, void (*body)(long))
{
    int wanted = nasked == 0;
    for (int i = 0; i < nasked && !wanted; i++)
        wanted = strcmp(asked[i], name) == 0;
    if (!wanted)
        return 0;
    double ns = 0;
#pragma omp parallel
    {
        body(n / 10 + 1); /* warm-up: the construct's tables made, its slots claimed */
#pragma omp barrier
        long long t0 = now_ns();
        body(n);
#pragma omp barrier
#pragma omp master
        ns = (double)(now_ns() - t0) / (double)n;
    }
    printf("%s %.1f\n", name, ns);
    return ns;
}

int main(int argc, char **argv)
{
    long n = argc >= 3 ? atol(argv[1]) : 0;
    int threads = argc >= 3 ? atoi(argv[2]) : 0;
    if (n < 1 || threads < 1) {
        fprintf(stderr, "usage: bench_ompt_constructs N THREADS [CONSTRUCT...]\n");
        return 2;
    }
    nasked = argc - 3, asked = argv + 3;
    omp_set_num_threads(threads);
    omp_init_lock(&ompt_construct_lock);
    for (int c = 0; c < OMPT_CONSTRUCTS; c++)
        timed(ompt_construct_name[c], n, ompt_construct_body[c]);
    omp_destroy_lock(&ompt_construct_lock);
    return 0;
}
