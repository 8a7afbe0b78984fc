/* ompt_threads.c: threads outside OpenMP beside OpenMP regions (check_ompt.py, case
 * threads; issue 58 item 7). Two threads of the program's own (pthreads, no OpenMP call
 * in them) work while a parallel region runs: one made by the initial thread between
 * regions, one made by OpenMP thread 1 inside the warm-up region, both after the tool's
 * counters of their makers were opened (a counter inherited by a new thread would count
 * theirs). In the measured region thread t of 4 writes (t+1) x PAGES fresh pages, as
 * ompt_faults.c does; thread 0 then lets the two threads go and waits until each has
 * written its own OWN_PAGES fresh pages, with sleeps between, so that their work lies
 * inside the region. The tool's file must have the 4 OpenMP threads only, each with its
 * own pages exactly and its own work. Prints, as JSON, the lines, each OpenMP thread's
 * body (from its start and from the fork), the own threads' pages by their own fault
 * counts (getrusage RUSAGE_THREAD) and their spans inside the region. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "ompt_pages.h"
#include "ompt_sleep.h"
#include "ompt_stamp.h"

#define PAGES     64
#define OWN_PAGES 300
#define CHUNK     30 /* an own thread writes its pages CHUNK at a time, a sleep between */

/* One thread of the program's own: its pages, when it may start, what it did. Its
 * fields are atomics: the OpenMP threads read them, and libomp's order is invisible to
 * TSan (ompt_stamp.h). */
struct own {
    char *pages;
    int go, done;
    long faults;       /* its minor faults over its writes, by its own count */
    double begin, end; /* omp_get_wtime around its work */
};

static long page;
static struct own own[2];

static long minor_faults(void)
{
    struct rusage u;
    return getrusage(RUSAGE_THREAD, &u) == 0 ? u.ru_minflt : -1;
}

static void touch(volatile char *p, long pages)
{
    for (long i = 0; i < pages; i++)
        p[i * page] = 1;
}

static void *own_work(void *arg)
{
    struct own *o = arg;
    while (!__atomic_load_n(&o->go, __ATOMIC_ACQUIRE))
        sleep_ms(1);
    stamp(&o->begin);
    long before = minor_faults();
    for (long i = 0; i < OWN_PAGES; i += CHUNK) {
        touch(o->pages + i * page, CHUNK);
        sleep_ms(5);
    }
    long after = minor_faults();
    stamp(&o->end);
    __atomic_store_n(&o->faults, after - before, __ATOMIC_RELAXED);
    __atomic_store_n(&o->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

int main(void)
{
    page = sysconf(_SC_PAGESIZE);
    char *buf = fresh_pages(10 * PAGES * (size_t)page); /* 1 + 2 + 3 + 4 shares */
    own[0].pages = fresh_pages(OWN_PAGES * (size_t)page);
    own[1].pages = fresh_pages(OWN_PAGES * (size_t)page);
    if (!buf || !own[0].pages || !own[1].pages) {
        perror("ompt_threads: mmap");
        return 1;
    }
    for (int i = 0; i < 2; i++) /* their flags' page written here: no fault later */
        __atomic_store_n(&own[i].go, 0, __ATOMIC_RELAXED);
    /* Made by OpenMP thread 1 (atomics: libomp's join is invisible to TSan). */
    pthread_t made[2], by_worker = 0;
    int made_ok[2] = {0, 0};
    const int warmup_line = __LINE__ + 1;
#pragma omp parallel num_threads(4)
    if (omp_get_thread_num() == 1) {
        pthread_t id;
        if (pthread_create(&id, NULL, own_work, &own[1]) == 0) {
            __atomic_store_n(&by_worker, id, __ATOMIC_RELAXED);
            __atomic_store_n(&made_ok[1], 1, __ATOMIC_RELAXED);
        }
    }
    made[1] = __atomic_load_n(&by_worker, __ATOMIC_RELAXED);
    made_ok[0] = pthread_create(&made[0], NULL, own_work, &own[0]) == 0;
    if (!made_ok[0] || !__atomic_load_n(&made_ok[1], __ATOMIC_RELAXED)) {
        fprintf(stderr, "ompt_threads: pthread_create failed\n");
        return 1;
    }
    double began[4], done[4];
    const double fork = omp_get_wtime();
    const int faults_line = __LINE__ + 1;
#pragma omp parallel num_threads(4)
    {
        int t = omp_get_thread_num();
        stamp(&began[t]);
        touch(buf + (long)t * (t + 1) / 2 * PAGES * page, (t + 1) * PAGES);
        if (t == 0) {
            for (int i = 0; i < 2; i++)
                __atomic_store_n(&own[i].go, 1, __ATOMIC_RELEASE);
            while (!__atomic_load_n(&own[0].done, __ATOMIC_ACQUIRE) ||
                   !__atomic_load_n(&own[1].done, __ATOMIC_ACQUIRE))
                sleep_ms(1);
        } else {
            sleep_ms(UNIT_MS * t);
        }
        stamp(&done[t]);
    }
    const double join = omp_get_wtime();
    for (int i = 0; i < 2; i++)
        pthread_join(made[i], NULL);
    printf("{\"file\": \"%s\", \"warmup_line\": %d, \"faults_line\": %d, \"pages\": [%d, %d, "
           "%d, %d], \"region_ms\": %.3f, \"body_ms\": [",
           __FILE__, warmup_line, faults_line, PAGES, 2 * PAGES, 3 * PAGES, 4 * PAGES,
           1e3 * (join - fork));
    for (int t = 0; t < 4; t++)
        printf("%s[%.3f, %.3f]", t ? ", " : "",
               1e3 * (read_stamp(&done[t]) - read_stamp(&began[t])),
               1e3 * (read_stamp(&done[t]) - fork));
    printf("], \"own_pages\": %d, \"own_faults\": [%ld, %ld], \"own_spans_ms\": [", OWN_PAGES,
           own[0].faults, own[1].faults);
    for (int i = 0; i < 2; i++)
        printf("%s[%.3f, %.3f]", i ? ", " : "", 1e3 * (read_stamp(&own[i].begin) - fork),
               1e3 * (read_stamp(&own[i].end) - fork));
    printf("]}\n");
    return 0;
}
