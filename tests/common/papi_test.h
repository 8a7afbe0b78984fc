/* papi_test.h: what every C test program shares: exact-count workloads and checks.
 * A test exits 0 on success, 1 on failure, and 77 (ctest SKIP_RETURN_CODE) after
 * printing "SKIPPED: <reason>" when the machine lacks what it needs. */
#ifndef PAPI_TEST_H
#define PAPI_TEST_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "papi.h"

#define TEST_SKIP_CODE 77

static int test_failures;

#define CHECK(cond, ...)                                                             \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);          \
            fprintf(stderr, __VA_ARGS__);                                            \
            fprintf(stderr, "\n");                                                   \
            test_failures++;                                                         \
        }                                                                            \
    } while (0)

/* Check a PAPI return code; prints the name of the call and the error string. */
#define CHECK_RET(call, expected)                                                    \
    do {                                                                             \
        int r_ = (call);                                                             \
        if (r_ != (expected)) {                                                      \
            fprintf(stderr, "FAIL %s:%d: %s returned %d (%s), expected %d (%s)\n",   \
                    __FILE__, __LINE__, #call, r_, PAPI_strerror(r_) ? PAPI_strerror(r_) : "?", \
                    (expected), PAPI_strerror(expected) ? PAPI_strerror(expected) : "?"); \
            test_failures++;                                                         \
        }                                                                            \
    } while (0)

#define CHECK_EQ_LL(got, want)                                                       \
    CHECK((long long)(got) == (long long)(want), "got %lld, want %lld", (long long)(got), \
          (long long)(want))

static inline void test_skip(const char *reason)
{
    printf("SKIPPED: %s\n", reason);
    exit(TEST_SKIP_CODE);
}

static inline int test_done(const char *name)
{
    if (test_failures) {
        printf("%s: FAILED (%d checks)\n", name, test_failures);
        return 1;
    }
    printf("%s: PASSED\n", name);
    return 0;
}

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
    munmap((void *)p, (size_t)(n * page));
}

/* Run the workload once so its code and stack pages are resident before counting:
 * the first call into a code page is itself a page fault. */
static inline void warm_up(void)
{
    touch_pages(4);
    touch_pages(4);
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

static inline void init_or_die(void)
{
    int r = PAPI_library_init(PAPI_VER_CURRENT);
    if (r != PAPI_VER_CURRENT) {
        fprintf(stderr, "PAPI_library_init failed: %d (%s)\n", r, PAPI_strerror(r));
        exit(1);
    }
}

#endif
