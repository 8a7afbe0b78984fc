/* ompt_shared.c: threads that share a core (check_papi_run_omp.py): the process is bound
 * to one CPU before the runtime starts, so its 2 threads take turns on it. Thread 0
 * computes for 2 units of CPU time, thread 1 for 1: the true balance is 3 / 4 = 0.75, and
 * CPU time shows it, while on wall time thread 1's turns waiting for the core count as
 * work (about 5 / 6). Then a region where both compute 1/5 unit. Prints its facts. */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>

#define UNIT_CPU_MS 100

static double thread_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Computes until this thread has run ms of CPU time (a sleep would not need the core). */
static void compute_ms(double ms)
{
    double end = thread_cpu_ms() + ms;
    while (thread_cpu_ms() < end)
        ;
}

int main(void)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    if (sched_getaffinity(0, sizeof one, &one) != 0)
        return 1;
    int first = 0;
    while (first < CPU_SETSIZE && !CPU_ISSET(first, &one))
        first++;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0)
        return 1;
#pragma omp parallel num_threads(2)
    compute_ms(omp_get_thread_num() == 0 ? 2 * UNIT_CPU_MS : UNIT_CPU_MS); /* UNEQUAL_LINE */
#pragma omp parallel num_threads(2)
    compute_ms(UNIT_CPU_MS / 5);
    printf("{\"shared_core\": %d, \"unit_cpu_ms\": %d}\n", first, UNIT_CPU_MS);
    return 0;
}
