/* probe_inherit: what the kernel allows for the region API's process counters (inherited
 * per-task perf events, hl_all_threads.c), the facts bench/README.md cites for why a
 * region's own events and the process counters take separate read()s. Prints one line
 * per question, exit 0. In the arm64 PMU guest (static build):
 *   aarch64-linux-gnu-gcc -O1 -static -pthread -o DIR/probe_inherit bench/arm64/probe_inherit.c
 *   scripts/guest/run-arm64 DIR -- ./probe_inherit */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* user instructions of this thread (inherited: and of the threads it creates later) */
static int open_insns(int inherit, int group)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_HARDWARE;
    a.config = PERF_COUNT_HW_INSTRUCTIONS;
    a.exclude_kernel = 1;
    a.inherit = (unsigned)inherit;
    a.read_format = PERF_FORMAT_GROUP;
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, group, 0);
}

static void *work(void *arg)
{
    (void)arg;
    for (volatile long i = 0; i < 1000000; i++)
        ;
    return NULL;
}

static void outcome(const char *what, int fd)
{
    printf("%s: %s\n", what, fd >= 0 ? "accepted" : strerror(errno));
}

int main(void)
{
    int leader = open_insns(1, -1);
    if (leader < 0) {
        printf("SKIPPED: no instructions event (%s)\n", strerror(errno));
        return 0;
    }
    outcome("inherited leader, sibling without inherit", open_insns(0, leader));
    int own = open_insns(0, -1);
    outcome("leader without inherit, inherited sibling", own >= 0 ? open_insns(1, own) : -1);
    void *page = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, leader, 0);
    outcome("mmap of an inherited per-task event (its user page)", page == MAP_FAILED ? -1 : 0);
    uint64_t v[2] = {0}, w[2] = {0};
    pthread_t t;
    if (read(leader, v, sizeof v) != sizeof v || pthread_create(&t, NULL, work, NULL) != 0)
        return 0;
    pthread_join(t, NULL);
    if (read(leader, w, sizeof w) == sizeof w)
        printf("inherited group read() across a thread that ran 1M loop steps: +%llu\n",
               (unsigned long long)(w[1] - v[1]));
    return 0;
}
