/* bench_sample_ring.c: the per-sample cost of papi_run --sample's ring path in the arm64
 * guest against the raw ring floor (issue 48; bench/README.md, run by
 * bench/arm64/run-sample-bench.sh). Three modes:
 *   bench_sample_ring plain N     spin N iterations (3 instructions each), nothing else
 *   bench_sample_ring floor N P   the same with this thread's own ring: CPU_CYCLES every P
 *                                 cycles, the sample papi_run's default takes where
 *                                 perf_event_paranoid lets it count the kernel (as root in
 *                                 the guest): IP, TID, PERIOD, the kernel's and the user's
 *                                 frame-pointer chain, a watermark; read by nobody but
 *                                 counted at the end; prints "samples S"
 *   bench_sample_ring meter CMD.. runs CMD and prints "cntvct T": the guest's virtual
 *                                 counter over its whole run (under -icount every guest
 *                                 instruction, kernel and every process included)
 * A figure is the difference between two loop sizes (N and 2N), so what a run pays once
 * (papi_run's start, the library's load, naming the stacks at exit) cancels: per sample =
 * (T(2N) - T(N) - (plain(2N) - plain(N))) / (S(2N) - S(N)). */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exact_loop.h"
#include "ring_samples.h"

#define RING_PAGES 256 /* 1 MiB: every sample of the longest run, never wrapped */

static uint64_t cntvct(void)
{
#if defined(__aarch64__)
    uint64_t v;
    __asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v));
    return v;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

/* Frames of its own (noinline, frame pointers): the chain the kernel walks per sample. */
static __attribute__((noinline)) void spin(long n)
{
    EXACT_LOOP_3(n);
}

static __attribute__((noinline)) void work(long n)
{
    spin(n);
}

static int floor_run(long n, long period)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_RAW;
    a.config = 0x11; /* CPU_CYCLES */
    a.exclude_hv = 1;
    a.disabled = 1;
    a.sample_period = (uint64_t)period;
    a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
    a.watermark = 1;
    a.wakeup_watermark = 32768;
    int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0) {
        perror("perf_event_open");
        return 1;
    }
    size_t len = (size_t)sysconf(_SC_PAGESIZE) * (RING_PAGES + 1);
    void *map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
    work(n);
    ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
    printf("samples %ld\n", ring_samples(map));
    munmap(map, len);
    close(fd);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "plain") == 0) {
        work(atol(argv[2]));
        return 0;
    }
    if (argc >= 4 && strcmp(argv[1], "floor") == 0)
        return floor_run(atol(argv[2]), atol(argv[3]));
    if (argc >= 3 && strcmp(argv[1], "meter") == 0) {
        uint64_t t0 = cntvct();
        pid_t p = fork();
        if (p == 0) {
            execvp(argv[2], argv + 2);
            _exit(127);
        }
        int st = 0;
        waitpid(p, &st, 0);
        uint64_t t1 = cntvct();
        printf("cntvct %llu status %d\n", (unsigned long long)(t1 - t0), st);
        return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
    }
    fprintf(stderr, "usage: bench_sample_ring plain N | floor N PERIOD | meter CMD...\n");
    return 2;
}
