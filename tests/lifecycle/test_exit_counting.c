/* test_exit_counting.c: a process that calls exit() while its threads count with overflow
 * armed must end with its own exit status. The library's destructor runs at exit as at
 * dlclose; at exit it must not tear down under the threads still calling it, nor put
 * the overflow signal's default action back while signals are still queued for them
 * (SIGRTMIN+2's default action terminates the process).
 *
 * Each of [children] (default 200) forked children initialises the library and starts
 * six threads: five with hardware-style overflow on perf::PAGE-FAULTS at every fault (the
 * kernel queues one signal per overflow) and one with software overflow (a timer on the
 * thread's CPU clock), all touching new pages and reading their sets in a loop; after 2
 * to 20 ms the main thread calls exit(3). Every child must exit with status 3: when the
 * destructor tore down at exit, 1 to 3 children of 200 died of SIGRTMIN+2 and a few more
 * had a thread's set-up refused (status 10).
 * Usage: test_exit_counting [children] */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fork_round.h"
#include "papi_test.h"

static atomic_long overflows; /* lock-free: async-signal-safe */

static void on_overflow(int es, void *pc, long long vec, void *ctx)
{
    (void)es, (void)pc, (void)vec, (void)ctx;
    atomic_fetch_add_explicit(&overflows, 1, memory_order_relaxed);
}

static void *counting(void *arg)
{
    int software = (int)(long)arg, es = PAPI_NULL, code = 0;
    long long v[1];
    if (PAPI_create_eventset(&es) != PAPI_OK ||
        PAPI_event_name_to_code("perf::PAGE-FAULTS", &code) != PAPI_OK ||
        PAPI_add_event(es, code) != PAPI_OK ||
        PAPI_overflow(es, code, 1, software ? PAPI_OVERFLOW_FORCE_SW : 0,
                      on_overflow) != PAPI_OK ||
        PAPI_start(es) != PAPI_OK)
        _exit(10); /* the parent says which step could not be set up */
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    for (;;) { /* new pages, so faults (and overflows) keep coming until exit */
        char *p = mmap(NULL, 64 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            continue;
        madvise(p, 64 * page, MADV_NOHUGEPAGE); /* one fault per page, whatever THP says */
        for (size_t i = 0; i < 64; i++)
            p[i * page] = 1;
        PAPI_read(es, v);
        munmap(p, 64 * page);
    }
    return NULL;
}

static void child(int k)
{
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
        _exit(11);
    pthread_t th;
    for (long i = 0; i < 6; i++)
        if (pthread_create(&th, NULL, counting, (void *)(long)(i == 5)) != 0)
            _exit(12);
    struct timespec ts = {0, 2000000L + 3000000L * (k % 7)};
    nanosleep(&ts, NULL);
    exit(3); /* threads counting, signals in flight: destructors run */
}

int main(int argc, char **argv)
{
    int children = argc > 1 ? atoi(argv[1]) : 200;
    init_or_die();
    int probe = PAPI_NULL, code = 0;
    PAPI_create_eventset(&probe);
    PAPI_event_name_to_code("perf::PAGE-FAULTS", &code);
    if (PAPI_add_event(probe, code) != PAPI_OK)
        test_skip("perf::PAGE-FAULTS cannot be opened here");
    if (PAPI_overflow(probe, code, 1, 0, on_overflow) != PAPI_OK)
        test_skip("perf::PAGE-FAULTS cannot overflow here");
    PAPI_cleanup_eventset(probe);
    PAPI_destroy_eventset(&probe);
    PAPI_shutdown();
    int signalled = 0, other = 0;
    for (int k = 0; k < children; k++) {
        int st = fork_round(child, k);
        if (st == -1) {
            CHECK(0, "child %d: no child process", k);
            continue;
        }
        if (WIFSIGNALED(st)) {
            signalled++;
            CHECK(0, "child %d ended by signal %d (%s), not exit(3)", k, WTERMSIG(st),
                  strsignal(WTERMSIG(st)));
        } else if (WEXITSTATUS(st) != 3) {
            other++;
            CHECK(0, "child %d exited with %d, not 3 (10: set-up of a set failed, 11: init, "
                  "12: pthread_create)", k, WEXITSTATUS(st));
        }
    }
    printf("%d children called exit() with overflow live in 6 threads: %d ended by a signal, "
           "%d with another status\n", children, signalled, other);
    return test_done("test_exit_counting");
}
