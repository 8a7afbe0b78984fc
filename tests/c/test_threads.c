/* Four threads, each touching a different number of pages with its own event set:
 * each counts exactly its own faults. Also thread ids, registry and thread storage. */
#include <pthread.h>
#include <sys/syscall.h>

#include "papi_test.h"

static pthread_barrier_t barrier;
static long long counted[4];

static unsigned long my_id(void)
{
    return (unsigned long)syscall(SYS_gettid);
}

static void *worker(void *arg)
{
    long idx = (long)arg;
    int es = PAPI_NULL;
    long long v[1];
    static int tags[4];
    PAPI_register_thread();
    tags[idx] = (int)idx * 10;
    PAPI_set_thr_specific(PAPI_USR1_TLS, &tags[idx]);
    if (PAPI_create_eventset(&es) != PAPI_OK || PAPI_add_named_event(es, "perf::PAGE-FAULTS") != PAPI_OK)
        return NULL;
    warm_up();
    /* The first start/stop in the process maps their code pages: a page fault inside the
     * counted window of whichever thread gets there first. */
    PAPI_start(es);
    PAPI_stop(es, v);
    pthread_barrier_wait(&barrier); /* all count at the same time */
    PAPI_start(es);
    touch_pages(100 * (idx + 1));
    PAPI_stop(es, v);
    counted[idx] = v[0];
    void *p = NULL;
    PAPI_get_thr_specific(PAPI_USR1_TLS, &p);
    if (p != &tags[idx])
        counted[idx] = -1;
    pthread_barrier_wait(&barrier); /* keep registered until the main thread listed us */
    pthread_barrier_wait(&barrier);
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    PAPI_unregister_thread();
    return NULL;
}

int main(void)
{
    init_or_die();
    CHECK(PAPI_thread_id() == (unsigned long)-1, "thread id before PAPI_thread_init");
    CHECK_RET(PAPI_thread_init(NULL), PAPI_EINVAL);
    CHECK_RET(PAPI_thread_init(my_id), PAPI_OK);
    CHECK(PAPI_is_initialized() & PAPI_THREAD_LEVEL_INITED, "thread level inited");
    CHECK_EQ_LL(PAPI_thread_id(), my_id());
    pthread_t t[4];
    pthread_barrier_init(&barrier, NULL, 5);
    for (long i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    pthread_barrier_wait(&barrier);
    pthread_barrier_wait(&barrier);
    PAPI_thread_id_t ids[8];
    int n = 8;
    CHECK_RET(PAPI_list_threads(ids, &n), PAPI_OK);
    CHECK(n == 4, "4 registered threads listed, got %d", n);
    PAPI_all_thr_spec_t all;
    void *data[8];
    all.num = 8;
    all.id = ids;
    all.data = data;
    CHECK_RET(PAPI_get_thr_specific(PAPI_USR1_TLS | PAPI_TLS_ALL_THREADS, (void **)&all), PAPI_OK);
    CHECK_EQ_LL(all.num, 4);
    pthread_barrier_wait(&barrier);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 4; i++) {
        CHECK(counted[i] == 100 * (i + 1), "thread %d counted %lld, want %d", i, counted[i], 100 * (i + 1));
        printf("thread %d: %lld page faults\n", i, counted[i]);
    }
    n = 8;
    CHECK_RET(PAPI_list_threads(ids, &n), PAPI_OK);
    CHECK_EQ_LL(n, 0);
    CHECK_RET(PAPI_lock(PAPI_USR1_LOCK), PAPI_OK);
    CHECK_RET(PAPI_unlock(PAPI_USR1_LOCK), PAPI_OK);
    CHECK_RET(PAPI_lock(PAPI_NUM_LOCK), PAPI_EINVAL);
    /* PAPI_HIGH_LEVEL_TLS (3.x/5.x) is a slot of the user's: the 3.5 high-level calls keep
     * their own state beside it, so both survive each other. */
    static int hl_tag = 7;
    void *got = NULL;
    int code, nctr = 1;
    long long hv[1];
    CHECK_RET(PAPI_set_thr_specific(PAPI_HIGH_LEVEL_TLS, &hl_tag), PAPI_OK);
    CHECK_RET(PAPI_event_name_to_code("perf::PAGE-FAULTS", &code), PAPI_OK);
    CHECK_RET(PAPI_start_counters(&code, nctr), PAPI_OK);
    touch_pages(50);
    CHECK_RET(PAPI_stop_counters(hv, nctr), PAPI_OK);
    CHECK(hv[0] >= 50, "high-level counters beside PAPI_HIGH_LEVEL_TLS: %lld faults", hv[0]);
    CHECK_RET(PAPI_get_thr_specific(PAPI_HIGH_LEVEL_TLS, &got), PAPI_OK);
    CHECK(got == &hl_tag, "PAPI_HIGH_LEVEL_TLS keeps the user's pointer");
    PAPI_shutdown();
    return test_done("test_threads");
}
