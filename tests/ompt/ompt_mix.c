/* ompt_mix.c: the OMPT tool with counters on through several kinds of regions, for the
 * TSan lane (check_ompt.py, case mix; issue 58's Tests): ROUNDS rounds, each of a
 * schedule(static) loop of 4 threads where thread t writes (t+1) x PAGES fresh pages, a
 * nested region (an outer team of 2, each thread forking an inner team of 2), and a team
 * of 4 whose single thread makes TASKS explicit tasks run by the team. Prints the
 * directives' lines and the known counts as JSON. */
#include <omp.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ompt_pages.h"
#include "ompt_sleep.h"

#define ROUNDS 5
#define PAGES  16
#define TASKS  8

/* The round's pages and the page size, set by the master before each fork and read by the
 * team: atomics, as libomp's fork orders them for the program but, not instrumented,
 * invisibly to TSan (its report would be of the program, not of the tool). */
static char *round_pages;
static long page_size;

static void touch(long first, long pages)
{
    volatile char *p = __atomic_load_n(&round_pages, __ATOMIC_ACQUIRE);
    const long page = __atomic_load_n(&page_size, __ATOMIC_RELAXED);
    for (long i = 0; i < pages; i++)
        p[(first + i) * page] = 1;
}

int main(void)
{
    const long page = sysconf(_SC_PAGESIZE);
    const size_t round_bytes = (size_t)(10 * PAGES * page); /* 1 + 2 + 3 + 4 shares */
    const size_t bytes = ROUNDS * round_bytes;
    char *buf = fresh_pages(bytes);
    if (!buf) {
        perror("ompt_mix: mmap");
        return 1;
    }
    __atomic_store_n(&page_size, page, __ATOMIC_RELAXED);
    __atomic_store_n(&round_pages, buf, __ATOMIC_RELEASE);
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(4) /* the team and its stacks start here */
    touch(0, 0);
    int loop_line = 0, outer_line = 0, inner_line = 0, tasks_line = 0;
    for (int round = 0; round < ROUNDS; round++) {
        __atomic_store_n(&round_pages, buf + round * round_bytes, __ATOMIC_RELEASE);
        loop_line = __LINE__ + 1;
#pragma omp parallel for schedule(static) num_threads(4)
        for (int t = 0; t < 4; t++)
            touch((long)t * (t + 1) / 2 * PAGES, (t + 1) * PAGES);
        outer_line = __LINE__ + 1;
#pragma omp parallel num_threads(2)
        {
            const int line = __LINE__ + 1;
#pragma omp parallel num_threads(2)
            sleep_ms(1);
            __atomic_store_n(&inner_line, line,
                             __ATOMIC_RELAXED); /* libomp's join: unseen by TSan */
        }
        tasks_line = __LINE__ + 1;
#pragma omp parallel num_threads(4)
#pragma omp single
        for (int k = 0; k < TASKS; k++) {
#pragma omp task
            sleep_ms(1);
        }
    }
    printf("{\"file\": \"%s\", \"rounds\": %d, \"tasks\": %d, \"loop_line\": %d, \"outer_line\": "
           "%d, \"inner_line\": %d, \"tasks_line\": %d, \"pages\": [%d, %d, %d, %d]}\n",
           __FILE__, ROUNDS, TASKS, loop_line, outer_line,
           __atomic_load_n(&inner_line, __ATOMIC_RELAXED), tasks_line, ROUNDS * PAGES,
           ROUNDS * 2 * PAGES, ROUNDS * 3 * PAGES, ROUNDS * 4 * PAGES);
    munmap(buf, bytes);
    return 0;
}
