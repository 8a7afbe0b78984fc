/* test_sde_threads.c: papi_sde_inc_counter from 4 threads at once on one created
 * counter, while the main thread reads it through PAPI: no increment is lost (the
 * final count is exact) and no read goes back. */
#include <pthread.h>

#include "papi.h"
#include "papi_test.h"
#include "sde_lib.h"

#define THREADS 4
#define INCS    200000

static void *counter;
static int done;

static void *work(void *arg)
{
    (void)arg;
    for (int i = 0; i < INCS; i++)
        papi_sde_inc_counter(counter, 1);
    __atomic_fetch_add(&done, 1, __ATOMIC_RELEASE);
    return NULL;
}

int main(void)
{
    pthread_t t[THREADS];
    int es = PAPI_NULL;
    long long v = 0, last = 0;
    init_or_die();
    papi_handle_t h = papi_sde_init("threads");
    CHECK_RET(papi_sde_create_counter(h, "incs", PAPI_SDE_DELTA, &counter), SDE_OK);
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, "sde:::threads::incs"), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, work, NULL);
    while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) < THREADS) {
        CHECK_RET(PAPI_read(es, &v), PAPI_OK);
        CHECK(v >= last, "read went back from %lld to %lld", last, v);
        last = v;
    }
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    CHECK_EQ_LL(v, (long long)THREADS * INCS);
    PAPI_shutdown();
    return test_done("test_sde_threads");
}
