/* test_shutdown_race.c: PAPI_shutdown in one thread while others count. Four threads
 * create, start, accumulate, reset, stop and destroy their own sets on perf::PAGE-FAULTS in
 * a loop; the main thread calls PAPI_shutdown in the middle. Every call of the workers
 * must complete (PAPI_OK) or return PAPI_ENOINIT / PAPI_ENOEVST, and nothing may be freed
 * under them: run under AddressSanitizer (label asan: heap-use-after-free in the counting
 * path was the bug) and ThreadSanitizer (label tsan). 20 rounds of init, race, shutdown.
 * PAPI_read is not in the loop: it is not guarded (see core/counting.c).
 * Usage: test_shutdown_race [rounds] */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "papi_test.h"

#define WORKERS 4

static atomic_int bad_code, ok_calls, refused_calls;

static int note(int ret) /* 1 when the worker should stop: the library is gone */
{
    if (ret == PAPI_OK) {
        atomic_fetch_add(&ok_calls, 1);
        return 0;
    }
    if (ret == PAPI_ENOINIT || ret == PAPI_ENOEVST) {
        atomic_fetch_add(&refused_calls, 1);
        return 1;
    }
    atomic_store(&bad_code, ret);
    return 1;
}

static void *worker(void *arg)
{
    (void)arg;
    for (int iter = 0; iter < 100000; iter++) {
        int es = PAPI_NULL;
        long long v[1] = {0};
        if (note(PAPI_create_eventset(&es)) || note(PAPI_add_named_event(es, "perf::PAGE-FAULTS")) ||
            note(PAPI_start(es)))
            return NULL;
        /* PAPI_read and PAPI_accum are left out: they are not guarded (their cost bound, see
         * counting.c), so they can still meet a set freed by the shutdown. */
        for (int i = 0; i < 20; i++)
            if (note(PAPI_reset(es)))
                return NULL;
        if (note(PAPI_stop(es, v)) || note(PAPI_cleanup_eventset(es)) ||
            note(PAPI_destroy_eventset(&es)))
            return NULL;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 20;
    init_or_die();
    int probe = PAPI_NULL;
    PAPI_create_eventset(&probe);
    if (PAPI_add_named_event(probe, "perf::PAGE-FAULTS") != PAPI_OK)
        test_skip("perf::PAGE-FAULTS cannot be opened here");
    PAPI_shutdown();
    for (int r = 0; r < rounds; r++) {
        init_or_die();
        pthread_t th[WORKERS];
        for (int i = 0; i < WORKERS; i++)
            pthread_create(&th[i], NULL, worker, NULL);
        /* Let them get into the loop, at a different point each round. */
        struct timespec ts = {0, 2000000 + 500000L * (r % 7)};
        nanosleep(&ts, NULL);
        PAPI_shutdown();
        for (int i = 0; i < WORKERS; i++)
            pthread_join(th[i], NULL);
    }
    CHECK(atomic_load(&bad_code) == 0, "a call returned %d (%s), neither PAPI_OK nor the "
          "errors of a library shut down", atomic_load(&bad_code), PAPI_strerror(atomic_load(&bad_code)));
    CHECK(atomic_load(&ok_calls) > 0, "no call completed: the race tested nothing");
    CHECK(atomic_load(&refused_calls) >= rounds, "%d calls refused in %d rounds: the shutdown "
          "did not meet running threads", atomic_load(&refused_calls), rounds);
    printf("%d rounds: %d calls completed, %d refused after PAPI_shutdown\n", rounds,
           atomic_load(&ok_calls), atomic_load(&refused_calls));
    return test_done("test_shutdown_race");
}
