/* pmu_user_read (arm64 PMU lane): the user-space counter read (perf_user_read.h) on a
 * real PMUv3 counter. kernel.perf_user_access=1 (set for the test when it runs as root,
 * restored after), INST_RETIRED opened with the config1 bit the PMU's sysfs format names
 * rdpmc, then mrs of PMEVCNTR<n>_EL0 / PMCCNTR_EL0 from the event's mmap page:
 *  - each user read lies between the read() before and the read() after it (count,
 *    time_enabled, time_running);
 *  - a loop of 2 x 10^6 instructions reads exactly that plus the path of one user read
 *    (the -icount guest counts exactly), whose length it prints;
 *  - with more events than counters (multiplexed), every user read still lies between
 *    the read()s around it, and events off a counter fall back (index 0). */
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../../src-c/lib/components/perf_event/perf_user_read.c"
#include "pmu_hw.h"

#define ACCESS_SYSCTL "/proc/sys/kernel/perf_user_access"
static int restore_access = -1;

struct reading {
    uint64_t count, enabled, running;
};

static void restore(void)
{
    if (restore_access < 0)
        return;
    FILE *f = fopen(ACCESS_SYSCTL, "w");
    if (f) {
        fprintf(f, "%d\n", restore_access);
        fclose(f);
    }
}

static void enable_user_access(void)
{
    FILE *f = fopen(ACCESS_SYSCTL, "r");
    int v = -1;
    if (!f || fscanf(f, "%d", &v) != 1)
        test_skip("no " ACCESS_SYSCTL " (kernel without arm64 user counter access)");
    fclose(f);
    if (v == 1)
        return;
    if (geteuid() != 0)
        test_skip("kernel.perf_user_access is 0 and this test is not root");
    f = fopen(ACCESS_SYSCTL, "w");
    if (!f || fprintf(f, "1\n") < 0 || fclose(f) != 0)
        test_skip("cannot set kernel.perf_user_access to 1");
    restore_access = v;
    atexit(restore);
    printf("kernel.perf_user_access set to 1 for this test (restored to %d after)\n", v);
}

static int open_user_event_of(int bit, unsigned long long config)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_HARDWARE;
    a.config = config;
    a.config1 = UINT64_C(1) << bit;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

static int open_user_event(int bit)
{
    return open_user_event_of(bit, PERF_COUNT_HW_INSTRUCTIONS);
}

static struct perf_event_mmap_page *map_page(int fd)
{
    void *m = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED) {
        fprintf(stderr, "mmap of the event page: %s\n", strerror(errno));
        exit(1);
    }
    return m;
}

static struct reading read_fd(int fd)
{
    uint64_t b[3] = {0, 0, 0};
    if (read(fd, b, sizeof b) != (ssize_t)sizeof b) {
        fprintf(stderr, "read(): %s\n", strerror(errno));
        exit(1);
    }
    return (struct reading){b[0], b[1], b[2]};
}

/* read(), user read, read(): the user read lies in between. 1 if it was a user read. */
static int bracketed(int fd, const struct perf_event_mmap_page *pc, const char *what)
{
    struct reading r1 = read_fd(fd), u;
    int user = perf_user_read(pc, &u.count, &u.enabled, &u.running);
    struct reading r2 = read_fd(fd);
    if (!user)
        return 0;
    CHECK(r1.count <= u.count && u.count <= r2.count, "%s: count %llu not in [%llu, %llu]", what,
          (unsigned long long)u.count, (unsigned long long)r1.count,
          (unsigned long long)r2.count);
    CHECK(r1.enabled <= u.enabled && u.enabled <= r2.enabled, "%s: enabled %llu not in [%llu, %llu]",
          what, (unsigned long long)u.enabled, (unsigned long long)r1.enabled,
          (unsigned long long)r2.enabled);
    CHECK(r1.running <= u.running && u.running <= r2.running, "%s: running %llu not in [%llu, %llu]",
          what, (unsigned long long)u.running, (unsigned long long)r1.running,
          (unsigned long long)r2.running);
    return 1;
}

