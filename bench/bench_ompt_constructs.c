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

#define EMPTY_BODY __asm__ __volatile__("" ::: "memory")

static omp_lock_t lock;
static volatile long sink;

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

static void critical(long n)
{
    for (long i = 0; i < n; i++) {
#pragma omp critical
        sink++;
    }
}

static void locked(long n)
{
    for (long i = 0; i < n; i++) {
        omp_set_lock(&lock);
        sink++;
        omp_unset_lock(&lock);
    }
}

static void static_loop(long n)
{
    for (long i = 0; i < n; i++) {
#pragma omp for schedule(static) nowait
        for (int k = 0; k < 64; k++)
            EMPTY_BODY;
    }
}

static void dynamic_loop(long n)
{
    for (long i = 0; i < n; i++) {
#pragma omp for schedule(dynamic, 16) nowait
        for (int k = 0; k < 64; k++)
            EMPTY_BODY;
    }
}

static void single(long n)
{
    for (long i = 0; i < n; i++) {
#pragma omp single nowait
        sink++;
    }
}

static void barrier(long n)
{
    for (long i = 0; i < n; i++) {
#pragma omp barrier
    }
}

static void tasks(long n)
{
#pragma omp single
    for (long i = 0; i < n; i++) {
#pragma omp task
        EMPTY_BODY;
    }
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
    omp_init_lock(&lock);
    timed("critical", n, critical);
    timed("lock", n, locked);
    timed("loop_static", n, static_loop);
    timed("loop_dynamic", n, dynamic_loop);
    timed("single", n, single);
    timed("barrier", n, barrier);
    timed("task", n, tasks);
    omp_destroy_lock(&lock);
    return 0;
}
