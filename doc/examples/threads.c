/* Example: counting in threads: each thread registers, counts its own work, and keeps
 * data of its own. Shows: PAPI_thread_init PAPI_thread_id PAPI_register_thread
 * PAPI_unregister_thread PAPI_list_threads PAPI_set_thr_specific PAPI_get_thr_specific
 * PAPI_lock PAPI_unlock */
#include <papi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long long total;

static void *worker(void *arg)
{
    int es = PAPI_NULL;
    long long faults = 0;
    void *mine;
    PAPI_register_thread();
    PAPI_set_thr_specific(PAPI_USR1_TLS, arg);
    PAPI_get_thr_specific(PAPI_USR1_TLS, &mine);
    PAPI_create_eventset(&es);
    if (PAPI_add_named_event(es, "perf::PAGE-FAULTS") == PAPI_OK && PAPI_start(es) == PAPI_OK) {
        char *p = malloc(64 * 4096);
        for (int i = 0; p && i < 64; i++)
            p[i * 4096] = 1;
        PAPI_stop(es, &faults);
        free(p);
    }
    PAPI_lock(PAPI_USR1_LOCK);
    total += faults;
    PAPI_unlock(PAPI_USR1_LOCK);
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    PAPI_unregister_thread();
    return mine;
}

int main(void)
{
    pthread_t t[2];
    PAPI_thread_id_t ids[8];
    int n = 8;
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT ||
        PAPI_thread_init(pthread_self) != PAPI_OK)
        return 1;
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    PAPI_list_threads(ids, &n);
    printf("main thread %lu: %lld page faults in 2 threads; %d threads registered now\n",
           PAPI_thread_id(), total, n);
    return 0;
}
