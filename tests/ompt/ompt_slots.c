/* ompt_slots.c: more threads than the tool's slots (check_ompt.py, cases slots_sequence
 * and slots_team; issue 69 N4). The tool keeps a slot per live thread, OMPT_THREADS_MAX
 * (1024) at once, and gives an ended thread's slot to the next thread.
 *   "sequence" (default): THREADS pthreads of the program's own, made one after another
 *       (each joined before the next), each forking one region of a team of 2 and
 *       touching PAGES fresh pages per OpenMP thread in it: every instance and implicit
 *       task counted, the pages exactly.
 *   "team N": one region of a team of N (more than the slots): the threads past the
 *       slots are said (their implicit tasks, the region's efficiencies null).
 * Prints, as JSON, the directive's line, the threads and team sizes. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define THREADS 1500
#define PAGES   4

static int region_line;

static void touch(void)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t len = (size_t)PAGES * (size_t)page;
    char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        abort();
    for (size_t i = 0; i < len; i += (size_t)page)
        p[i] = 1;
    munmap(p, len);
}

static void *fork_team(void *arg)
{
    (void)arg;
    region_line = __LINE__ + 1;
#pragma omp parallel num_threads(2)
    touch();
    return NULL;
}

static int sequence(void)
{
    for (int i = 0; i < THREADS; i++) {
        pthread_t t;
        if (pthread_create(&t, NULL, fork_team, NULL) != 0 || pthread_join(t, NULL) != 0) {
            fprintf(stderr, "ompt_slots: thread %d: cannot make it\n", i);
            return 1;
        }
    }
    printf("{\"file\": \"%s\", \"line\": %d, \"threads\": %d, \"team\": 2, \"pages\": %d}\n",
           __FILE__, region_line, THREADS, PAGES);
    return 0;
}

static int team(int n)
{
    int got = 0;
    const int line = __LINE__ + 1;
#pragma omp parallel num_threads(n)
    {
#pragma omp single /* atomic: the join is libomp's, which ThreadSanitizer does not see */
        __atomic_store_n(&got, omp_get_num_threads(), __ATOMIC_RELEASE);
    }
    got = __atomic_load_n(&got, __ATOMIC_ACQUIRE);
    printf("{\"file\": \"%s\", \"line\": %d, \"team\": %d}\n", __FILE__, line, got);
    return got == n ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "team") == 0)
        return team(atoi(argv[2]));
    return sequence();
}
