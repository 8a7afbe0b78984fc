/* overflow_stress_threads (arm64 PMU lane): two threads, each overflowing every
 * 10,000 instructions' worth of cycles (CPU_CYCLES, period 10000 x 2^icount-shift) over
 * a long loop: about 4000 signals per thread. No crash, no deadlock, no lost total,
 * every signal delivered to its own thread, and floor(total/period) +-1 of them.
 * CPU_CYCLES because QEMU times cycle-counter overflows exactly, while it notices an
 * INST_RETIRED overflow only at the next timer tick (about 250 per second: measured,
 * 171 of 4002 expected), which would test QEMU rather than the library.
 * The kernel may also throttle sampling interrupts that cost too much CPU
 * (perf_cpu_time_max_percent lowers perf_event_max_sample_rate; slow emulated
 * interrupts trip it): the test lifts that limit when it may (root in the guest).
 * OVF_EVENT and OVF_PERIOD override the event and the period. */
#include <pthread.h>
#include <sys/syscall.h>

#include "pmu_hw.h"

#define THREADS 2
static const char *ovf_event = "CPU_CYCLES";
static int PERIOD;

struct worker {
    int es;
    pid_t tid;
    volatile long calls, misrouted;
    long long total;
    int failed;
};
static struct worker w[THREADS];

static void handler(int EventSet, void *address, long long overflow_vector, void *context)
{
    (void)address;
    (void)context;
    for (int i = 0; i < THREADS; i++)
        if (w[i].es == EventSet) {
            w[i].calls++;
            if ((pid_t)syscall(SYS_gettid) != w[i].tid || overflow_vector != 1)
                w[i].misrouted++;
        }
}

static void *run(void *arg)
{
    struct worker *me = arg;
    int code;
    me->tid = (pid_t)syscall(SYS_gettid);
    if (PAPI_register_thread() != PAPI_OK || PAPI_create_eventset(&me->es) != PAPI_OK ||
        PAPI_add_named_event(me->es, ovf_event) != PAPI_OK ||
        PAPI_event_name_to_code(ovf_event, &code) != PAPI_OK ||
        PAPI_overflow(me->es, code, PERIOD, 0, handler) != PAPI_OK ||
        PAPI_start(me->es) != PAPI_OK) {
        me->failed = 1;
        return NULL;
    }
    pmu_loop(20000000);
    if (PAPI_stop(me->es, &me->total) != PAPI_OK)
        me->failed = 1;
    PAPI_overflow(me->es, code, 0, 0, handler);
    pmu_free_set(&me->es);
    PAPI_unregister_thread();
    return NULL;
}

static int write_sysctl(const char *path, const char *value)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    int ok = fputs(value, f) >= 0;
    return fclose(f) == 0 && ok;
}

int main(void)
{
    if (getenv("OVF_EVENT"))
        ovf_event = getenv("OVF_EVENT");
    PERIOD = 10000 << pmu_icount_shift();
    if (getenv("OVF_PERIOD"))
        PERIOD = atoi(getenv("OVF_PERIOD"));
    /* The rate first: the kernel refuses it once the time limit is off. */
    int unthrottled = write_sysctl("/proc/sys/kernel/perf_event_max_sample_rate", "100000") &&
                      write_sysctl("/proc/sys/kernel/perf_cpu_time_max_percent", "0");
    printf("overflow_stress_threads: interrupt throttle %s\n",
           unthrottled ? "lifted (perf_cpu_time_max_percent=0)" : "in force (not root)");
    init_or_die();
    pmu_require_hw();
    CHECK_RET(PAPI_thread_init((unsigned long (*)(void))pthread_self), PAPI_OK);
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i].es = PAPI_NULL;
        pthread_create(&t[i], NULL, run, &w[i]);
    }
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < THREADS; i++) {
        long long expect = w[i].total / PERIOD;
        printf("overflow_stress_threads: thread %d %s=%lld period %d: overflows=%ld "
               "expected %lld\n", i, ovf_event, w[i].total, PERIOD, w[i].calls, expect);
        CHECK_EQ_LL(w[i].failed, 0);
        CHECK(w[i].total >= 40000000, "total %lld lost counts (the loop alone is 40,000,000 "
              "instructions)", w[i].total);
        if (unthrottled)
            CHECK(w[i].calls >= expect - 1 && w[i].calls <= expect + 1,
                  "%ld overflows, expected %lld", w[i].calls, expect);
        else
            CHECK(w[i].calls > 0 && w[i].calls <= expect + 1, "%ld overflows, at most %lld",
                  w[i].calls, expect);
        CHECK_EQ_LL(w[i].misrouted, 0);
    }
    return test_done("overflow_stress_threads");
}
