/* raw_group.h: a group of raw perf events of this thread opened beside the library, with
 * each event's mmap page, for the programs that measure a read against its floor (the
 * PMU lane's pmu_papi_user_read and pmu_read_plt, bench/arm64's bench_paths): the floor is
 * the events read in user space with the library's own algorithm (perf_user_read.h). Each
 * program opens the group with its own attributes; closing and reading are shared. No
 * PAPI: the benches built without the library use it too. */
#ifndef RAW_GROUP_H
#define RAW_GROUP_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perf_user_read.h"

#define RAW_GROUP_MAX 16

struct raw_group {
    int fd[RAW_GROUP_MAX];
    const struct perf_event_mmap_page *page[RAW_GROUP_MAX]; /* NULL: not mapped */
    int n;
};

/* The sum of the events' counts, each read in user space from its page: the floor of a
 * read. Aborts where a page refuses the user read (the floor would be a system call). */
static inline uint64_t raw_group_user_sum(const struct raw_group *g)
{
    uint64_t c, e, r, s = 0;
    for (int i = 0; i < g->n; i++) {
        if (!perf_user_read(g->page[i], &c, &e, &r))
            abort();
        s += c;
    }
    return s;
}

/* The pages unmapped and the events closed, the leader last; the group empty. */
static inline void raw_group_close(struct raw_group *g)
{
    for (int i = g->n - 1; i >= 0; i--) {
        if (g->page[i])
            munmap((void *)g->page[i], (size_t)sysconf(_SC_PAGESIZE));
        close(g->fd[i]);
    }
    g->n = 0;
}

#endif
