/* test_thread_exit_fds.c: threads that end with a running event set give its descriptors
 * back. 10,000 threads (in batches of 50 alive at once) each create a set on
 * perf::PAGE-FAULTS, start it, touch 10 pages and return without PAPI_stop. After each
 * batch is joined, before the main thread touches a set, the process must hold as many
 * descriptors as before the first thread (the thread-exit hook closed them: PAPI_cleanup
 * by the main thread would close them too, so the count comes first); every set then
 * reads, from the main thread, the faults its thread took (frozen when the thread
 * ended), says it is stopped, and is cleaned up and destroyed by the main thread. Under
 * the default limit of 1,024 descriptors. Usage: test_thread_exit_fds [threads] */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/resource.h>

#include "papi_test.h"

#define BATCH 50
#define PAGES 10

struct job {
    int es;
    int ret;
};

static void *worker(void *arg)
{
    struct job *j = arg;
    j->es = PAPI_NULL;
    j->ret = PAPI_create_eventset(&j->es);
    if (j->ret == PAPI_OK)
        j->ret = PAPI_add_named_event(j->es, "perf::PAGE-FAULTS");
    if (j->ret == PAPI_OK)
        j->ret = PAPI_start(j->es);
    touch_pages(PAGES);
    return NULL; /* ends with the set running */
}

int main(int argc, char **argv)
{
    int nthreads = argc > 1 ? atoi(argv[1]) : 10000;
    /* The default soft limit, whatever the shell or CI set: leaking sets exhaust it. */
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    if (rl.rlim_cur > 1024) {
        rl.rlim_cur = 1024;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    init_or_die();
    int probe = PAPI_NULL;
    PAPI_create_eventset(&probe);
    if (PAPI_add_named_event(probe, "perf::PAGE-FAULTS") != PAPI_OK)
        test_skip("perf::PAGE-FAULTS cannot be opened here");
    PAPI_cleanup_eventset(probe);
    PAPI_destroy_eventset(&probe);
    int fds_before = count_fds();
    long long min_seen = -1;
    struct job jobs[BATCH];
    pthread_t th[BATCH];
    for (int done = 0; done < nthreads && test_failures == 0; done += BATCH) {
        int n = nthreads - done < BATCH ? nthreads - done : BATCH;
        for (int i = 0; i < n; i++)
            if (pthread_create(&th[i], NULL, worker, &jobs[i]) != 0) {
                CHECK(0, "pthread_create failed after %d threads", done + i);
                n = i;
                break;
            }
        for (int i = 0; i < n; i++)
            pthread_join(th[i], NULL);
        int fds_now = count_fds();
        CHECK(fds_now == fds_before, "%d descriptors open after %d threads ended with running "
              "sets (before any cleanup), %d before the first", fds_now, done + n, fds_before);
        for (int i = 0; i < n; i++) {
            CHECK(jobs[i].ret == PAPI_OK, "thread %d: set up returned %d (%s)", done + i,
                  jobs[i].ret, PAPI_strerror(jobs[i].ret));
            if (jobs[i].es == PAPI_NULL)
                continue;
            int state = 0;
            long long v = -1;
            CHECK_RET(PAPI_state(jobs[i].es, &state), PAPI_OK);
            CHECK(state & PAPI_STOPPED, "thread %d ended but its set is in state 0x%x", done + i,
                  state);
            CHECK_RET(PAPI_read(jobs[i].es, &v), PAPI_OK);
            CHECK(v >= PAGES, "thread %d touched %d pages, its set read %lld", done + i, PAGES, v);
            min_seen = min_seen < 0 || v < min_seen ? v : min_seen;
            free_set(&jobs[i].es);
        }
    }
    int fds_after = count_fds();
    CHECK(fds_after == fds_before, "%d descriptors open after %d threads, %d before", fds_after,
          nthreads, fds_before);
    printf("%d threads ended with running sets: %d descriptors before, %d after; fewest faults "
           "read %lld (touched %d)\n", nthreads, fds_before, fds_after, min_seen, PAGES);
    PAPI_shutdown();
    return test_done("test_thread_exit_fds");
}
