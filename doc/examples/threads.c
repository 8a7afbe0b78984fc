/* Example: counting in threads: each thread registers, counts its own work (the counts of
 * one thread never include another's), keeps data of its own and adds to a shared total
 * under the library's user lock.
 * Shows: PAPI_thread_init PAPI_thread_id PAPI_register_thread PAPI_list_threads
 * PAPI_set_thr_specific PAPI_get_thr_specific PAPI_lock PAPI_unlock PAPI_unregister_thread */
#include <papi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static long long total;

static void *worker(void *arg)
{
    int es = PAPI_NULL;
    long n = (long)arg, page = sysconf(_SC_PAGESIZE);
    long long faults = -1;
    void *mine = NULL;
    if (PAPI_register_thread() != PAPI_OK ||
        PAPI_set_thr_specific(PAPI_USR1_TLS, arg) != PAPI_OK || /* this thread's own data */
        PAPI_get_thr_specific(PAPI_USR1_TLS, &mine) != PAPI_OK || mine != arg ||
        PAPI_create_eventset(&es) != PAPI_OK ||
        PAPI_add_named_event(es, "perf::PAGE-FAULTS") != PAPI_OK || PAPI_start(es) != PAPI_OK)
        exit(1);
    char *p = mmap(NULL, n * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED)
        madvise(p, n * page, MADV_NOHUGEPAGE); /* 4 KiB pages even with THP "always" */
    for (long i = 0; p != MAP_FAILED && i < n; i++)
        p[i * page] = 1; /* n fresh pages: n page faults */
    if (PAPI_stop(es, &faults) != PAPI_OK)
        exit(1);
    munmap(p, n * page);
    printf("thread counted %lld page faults for %ld pages\n", faults, n);
    PAPI_lock(PAPI_USR1_LOCK);
    total += faults;
    PAPI_unlock(PAPI_USR1_LOCK);
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    if (PAPI_unregister_thread() != PAPI_OK)
        exit(1);
    return NULL;
}

static unsigned long self_id(void)
{
    return (unsigned long)pthread_self();
}

int main(void)
{
    pthread_t t[2];
    PAPI_thread_id_t ids[8];
    int n = 8;
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT ||
        PAPI_thread_init(self_id) != PAPI_OK)
        return 1;
    if (PAPI_thread_id() != self_id())
        return 1;
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)(40 + 20 * i)); /* 40 and 60 pages */
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    if (PAPI_list_threads(ids, &n) != PAPI_OK)
        return 1;
    printf("total %lld page faults in 2 threads; %d thread(s) registered now\n", total, n);
    return 0;
}
