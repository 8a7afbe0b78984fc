/* Stress: two threads, each with its own set overflowing every 10 page faults, touch
 * pages for a while. No crash, no deadlock, no lost total: each thread's count is
 * exactly the pages it touched and its handler ran count/10 times, in its own thread. */
#include <pthread.h>
#include <stdatomic.h>
#include <sys/syscall.h>

#include "papi_test.h"
#include "touch_sections.h"

TOUCH_FN(touch_fresh, "ovf_touch_f")

#define THREADS 2
#define ROUNDS  50
#define PAGES   2000
#define PERIOD  10

struct worker {
    int es;
    atomic_int handle; /* es as created: destroy resets es, handles are reused */
    atomic_int tid;
    atomic_long calls;
    atomic_long wrong_thread;
    long long total;
    int failures;
};
static struct worker workers[THREADS];

static void handler(int EventSet, void *address, long long overflow_vector, void *context)
{
    (void)address;
    (void)context;
    /* Attribute the call to the thread it runs in; it must carry that thread's set. */
    int me = (int)syscall(SYS_gettid);
    for (int i = 0; i < THREADS; i++)
        if (atomic_load(&workers[i].tid) == me) {
            atomic_fetch_add(&workers[i].calls, 1);
            if (EventSet != atomic_load(&workers[i].handle) || overflow_vector != 1)
                atomic_fetch_add(&workers[i].wrong_thread, 1);
        }
}

static void *work(void *arg)
{
    struct worker *w = arg;
    int code;
    atomic_store(&w->tid, (int)syscall(SYS_gettid));
    if (PAPI_register_thread() != PAPI_OK || PAPI_create_eventset(&w->es) != PAPI_OK ||
        (atomic_store(&w->handle, w->es), 0) ||
        PAPI_add_named_event(w->es, "perf::PAGE-FAULTS") != PAPI_OK ||
        PAPI_event_name_to_code("perf::PAGE-FAULTS", &code) != PAPI_OK ||
        PAPI_overflow(w->es, code, PERIOD, 0, handler) != PAPI_OK) {
        w->failures++;
        return NULL;
    }
    warm_up();
    for (int r = 0; r < ROUNDS; r++) {
        long long v = 0;
        if (PAPI_start(w->es) != PAPI_OK) {
            w->failures++;
            break;
        }
        touch_fresh(PAGES);
        if (PAPI_stop(w->es, &v) != PAPI_OK)
            w->failures++;
        w->total += v;
    }
    PAPI_overflow(w->es, code, 0, 0, handler);
    PAPI_cleanup_eventset(w->es);
    PAPI_destroy_eventset(&w->es);
    PAPI_unregister_thread();
    return NULL;
}

int main(void)
{
    init_or_die();
    CHECK_RET(PAPI_thread_init((unsigned long (*)(void))pthread_self), PAPI_OK);
    int probe = PAPI_NULL;
    CHECK_RET(PAPI_create_eventset(&probe), PAPI_OK);
    if (PAPI_add_named_event(probe, "perf::PAGE-FAULTS") != PAPI_OK)
        test_skip("perf::PAGE-FAULTS does not open here (no perf_event access)");
    PAPI_cleanup_eventset(probe);
    PAPI_destroy_eventset(&probe);

    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        workers[i].es = PAPI_NULL;
        atomic_store(&workers[i].handle, PAPI_NULL);
        atomic_store(&workers[i].tid, -1);
        pthread_create(&t[i], NULL, work, &workers[i]);
    }
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < THREADS; i++) {
        struct worker *w = &workers[i];
        long calls = atomic_load(&w->calls);
        printf("thread %d: %lld page faults, %ld overflows, %ld misrouted\n", i, w->total, calls,
               (long)atomic_load(&w->wrong_thread));
        CHECK_EQ_LL(w->failures, 0);
        CHECK_EQ_LL(w->total, (long long)ROUNDS * PAGES);
        CHECK_EQ_LL(calls, w->total / PERIOD);
        CHECK_EQ_LL(atomic_load(&w->wrong_thread), 0);
    }
    PAPI_shutdown();
    return test_done("overflow_stress");
}
