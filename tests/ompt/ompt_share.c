/* ompt_share.c: a named region's all-thread total from the OpenMP workers' share (issue
 * 58 item 5; check_ompt_regions.py, case share). The main thread's region "faults" spans
 * a parallel region in which thread t of THREADS writes one byte into each of (t+1) x
 * PAGES fresh pages of its own (one page fault each): its all-thread perf::PAGE-FAULTS is
 * the sum over the threads, THREADS (THREADS + 1) / 2 x PAGES, however it is counted.
 * After it, PAIRS empty region begin + end pairs on the main thread between parallel
 * regions, with the process's read() calls over them (/proc/self/io syscr): two per pair
 * (the own set's) when the share stands for the other threads, whatever their number; one
 * more per thread and snapshot from the process counters otherwise. argv[1]: THREADS;
 * argv[2] "foreign": a thread of the program's own (not OpenMP's), started and asleep
 * before the regions (its start-up faults behind it: under load it started late once,
 * +2), sleeps meanwhile;
 * "early": the team starts before the first region (the process counters then have one
 * row per thread). */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ompt_pages.h"
#include "papi.h"
#include "test_workload.h"

#define PAGES 64
#define PAIRS 100

static void touch(volatile char *p, long pages, long page)
{
    for (long i = 0; i < pages; i++)
        p[i * page] = 1;
}

/* The timed pairs (bench/README.md counts them with callgrind --toggle-collect). */
__attribute__((noinline)) static void region_pairs(void)
{
    for (int i = 0; i < PAIRS; i++) {
        PAPI_hl_region_begin("pair");
        PAPI_hl_region_end("pair");
    }
}

static int stop[2], started[2];

/* Says it started (its own start-up page faults, stack and TLS, are then behind it), then
 * sleeps until main's end: none of its faults fall in the region. */
static void *sleeper(void *arg)
{
    char c;
    (void)arg;
    (void)!write(started[1], "s", 1);
    return read(stop[0], &c, 1) < 0 ? NULL : NULL;
}

int main(int argc, char **argv)
{
    const int threads = argc > 1 ? atoi(argv[1]) : 4;
    const int foreign = argc > 2 && strcmp(argv[2], "foreign") == 0;
    const int early = argc > 2 && strcmp(argv[2], "early") == 0;
    const long page = sysconf(_SC_PAGESIZE);
    const size_t bytes = (size_t)((long)threads * (threads + 1) / 2 * PAGES * page);
    char *buf = fresh_pages(bytes);
    pthread_t other;
    char c;
    if (threads < 1 || threads > 64 || !buf || pipe(stop) != 0 || pipe(started) != 0 ||
        (foreign && (pthread_create(&other, NULL, sleeper, NULL) != 0 ||
                     read(started[0], &c, 1) != 1))) { /* it runs, asleep, before the regions */
        perror("ompt_share");
        return 1;
    }
    if (early) {
#pragma omp parallel num_threads(threads)
        touch(buf, 0, page);
    }
    /* the team, its stacks, this code and the region API's first region: warm */
    for (int k = 0; k < 2; k++) {
        if (PAPI_hl_region_begin("warm") != PAPI_OK)
            return 77;
#pragma omp parallel num_threads(threads)
        touch(buf, 0, page);
        PAPI_hl_region_end("warm");
    }
    PAPI_hl_region_begin("faults");
#pragma omp parallel num_threads(threads)
    {
        long t = omp_get_thread_num();
        touch(buf + t * (t + 1) / 2 * PAGES * page, (t + 1) * PAGES, page);
    }
    PAPI_hl_region_end("faults");
    long before = read_syscalls("/proc/self/io");
    region_pairs();
    long after = read_syscalls("/proc/self/io");
    if (foreign) {
        (void)!write(stop[1], "x", 1);
        pthread_join(other, NULL);
    }
    printf("{\"threads\": %d, \"pages\": %ld, \"reads_per_pair\": %.2f}\n", threads,
           (long)threads * (threads + 1) / 2 * PAGES, (double)(after - before) / PAIRS);
    munmap(buf, bytes);
    return 0;
}