static uint64_t user_count(const struct perf_event_mmap_page *pc)
{
    uint64_t c = 0, e, r;
    CHECK(perf_user_read(pc, &c, &e, &r) == 1, "user read refused (index %u)", pc->index);
    return c;
}

int main(void)
{
    int bit = pmu_rdpmc_bit();
    if (bit < 0)
        test_skip("no PMU names an rdpmc format bit (kernel older than 5.17, or no PMU)");
    enable_user_access();
    int fd = open_user_event(bit);
    if (fd < 0) {
        char why[128];
        snprintf(why, sizeof why, "perf_event_open of INST_RETIRED with rdpmc: %s",
                 strerror(errno));
        test_skip(why);
    }
    struct perf_event_mmap_page *pc = map_page(fd);
    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
    CHECK(pc->cap_user_rdpmc && pc->index != 0, "the page refuses a user read: cap_user_rdpmc "
          "%u, index %u, cap_user_time %u", (unsigned)pc->cap_user_rdpmc, pc->index,
          (unsigned)pc->cap_user_time);
    printf("page: index %u, pmc_width %u, cap_user_time %u, cap_user_time_short %u\n",
           pc->index, pc->pmc_width, (unsigned)pc->cap_user_time,
           (unsigned)pc->cap_user_time_short);
    for (int i = 0; i < 100; i++)
        CHECK(bracketed(fd, pc, "single event") == 1, "user read refused on try %d", i);

    /* exact: the loop, plus one user read path (measured back to back) */
    uint64_t a = user_count(pc), b = user_count(pc);
    uint64_t path = b - a;
    uint64_t c = user_count(pc);
    pmu_loop(1000000);
    uint64_t d = user_count(pc);
    long long extra = (long long)(d - c) - 2000000 - (long long)path;
    printf("user read path: %llu instructions; loop of 2000000: %llu (call overhead %lld)\n",
           (unsigned long long)path, (unsigned long long)(d - c), extra);
    CHECK(path > 10 && path < 200, "one user read took %llu instructions",
          (unsigned long long)path);
    CHECK(extra >= 0 && extra <= 8, "loop read %llu, expected 2000000 + %llu + call",
          (unsigned long long)(d - c), (unsigned long long)path);

    /* cycles: the kernel puts them on the cycle counter (index 32: PMCCNTR_EL0) */
    int cfd = open_user_event_of(bit, PERF_COUNT_HW_CPU_CYCLES);
    CHECK(cfd >= 0, "open cycles: %s", strerror(errno));
    if (cfd >= 0) {
        struct perf_event_mmap_page *cpc = map_page(cfd);
        ioctl(cfd, PERF_EVENT_IOC_ENABLE, 0);
        for (int i = 0; i < 100; i++)
            CHECK(bracketed(cfd, cpc, "cycles") == 1, "cycles: user read refused");
        printf("cycles: index %u, pmc_width %u\n", cpc->index, cpc->pmc_width);
        munmap(cpc, (size_t)sysconf(_SC_PAGESIZE));
        close(cfd);
    }

    /* multiplexed: more events than the 6 counters */
    enum { N = 9 };
    int fds[N];
    struct perf_event_mmap_page *pcs[N];
    for (int i = 0; i < N; i++) {
        fds[i] = open_user_event(bit);
        CHECK(fds[i] >= 0, "open event %d: %s", i, strerror(errno));
        if (fds[i] < 0)
            return test_done("pmu_user_read");
        pcs[i] = map_page(fds[i]);
        ioctl(fds[i], PERF_EVENT_IOC_ENABLE, 0);
    }
    int user = 0, fallback = 0;
    for (int round = 0; round < 2000; round++) {
        pmu_loop(20000);
        for (int i = 0; i < N; i++) {
            if (bracketed(fds[i], pcs[i], "multiplexed"))
                user++;
            else
                fallback++;
        }
    }
    struct reading last = read_fd(fds[0]);
    printf("multiplexed: %d user reads, %d fallbacks; event 0 ran %.3f of its time\n", user,
           fallback, last.enabled ? (double)last.running / (double)last.enabled : 0.0);
    CHECK(user > 0, "no user read succeeded while multiplexed");
    return test_done("pmu_user_read");
}
