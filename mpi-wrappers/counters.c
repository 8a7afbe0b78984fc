/* counters.c: per-thread PAPI event sets (low-level API) summed for the rank.
 * Events: PAPI_MPI_EVENTS (comma-separated) or PAPI_TOT_INS, PAPI_TOT_CYC, PAPI_FP_OPS;
 * when none of those opens (no hardware PMU), perf::PAGE-FAULTS and perf::TASK-CLOCK,
 * and the report carries a note saying so. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "papi.h"
#include "papi_mpi_internal.h"

static pthread_mutex_t counters_lock = PTHREAD_MUTEX_INITIALIZER;
static long long retired[PMPI_MAX_EVENTS]; /* counts of threads that already ended */
static int papi_ok;

static unsigned long thread_id(void)
{
    return (unsigned long)syscall(SYS_gettid);
}

/* Try each name in a fresh event set; keep those that open. Returns how many. */
static int try_events(const char *const *names, int n, char *failed, size_t failed_len)
{
    int es = PAPI_NULL;
    if (PAPI_create_eventset(&es) != PAPI_OK)
        return 0;
    pmpi_g.nevents = 0;
    for (int i = 0; i < n && pmpi_g.nevents < PMPI_MAX_EVENTS; i++) {
        int rc = PAPI_add_named_event(es, names[i]);
        if (rc == PAPI_OK) {
            snprintf(pmpi_g.event_names[pmpi_g.nevents++], PMPI_NAME_LEN, "%s", names[i]);
        } else if (failed) {
            size_t used = strlen(failed);
            snprintf(failed + used, failed_len - used, "%s%s (%s)", used ? ", " : "", names[i],
                     PAPI_strerror(rc));
        }
    }
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    return pmpi_g.nevents;
}

static void choose_events(void)
{
    char failed[200] = "";
    int rc = PAPI_library_init(PAPI_VER_CURRENT);
    if (rc != PAPI_VER_CURRENT && rc != PAPI_OK) {
        snprintf(pmpi_g.counter_note, sizeof pmpi_g.counter_note,
                 "PAPI_library_init failed (%s): no counters", PAPI_strerror(rc));
        return;
    }
    PAPI_thread_init(thread_id);
    papi_ok = 1;
    const char *env = getenv("PAPI_MPI_EVENTS");
    if (env && *env) {
        char buf[512];
        const char *names[PMPI_MAX_EVENTS];
        int n = 0;
        snprintf(buf, sizeof buf, "%s", env);
        for (char *save = NULL, *t = strtok_r(buf, ",", &save); t && n < PMPI_MAX_EVENTS;
             t = strtok_r(NULL, ",", &save))
            names[n++] = t;
        try_events(names, n, failed, sizeof failed);
        if (failed[0])
            snprintf(pmpi_g.counter_note, sizeof pmpi_g.counter_note,
                     "PAPI_MPI_EVENTS: not available: %s", failed);
        return;
    }
    static const char *const hw[] = {"PAPI_TOT_INS", "PAPI_TOT_CYC", "PAPI_FP_OPS"};
    static const char *const sw[] = {"perf::PAGE-FAULTS", "perf::TASK-CLOCK"};
    if (try_events(hw, 3, failed, sizeof failed) == 3)
        return;
    if (pmpi_g.nevents > 0) {
        snprintf(pmpi_g.counter_note, sizeof pmpi_g.counter_note, "not available: %s", failed);
        return;
    }
    try_events(sw, 2, NULL, 0);
    snprintf(pmpi_g.counter_note, sizeof pmpi_g.counter_note,
             "no hardware counters (%s): software events instead", failed);
}

void pmpi_counters_init(void)
{
    choose_events();
    /* The note and the event names end up in JSON and CSV: keep them plain text. */
    pmpi_json_safe(pmpi_g.counter_note);
    for (int e = 0; e < pmpi_g.nevents; e++)
        pmpi_json_safe(pmpi_g.event_names[e]);
}

void pmpi_counters_thread_start(struct pmpi_thread *th)
{
    int es = PAPI_NULL;
    if (!papi_ok || pmpi_g.nevents == 0)
        return;
    PAPI_register_thread();
    if (PAPI_create_eventset(&es) != PAPI_OK)
        return;
    /* Attached to this very thread: counts the same, but does not occupy the thread's
     * one running event set, so the program's own PAPI_start still works. */
    if (PAPI_attach(es, thread_id()) != PAPI_OK)
        goto fail;
    for (int i = 0; i < pmpi_g.nevents; i++)
        if (PAPI_add_named_event(es, pmpi_g.event_names[i]) != PAPI_OK)
            goto fail;
    if (PAPI_start(es) != PAPI_OK)
        goto fail;
    pthread_mutex_lock(&counters_lock);
    th->evset = es;
    pthread_mutex_unlock(&counters_lock);
    return;
fail:
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
}

static void stop_set(struct pmpi_thread *th, long long *out)
{
    long long v[PMPI_MAX_EVENTS] = {0};
    if (PAPI_stop(th->evset, v) == PAPI_OK)
        memcpy(out, v, sizeof v);
    PAPI_cleanup_eventset(th->evset);
    PAPI_destroy_eventset(&th->evset);
    th->evset = -1;
}

/* A thread that made MPI calls ends: fold its counts into the rank's total. */
void pmpi_counters_thread_exit(struct pmpi_thread *th)
{
    pthread_mutex_lock(&counters_lock);
    if (th->evset >= 0 && !th->exited) {
        stop_set(th, th->counts);
        for (int e = 0; e < pmpi_g.nevents; e++)
            retired[e] += th->counts[e];
    }
    th->exited = 1;
    pthread_mutex_unlock(&counters_lock);
    PAPI_unregister_thread();
}

int pmpi_counters_read_self(long long *out)
{
    struct pmpi_thread *th = pmpi_tls;
    if (!th || th->evset < 0)
        return -1;
    return PAPI_read(th->evset, out) == PAPI_OK ? 0 : -1;
}

/* The rank's total: ended threads plus a read of every live thread's set (the perf
 * descriptors are the process's, so the finalising thread can read them). */
void pmpi_counters_read_rank(long long *sum)
{
    pthread_mutex_lock(&counters_lock);
    memcpy(sum, retired, sizeof retired);
    int n = atomic_load(&pmpi_nthreads);
    if (n > PMPI_MAX_THREADS)
        n = PMPI_MAX_THREADS;
    for (int i = 0; i < n; i++) {
        long long v[PMPI_MAX_EVENTS] = {0};
        if (pmpi_threads[i].exited || pmpi_threads[i].evset < 0)
            continue;
        if (PAPI_read(pmpi_threads[i].evset, v) == PAPI_OK)
            for (int e = 0; e < pmpi_g.nevents; e++)
                sum[e] += v[e];
    }
    pthread_mutex_unlock(&counters_lock);
}

void pmpi_counters_shutdown(void)
{
    pthread_mutex_lock(&counters_lock);
    struct pmpi_thread *self = pmpi_tls;
    if (self && self->evset >= 0 && !self->exited) {
        stop_set(self, self->counts);
        self->exited = 1;
    }
    pthread_mutex_unlock(&counters_lock);
}
