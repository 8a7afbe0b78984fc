/* counters.c: per-thread PAPI event sets (low-level API) summed for the rank.
 * Events: PAPI_MPI_EVENTS (comma-separated) or PAPI_TOT_INS, PAPI_TOT_CYC, PAPI_FP_OPS;
 * when none of those opens (no hardware PMU), perf::PAGE-FAULTS and perf::TASK-CLOCK,
 * and the report carries a note saying so.
 *
 * The program shares the PAPI library with us. When it calls PAPI_shutdown (often
 * before MPI_Finalize), our definition below runs first: it folds our sets' counts in
 * and forgets the sets, so the report keeps the counts up to that point with a note, and
 * a set the program creates later under the same handle is never read as ours. Each
 * read also checks that the set still holds exactly our events. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "papi.h"
#include "papi_mpi_internal.h"

static long long retired[PMPI_MAX_EVENTS]; /* counts of threads that already ended */
static int papi_ok;
static int papi_gone; /* the program called PAPI_shutdown: our sets are gone */
static int event_codes[PMPI_MAX_EVENTS];

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
        /* The whole list or nothing: an entry that does not fit is named. */
        char *buf = strdup(env);
        const char *names[PMPI_MAX_EVENTS];
        int n = 0;
        const char *bad = NULL, *why = NULL;
        for (char *save = NULL, *t = buf ? strtok_r(buf, ",", &save) : NULL; t && !bad;
             t = strtok_r(NULL, ",", &save)) {
            if (strlen(t) >= PMPI_NAME_LEN)
                bad = t, why = "longer than 63 bytes";
            else if (n == PMPI_MAX_EVENTS)
                bad = t, why = "more than 8 events";
            else
                names[n++] = t;
        }
        if (!buf || bad) {
            snprintf(pmpi_g.counter_note, sizeof pmpi_g.counter_note,
                     "PAPI_MPI_EVENTS rejected at entry \"%.80s\" (%s): no counters",
                     bad ? bad : "", why ? why : "out of memory");
            fprintf(stderr, "papi_mpi: %s\n", pmpi_g.counter_note);
            pmpi_g.nevents = 0;
            free(buf);
            return;
        }
        try_events(names, n, failed, sizeof failed);
        free(buf);
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
    for (int e = 0; e < pmpi_g.nevents; e++)
        if (PAPI_event_name_to_code(pmpi_g.event_names[e], &event_codes[e]) != PAPI_OK)
            event_codes[e] = 0;
}

/* The set still holds exactly our events (not a set the program made after its own
 * PAPI_shutdown and re-init under the same handle). */
static int set_is_ours(int es)
{
    int codes[PMPI_MAX_EVENTS], n = PMPI_MAX_EVENTS;
    if (papi_gone || es < 0 || PAPI_num_events(es) != pmpi_g.nevents)
        return 0;
    if (PAPI_list_events(es, codes, &n) != PAPI_OK || n != pmpi_g.nevents)
        return 0;
    for (int e = 0; e < n; e++)
        if (codes[e] != event_codes[e])
            return 0;
    return 1;
}

void pmpi_counters_thread_start(struct pmpi_thread *th)
{
    int es = PAPI_NULL;
    if (!papi_ok || papi_gone || pmpi_g.nevents == 0)
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
    pthread_mutex_lock(&pmpi_g.lock);
    th->evset = es;
    pthread_mutex_unlock(&pmpi_g.lock);
    return;
fail:
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
}

static void stop_set(struct pmpi_thread *th, long long *out)
{
    long long v[PMPI_MAX_EVENTS] = {0};
    if (set_is_ours(th->evset)) {
        if (PAPI_stop(th->evset, v) == PAPI_OK)
            memcpy(out, v, sizeof v);
        PAPI_cleanup_eventset(th->evset);
        PAPI_destroy_eventset(&th->evset);
    }
    th->evset = -1;
}

/* A thread that made MPI calls ends: fold its counts into the rank's total. */
void pmpi_counters_thread_exit(struct pmpi_thread *th)
{
    pthread_mutex_lock(&pmpi_g.lock);
    if (th->evset >= 0 && !th->exited) {
        stop_set(th, th->counts);
        for (int e = 0; e < pmpi_g.nevents; e++)
            retired[e] += th->counts[e];
    }
    th->exited = 1;
    int gone = papi_gone;
    pthread_mutex_unlock(&pmpi_g.lock);
    if (!gone)
        PAPI_unregister_thread();
}

int pmpi_counters_read_self(long long *out)
{
    struct pmpi_thread *th = pmpi_tls; /* the caller holds pmpi_g.lock */
    if (!th || !set_is_ours(th->evset))
        return -1;
    return PAPI_read(th->evset, out) == PAPI_OK ? 0 : -1;
}

/* The rank's total: ended threads plus a read of every live thread's set (the perf
 * descriptors are the process's, so the finalising thread can read them). The caller
 * holds pmpi_g.lock. */
const char *pmpi_counters_read_rank(long long *sum)
{
    memcpy(sum, retired, sizeof retired);
    int n = atomic_load(&pmpi_nthreads);
    if (n > PMPI_MAX_THREADS)
        n = PMPI_MAX_THREADS;
    for (int i = 0; i < n; i++) {
        long long v[PMPI_MAX_EVENTS] = {0};
        if (pmpi_threads[i].exited || !set_is_ours(pmpi_threads[i].evset))
            continue;
        if (PAPI_read(pmpi_threads[i].evset, v) == PAPI_OK)
            for (int e = 0; e < pmpi_g.nevents; e++)
                sum[e] += v[e];
    }
    return papi_gone ? "the program called PAPI_shutdown before MPI_Finalize: counts end there"
                : NULL;
}

/* The program's PAPI_shutdown: fold our counts in and forget our sets first. */
void PAPI_shutdown(void)
{
    static void (*real)(void);
    if (!real)
        real = (void (*)(void))dlsym(RTLD_NEXT, "PAPI_shutdown");
    pthread_mutex_lock(&pmpi_g.lock);
    if (papi_ok && !papi_gone) {
        int n = atomic_load(&pmpi_nthreads);
        if (n > PMPI_MAX_THREADS)
            n = PMPI_MAX_THREADS;
        for (int i = 0; i < n; i++) {
            struct pmpi_thread *th = &pmpi_threads[i];
            if (th->exited || th->evset < 0)
                continue;
            stop_set(th, th->counts);
            for (int e = 0; e < pmpi_g.nevents; e++)
                retired[e] += th->counts[e];
            th->exited = 1;
        }
        papi_gone = 1;
    }
    pthread_mutex_unlock(&pmpi_g.lock);
    if (real)
        real();
}

void pmpi_counters_shutdown(void)
{
    pthread_mutex_lock(&pmpi_g.lock);
    struct pmpi_thread *self = pmpi_tls;
    if (self && self->evset >= 0 && !self->exited) {
        stop_set(self, self->counts);
        self->exited = 1;
    }
    pthread_mutex_unlock(&pmpi_g.lock);
}
