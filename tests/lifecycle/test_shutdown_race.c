/* test_shutdown_race.c: PAPI_shutdown in one thread while others count. Per round, six
 * threads work on perf::PAGE-FAULTS while the main thread calls PAPI_shutdown in the
 * middle:
 *   - two create, start, reset, stop, clean up and destroy their own sets in a loop
 *     (the guarded calls);
 *   - two start a set and loop PAPI_read and PAPI_accum on it (the unguarded hot path:
 *     the set is plain and read by the thread that started it, core/counting.c);
 *   - two loop PAPI_hl_region_begin, PAPI_hl_read and PAPI_hl_region_end (the
 *     high-level samplers).
 * Every call must complete (PAPI_OK) or return the errors of a library shut down
 * (PAPI_ENOINIT, PAPI_ENOEVST; PAPI_ENOTRUN for a region whose counters the shutdown
 * closed), every thread must have met the shutdown in most rounds, and nothing may be
 * freed under a call: the test runs under AddressSanitizer (label asan: a
 * heap-use-after-free in the read path was the bug) and ThreadSanitizer (label tsan).
 * Usage: test_shutdown_race [rounds] (default 30) */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "papi_test.h"

enum kind { SETS, READS, REGIONS, KINDS };
static const char *const kind_name[KINDS] = {"create/start/reset/stop/destroy",
                                             "PAPI_read/PAPI_accum", "region begin/read/end"};
#define PER_KIND 2

static atomic_int bad_code, bad_kind, stop_now;
static atomic_int ok_calls[KINDS], refused_calls[KINDS], met_shutdown[KINDS];
static _Thread_local int met; /* this thread had a call refused */

/* 1 when the worker should stop: the library is gone (or a call failed otherwise). */
static int note(enum kind k, int ret)
{
    if (ret == PAPI_OK) {
        atomic_fetch_add(&ok_calls[k], 1);
        return 0;
    }
    if (ret == PAPI_ENOINIT || ret == PAPI_ENOEVST || (k == REGIONS && ret == PAPI_ENOTRUN)) {
        atomic_fetch_add(&refused_calls[k], 1);
        if (!met++)
            atomic_fetch_add(&met_shutdown[k], 1);
        return 1;
    }
    atomic_store(&bad_code, ret);
    atomic_store(&bad_kind, k);
    return 1;
}

static int new_started_set(enum kind k, int *es)
{
    *es = PAPI_NULL;
    return note(k, PAPI_create_eventset(es)) || note(k, PAPI_add_named_event(*es, "perf::PAGE-FAULTS")) ||
           note(k, PAPI_start(*es));
}

static void *sets_worker(void *arg)
{
    (void)arg;
    for (int iter = 0; iter < 100000 && !atomic_load(&stop_now); iter++) {
        int es;
        long long v[1] = {0};
        if (new_started_set(SETS, &es))
            return NULL;
        for (int i = 0; i < 20; i++)
            if (note(SETS, PAPI_reset(es)))
                return NULL;
        if (note(SETS, PAPI_stop(es, v)) || note(SETS, PAPI_cleanup_eventset(es)) ||
            note(SETS, PAPI_destroy_eventset(&es)))
            return NULL;
    }
    return NULL;
}

static void *reads_worker(void *arg)
{
    (void)arg;
    int es;
    long long v[1] = {0}, sum[1] = {0};
    if (new_started_set(READS, &es))
        return NULL;
    for (int iter = 0; iter < 10000000 && !atomic_load(&stop_now); iter++)
        if (note(READS, PAPI_read(es, v)) || note(READS, PAPI_accum(es, sum)))
            return NULL;
    /* Not met: stop and free the set (the round ends with a shutdown anyway). */
    if (note(READS, PAPI_stop(es, v)) == 0) {
        PAPI_cleanup_eventset(es);
        PAPI_destroy_eventset(&es);
    }
    return NULL;
}

static void *regions_worker(void *arg)
{
    (void)arg;
    /* A region begun after the shutdown would initialise the library again: not
     * begun once the main thread says the round is over. */
    for (int iter = 0; iter < 10000000 && !atomic_load(&stop_now); iter++) {
        if (note(REGIONS, PAPI_hl_region_begin("race")))
            return NULL;
        int r = note(REGIONS, PAPI_hl_read("race"));
        int e = note(REGIONS, PAPI_hl_region_end("race"));
        if (r || e)
            return NULL;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 30;
    init_or_die();
    int probe = PAPI_NULL;
    PAPI_create_eventset(&probe);
    if (PAPI_add_named_event(probe, "perf::PAGE-FAULTS") != PAPI_OK)
        test_skip("perf::PAGE-FAULTS cannot be opened here");
    /* The regions' events are chosen here, once: a worker thread that chose them would
     * leave preset_tables.c's thread-local reason buffer behind when it ends (LeakSanitizer:
     * a leak of its own, not the race tested here). */
    CHECK_RET(PAPI_hl_region_begin("race"), PAPI_OK);
    CHECK_RET(PAPI_hl_region_end("race"), PAPI_OK);
    PAPI_shutdown();
    void *(*const body[KINDS])(void *) = {sets_worker, reads_worker, regions_worker};
    for (int r = 0; r < rounds; r++) {
        init_or_die();
        atomic_store(&stop_now, 0);
        pthread_t th[KINDS * PER_KIND];
        for (int i = 0; i < KINDS * PER_KIND; i++)
            CHECK(pthread_create(&th[i], NULL, body[i % KINDS], NULL) == 0, "pthread_create");
        /* Let them get into their loops, at a different point each round. */
        struct timespec ts = {0, 5000000 + 700000L * (r % 7)};
        nanosleep(&ts, NULL);
        PAPI_shutdown();
        atomic_store(&stop_now, 1);
        for (int i = 0; i < KINDS * PER_KIND; i++)
            pthread_join(th[i], NULL);
        PAPI_shutdown(); /* a region begun just before stop_now may have initialised it again */
    }
    CHECK(atomic_load(&bad_code) == 0, "%s: a call returned %d (%s), neither PAPI_OK nor the "
          "errors of a library shut down", kind_name[atomic_load(&bad_kind)],
          atomic_load(&bad_code), PAPI_strerror(atomic_load(&bad_code)));
    for (int k = 0; k < KINDS; k++) {
        printf("%s: %d calls completed, %d refused after PAPI_shutdown (threads that met it: %d "
               "of %d)\n", kind_name[k], atomic_load(&ok_calls[k]), atomic_load(&refused_calls[k]),
               atomic_load(&met_shutdown[k]), rounds * PER_KIND);
        CHECK(atomic_load(&ok_calls[k]) > 0, "%s: no call completed: the race tested nothing",
              kind_name[k]);
        /* Each of these threads is still in its loop when the shutdown comes (a round
         * lasts milliseconds, the loops far longer), but a thread may be slow to start
         * on two cores: most of them, not all, must have met it. */
        CHECK(atomic_load(&met_shutdown[k]) >= rounds * PER_KIND / 2,
              "%s: only %d of %d threads met the shutdown: the race did not happen",
              kind_name[k], atomic_load(&met_shutdown[k]), rounds * PER_KIND);
    }
    return test_done("test_shutdown_race");
}
