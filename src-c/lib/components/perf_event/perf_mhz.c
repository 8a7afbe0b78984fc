/* perf_mhz.c: the CPU clock measured with a user-mode cycles counter, for hardware
 * information on machines that publish no frequency (many arm64 nodes, the QEMU guest). */
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "perf_mhz.h"

static double thread_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* User cycles per second of this thread's CPU time over about 20 ms, in MHz; 0 where no
 * cycles counter counts (no PMU, perf_event_paranoid). hwinfo's last-but-one source of the
 * nominal frequency (hwinfo_freq.c), installed as its meter by PAPI_library_init. */
int perf_measure_mhz(void)
{
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_HARDWARE;
    attr.config = PERF_COUNT_HW_CPU_CYCLES;
    attr.exclude_kernel = attr.exclude_hv = 1;
    int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0)
        return 0;
    unsigned long long c0 = 0, c1 = 0;
    double t0 = thread_seconds(), t1 = t0;
    volatile unsigned long spin = 0;
    int ok = read(fd, &c0, sizeof c0) == (ssize_t)sizeof c0;
    while (ok && (t1 = thread_seconds()) - t0 < 0.02)
        for (int i = 0; i < 10000; i++)
            spin = spin + 1;
    ok = ok && read(fd, &c1, sizeof c1) == (ssize_t)sizeof c1;
    close(fd);
    if (!ok || c1 <= c0 || t1 <= t0)
        return 0;
    return (int)((double)(c1 - c0) / (t1 - t0) / 1e6 + 0.5);
}
