/* PAPI_set_opt(PAPI_DEF_ITIMER) as PAPI 7 (overflow_force_software): ns = 0 keeps the
 * interval, itimer_num and itimer_sig are used as given. Software overflow on
 * perf::PAGE-FAULTS with ITIMER_REAL/SIGALRM: the library handles SIGALRM (a stray
 * SIGALRM would kill the test), and the handler is called exactly once per 100 faults. */
#include <signal.h>
#include <sys/time.h>
#include <time.h>

#include "papi_test.h"

static volatile int calls;

static void handler(int EventSet, void *address, long long vector, void *ctx)
{
    (void)EventSet, (void)address, (void)vector, (void)ctx;
    calls++;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

int main(void)
{
    init_or_die();
    PAPI_option_t opt;
    memset(&opt, 0, sizeof opt);
    CHECK_RET(PAPI_get_opt(PAPI_DEF_ITIMER, &opt), PAPI_OK);
    int interval = opt.itimer.ns;
    CHECK(interval > 0, "default interval %d ns", interval);

    /* Bad timers or signals are refused and change nothing. */
    memset(&opt, 0, sizeof opt);
    opt.itimer.itimer_num = 7;
    opt.itimer.itimer_sig = SIGALRM;
    CHECK_RET(PAPI_set_opt(PAPI_DEF_ITIMER, &opt), PAPI_EINVAL);
    opt.itimer.itimer_num = ITIMER_REAL;
    opt.itimer.itimer_sig = 0;
    CHECK_RET(PAPI_set_opt(PAPI_DEF_ITIMER, &opt), PAPI_EINVAL);
    opt.itimer.itimer_sig = SIGALRM;
    opt.itimer.ns = -5;
    CHECK_RET(PAPI_set_opt(PAPI_DEF_ITIMER, &opt), PAPI_EINVAL);

    /* ns = 0: the interval is kept, the timer and signal are the ones given. */
    memset(&opt, 0, sizeof opt);
    opt.itimer.itimer_num = ITIMER_REAL;
    opt.itimer.itimer_sig = SIGALRM;
    CHECK_RET(PAPI_set_opt(PAPI_DEF_ITIMER, &opt), PAPI_OK);
    memset(&opt, 0, sizeof opt);
    CHECK_RET(PAPI_get_opt(PAPI_DEF_ITIMER, &opt), PAPI_OK);
    CHECK(opt.itimer.ns == interval, "interval %d ns, want %d kept", opt.itimer.ns, interval);
    CHECK(opt.itimer.itimer_num == ITIMER_REAL, "itimer_num %d", opt.itimer.itimer_num);
    CHECK(opt.itimer.itimer_sig == SIGALRM, "itimer_sig %d", opt.itimer.itimer_sig);

    int es = PAPI_NULL, code = 0;
    code = page_fault_set(&es);
    CHECK_RET(PAPI_overflow(es, code, 100, PAPI_OVERFLOW_FORCE_SW, handler), PAPI_OK);
    warm_up();
    long long v = 0;
    calls = 0;
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_pages(1000);
    /* A wall-clock timer ticks while the thread sleeps (a CPU-time one would not). */
    sleep_ms(5 * (interval / 1000000 + 1));
    struct sigaction sa;
    CHECK(sigaction(SIGALRM, NULL, &sa) == 0 && (sa.sa_flags & SA_SIGINFO),
          "SIGALRM has no handler of the library's");
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    printf("ITIMER_REAL/SIGALRM: %lld faults, %d overflow calls\n", v, calls);
    CHECK_EQ_LL(v, 1000);
    CHECK(calls == 10, "%d calls, want 10", calls);
    CHECK_RET(PAPI_cleanup_eventset(es), PAPI_OK);

    /* Another timer and signal later (overflow_force_software: VIRTUAL, then REAL). */
    memset(&opt, 0, sizeof opt);
    opt.itimer.itimer_num = ITIMER_VIRTUAL;
    opt.itimer.itimer_sig = SIGVTALRM;
    CHECK_RET(PAPI_set_opt(PAPI_DEF_ITIMER, &opt), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, "perf::PAGE-FAULTS"), PAPI_OK);
    CHECK_RET(PAPI_overflow(es, code, 100, PAPI_OVERFLOW_FORCE_SW, handler), PAPI_OK);
    calls = 0;
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_pages(500);
    /* ITIMER_VIRTUAL ticks on user-mode CPU time only: spin in user code (reading the
     * thread's CPU clock, a system call, only now and then) for 5 intervals of it. */
    struct timespec t0, t;
    volatile unsigned long spin = 0;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    do {
        for (int i = 0; i < 200000; i++)
            spin += (unsigned long)i;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    } while ((t.tv_sec - t0.tv_sec) * 1000000000LL + (t.tv_nsec - t0.tv_nsec) < 5LL * interval);
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    printf("ITIMER_VIRTUAL/SIGVTALRM: %lld faults, %d overflow calls\n", v, calls);
    CHECK_EQ_LL(v, 500);
    CHECK(calls == 5, "%d calls, want 5", calls);
    free_set(&es);
    PAPI_shutdown();
    return test_done("test_def_itimer");
}
