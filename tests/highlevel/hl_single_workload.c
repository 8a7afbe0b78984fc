/* hl_single_workload: all-thread totals of a process that had one thread, then two. The
 * main thread marks "first" (its process counter is read: the offset to its own set is
 * taken), "alone" (one thread: no process counter read, its own count plus the offset),
 * "spawn" (begun alone, a thread touching THREAD_PAGES pages created and joined inside:
 * the end reads the process counter) and "after" (a second thread's pages, every read
 * real). With "joined" a thread touching THREAD_PAGES pages is created and joined before
 * the first region: the process then has one thread again (glibc's flag says otherwise),
 * which must cost what a process that never had one pays. "SYSCR alone N": the read
 * system calls of the "alone" begin + end (the task's syscr, /proc/thread-self/io, less
 * what reading it costs). check_hl_single.py reads the region report. */
#include <pthread.h>
#include <string.h>

#include "papi_test.h"

#define THREAD_PAGES 30

static void *toucher(void *arg)
{
    touch_pages((long)arg);
    return NULL;
}

static void spawn(long pages)
{
    pthread_t th;
    if (pthread_create(&th, NULL, toucher, (void *)pages) != 0) {
        printf("SKIPPED: pthread_create failed\n");
        exit(77);
    }
    pthread_join(th, NULL);
}

/* This thread's read system calls so far (it reads its io file: the caller subtracts
 * the cost of one call). */
static long syscr(void)
{
    long n = read_syscalls("/proc/thread-self/io");
    if (n < 0) {
        printf("SKIPPED: no syscr in /proc/thread-self/io (CONFIG_TASK_IO_ACCOUNTING)\n");
        exit(77);
    }
    return n;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "joined") == 0)
        spawn(THREAD_PAGES);
    warm_up();
    for (int k = 0; k < 2; k++) { /* the set-up and every path resident */
        CHECK_RET(PAPI_hl_region_begin("first"), PAPI_OK);
        touch_pages(2);
        CHECK_RET(PAPI_hl_region_end("first"), PAPI_OK);
    }
    long a = syscr(), b = syscr(), cost = b - a;
    a = syscr();
    CHECK_RET(PAPI_hl_region_begin("alone"), PAPI_OK);
    touch_pages(40);
    CHECK_RET(PAPI_hl_region_end("alone"), PAPI_OK);
    b = syscr();
    printf("SYSCR alone %ld\n", b - a - cost);
    CHECK_RET(PAPI_hl_region_begin("spawn"), PAPI_OK);
    spawn(THREAD_PAGES);
    CHECK_RET(PAPI_hl_region_end("spawn"), PAPI_OK);
    CHECK_RET(PAPI_hl_region_begin("after"), PAPI_OK);
    spawn(THREAD_PAGES);
    CHECK_RET(PAPI_hl_region_end("after"), PAPI_OK);
    printf("hl_single_workload: PASSED\n");
    return 0;
}
