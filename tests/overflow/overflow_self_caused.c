/* An overflow whose handler causes the next overflow (issue 69): perf::PAGE-FAULTS every
 * fault, and a handler that takes one page fault itself (the page given back with
 * MADV_DONTNEED, then written). Each signal's fault queues the next signal, which comes
 * back at the same place of the program, which never runs another instruction: before the
 * library's pacing knew of it, the program hung for ever in its first fault. Now the event
 * is slowed 4x once the signals come back at a thread that made no progress: the program
 * touches its 64 fresh pages and ends; PAPI_get_overflow_rate says slowed >= 1 and a
 * threshold of 4^slowed, the handler ran a bounded number of times. An alarm ends a stalled
 * run with a failure (no wait for ctest's timeout). */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "papi_test.h"

#define PAGES 64

static volatile int calls;
static char *scratch; /* one page: the handler's own fault */
static long page;

static void handler(int EventSet, void *address, long long overflow_vector, void *context)
{
    (void)EventSet, (void)address, (void)overflow_vector, (void)context;
    calls++;
    madvise(scratch, (size_t)page, MADV_DONTNEED); /* async-signal-safe: a system call */
    scratch[0] = 1;                                /* a page fault of the handler's own */
}

static void stalled(int sig)
{
    (void)sig;
    static const char msg[] = "FAIL: the program made no progress in 30 s (each overflow's "
                              "handler caused the next)\n";
    ssize_t rc = write(2, msg, sizeof msg - 1);
    (void)rc;
    _exit(1);
}

int main(void)
{
    init_or_die();
    page = sysconf(_SC_PAGESIZE);
    int es = PAPI_NULL, code = page_fault_set(&es);
    scratch = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char *mem = mmap(NULL, (size_t)page * PAGES, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(scratch != MAP_FAILED && mem != MAP_FAILED, "mmap: %s", strerror(errno));
    scratch[0] = 1; /* the VMAs set up outside the count */
    mem[0] = 1;
    CHECK_RET(PAPI_overflow(es, code, 1, 0, handler), PAPI_OK);
    signal(SIGALRM, stalled);
    alarm(30);
    long long v = 0;
    CHECK_RET(PAPI_start(es), PAPI_OK);
    for (int i = 1; i < PAGES; i++)
        mem[(size_t)i * (size_t)page] = (char)i;
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    alarm(0);
    long long rate = -1, full = -1;
    int hz = -1, slowed = -1;
    CHECK_RET(PAPI_get_overflow_rate(es, code, &rate, &hz, &slowed, &full), PAPI_OK);
    printf("%lld page faults, %d handler calls; threshold now %lld, slowed %d, queue overflows "
           "%lld\n",
           v, calls, rate, slowed, full);
    long long want = 1;
    for (int i = 0; i < slowed; i++)
        want *= 4;
    CHECK(slowed >= 1 && hz == 0 && rate == want,
          "threshold %lld (hz %d) slowed %d times; want slowed at least once, to 4^slowed", rate,
          hz, slowed);
    CHECK(v >= PAGES - 1, "%lld page faults counted, the program touched %d fresh pages", v,
          PAGES - 1);
    CHECK(calls >= 4 && calls <= v, "%d handler calls for %lld faults", calls, v);
    return test_done("overflow_self_caused");
}
