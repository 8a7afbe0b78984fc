/* test_workload.h: the exact-count workload, busy time and the fd count tests share, with no
 * PAPI in them, so MPI test programs built without the library use the same ones. */
#ifndef TEST_WORKLOAD_H
#define TEST_WORKLOAD_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* ThreadSanitizer does not see the kernel order a munmap in one thread and an mmap of the
 * same addresses in another: it would report the second thread's first touches as racing
 * with the first's. Its builds keep the mappings (a few pages per call). */
#if defined(__SANITIZE_THREAD__)
#define TEST_WORKLOAD_KEEP_MAPPINGS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TEST_WORKLOAD_KEEP_MAPPINGS 1
#endif
#endif

/* Touch n fresh anonymous pages: exactly n page faults (minor, user mode). The
 * mapping is made and unmapped outside the counted region by the caller's choice of
 * where to call this; mmap/munmap themselves take no page faults. */
static inline void touch_pages(long n)
{
    long page = sysconf(_SC_PAGESIZE);
    if (n <= 0)
        return;
    volatile char *p = mmap(NULL, (size_t)(n * page), PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        exit(2);
    }
    /* One fault per 4 KiB page: a transparent huge page would take 512 at once. */
    madvise((void *)p, (size_t)(n * page), MADV_NOHUGEPAGE);
    for (long i = 0; i < n; i++)
        p[i * page] = 1;
#ifndef TEST_WORKLOAD_KEEP_MAPPINGS
    munmap((void *)p, (size_t)(n * page));
#endif
}

/* The monotonic clock in seconds. */
static inline double test_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Busy work for the given wall time (a loop the compiler cannot drop). */
static inline double test_spin(double seconds)
{
    volatile double x = 1.0;
    double end = test_now() + seconds;
    while (test_now() < end)
        for (int i = 0; i < 1000; i++)
            x = x * 1.0000001 + 1e-9;
    return x;
}

/* Run the workload once so its code and stack pages are resident before counting:
 * the first call into a code page is itself a page fault. */
static inline void warm_up(void)
{
    touch_pages(4);
    touch_pages(4);
}

/* The read system calls so far (syscr) of this thread (io_file "/proc/thread-self/io") or
 * of the whole process ("/proc/self/io"); -1 where the kernel keeps no I/O accounting.
 * Reading the file is such a call itself: a caller compares two readings. */
static inline long read_syscalls(const char *io_file)
{
    char line[256];
    long n = -1;
    FILE *f = fopen(io_file, "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "syscr:", 6) == 0)
            n = atol(line + 6);
    if (f)
        fclose(f);
    return n;
}

/* Open file descriptors of this process (a perf fd left behind shows up here). */
static inline int count_fds(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return -1;
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

#endif
