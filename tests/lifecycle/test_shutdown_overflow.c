/* test_shutdown_overflow.c: PAPI_shutdown in the main thread shortly after another thread
 * armed overflow. The shutdown must disarm that thread's set before it gives the overflow
 * signal back: a signal still queued for the thread, or raised by a source still armed,
 * would otherwise meet the signal's default action (SIGRTMIN+2 terminates the process),
 * and the overflow handler must never read a set the shutdown freed (ASan and TSan lanes).
 *
 * Each round is a forked child: thread A creates a set, arms overflow with a small
 * threshold and starts it, then keeps working (CPU and new pages) until told to end; the
 * main thread waits until A's overflows arrive (0 to 3 ms more, by round), calls
 * PAPI_shutdown, and lets A work on for 150 ms. The child must exit 0: not killed by a
 * signal, and the user's handler never called once PAPI_shutdown has returned (status 2).
 * The rounds cycle through three overflow routes: perf::TASK-CLOCK and perf::PAGE-FAULTS
 * with the kernel's signal per overflow, and perf::TASK-CLOCK on the software timer.
 * Usage: test_shutdown_overflow [rounds] (default 30) */
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

struct route {
    const char *event;
    long long threshold;
    int flags;
};
static const struct route routes[] = {
    /* A signal every 50 us of the thread's CPU time. At 20 us a VM (a VM exit per timer
     * interrupt) made signals faster than the thread took them: the queue reached
     * RLIMIT_SIGPENDING and the kernel fell back to a plain SIGIO (signal_generate
     * tracepoint: res=3), which killed rounds whatever the library did. */
    {"perf::TASK-CLOCK", 50000, 0},
    {"perf::PAGE-FAULTS", 1, 0}, /* a signal at every fault */
    {"perf::TASK-CLOCK", 20000, PAPI_OVERFLOW_FORCE_SW},
};
#define NROUTES (int)(sizeof routes / sizeof routes[0])

static atomic_long overflows; /* lock-free: async-signal-safe */
static atomic_int armed, done;
static volatile unsigned long sink; /* the CPU work is kept */

static void on_overflow(int es, void *pc, long long vec, void *ctx)
{
    (void)es, (void)pc, (void)vec, (void)ctx;
    atomic_fetch_add_explicit(&overflows, 1, memory_order_relaxed);
}

/* CPU time and page faults, so every route keeps overflowing. */
static void work(void)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, 16 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return;
    madvise(p, 16 * page, MADV_NOHUGEPAGE); /* one fault per page, whatever THP says */
    for (size_t i = 0; i < 16; i++)
        p[i * page] = (char)i;
    for (int i = 0; i < 20000; i++)
        sink += (unsigned long)i * 7;
    munmap(p, 16 * page);
}

static void *thread_a(void *arg)
{
    const struct route *r = arg;
    int es = PAPI_NULL, code = 0;
    if (PAPI_create_eventset(&es) != PAPI_OK ||
        PAPI_event_name_to_code(r->event, &code) != PAPI_OK ||
        PAPI_add_event(es, code) != PAPI_OK ||
        PAPI_overflow(es, code, (int)r->threshold, r->flags, on_overflow) != PAPI_OK ||
        PAPI_start(es) != PAPI_OK)
        _exit(10);
    atomic_store(&armed, 1);
    while (!atomic_load(&done))
        work();
    return NULL;
}

static void sleep_ns(long ns)
{
    struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static void child(int round)
{
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
        _exit(11);
    pthread_t th;
    if (pthread_create(&th, NULL, thread_a, (void *)&routes[round % NROUTES]) != 0)
        _exit(12);
    /* At most 50 ms past arming: the shutdown comes while signals are in flight (the
     * unfixed library was killed in most rounds), never after a long backlog built up. */
    while (!atomic_load(&armed))
        sleep_ns(100000);
    for (int waited = 0; atomic_load(&overflows) < 3 && waited < 500; waited++)
        sleep_ns(100000);
    sleep_ns(1000000L * (round % 4));
    PAPI_shutdown();
    long at_return = atomic_load(&overflows);
    sleep_ns(150000000L); /* thread A works on; a live source or queued signal shows here */
    long after = atomic_load(&overflows) - at_return;
    atomic_store(&done, 1);
    pthread_join(th, NULL);
    if (after != 0) {
        fprintf(stderr,
                "round %d: the overflow handler ran %ld times after PAPI_shutdown "
                "returned\n",
                round, after);
        _exit(2);
    }
    _exit(0);
}

/* Can this machine arm the route at all? Else the round would only measure that. */
static void probe_routes(void)
{
    init_or_die();
    for (int i = 0; i < NROUTES; i++) {
        int es = PAPI_NULL, code = 0;
        CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
        if (PAPI_event_name_to_code(routes[i].event, &code) != PAPI_OK ||
            PAPI_add_event(es, code) != PAPI_OK)
            test_skip("perf::TASK-CLOCK or perf::PAGE-FAULTS does not open here");
        if (PAPI_overflow(es, code, (int)routes[i].threshold, routes[i].flags, on_overflow) !=
            PAPI_OK)
            test_skip("overflow cannot be armed on a perf software event here");
        PAPI_cleanup_eventset(es);
        PAPI_destroy_eventset(&es);
    }
    PAPI_shutdown();
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 60;
    probe_routes();
    int killed[NROUTES] = {0}, late[NROUTES] = {0}, other = 0;
    for (int k = 0; k < rounds; k++) {
        int st = fork_round(child, k);
        if (st == -1) {
            CHECK(0, "round %d: no child process", k);
            continue;
        }
        const struct route *r = &routes[k % NROUTES];
        if (WIFSIGNALED(st)) {
            killed[k % NROUTES]++;
            CHECK(0,
                  "round %d (%s%s): the process was killed by signal %d (%s) after "
                  "PAPI_shutdown",
                  k, r->event, r->flags ? ", software" : "", WTERMSIG(st), strsignal(WTERMSIG(st)));
        } else if (WEXITSTATUS(st) == 2) {
            late[k % NROUTES]++;
            CHECK(0, "round %d (%s%s): the handler ran after PAPI_shutdown returned", k, r->event,
                  r->flags ? ", software" : "");
        } else if (WEXITSTATUS(st) != 0) {
            other++;
            CHECK(0,
                  "round %d exited with %d (10: thread A's set-up failed, 11: init, 12: "
                  "pthread_create; other: a sanitizer's report above)",
                  k, WEXITSTATUS(st));
        }
    }
    for (int i = 0; i < NROUTES; i++)
        printf("%s%s: %d of %d rounds killed, %d with the handler called after shutdown\n",
               routes[i].event, routes[i].flags ? " (software timer)" : "", killed[i],
               (rounds - i + NROUTES - 1) / NROUTES, late[i]);
    return test_done("test_shutdown_overflow");
}
