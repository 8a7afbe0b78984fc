/* counters.c: per-thread PAPI event sets (low-level API) summed for the rank.
 * Events: PAPI_MPI_EVENTS (comma-separated), else PAPI_EVENTS (the region API's list),
 * else PAPI_TOT_INS, PAPI_TOT_CYC, PAPI_FP_OPS;
 * when none of those opens (no hardware PMU), perf::PAGE-FAULTS and perf::TASK-CLOCK,
 * and the report carries a note saying so. Events of other components than the CPU's
 * (net:::lo:rx:bytes ...) count in one set per component for the rank
 * (component_counters.c), as PAPI 7 makes them, so the list may mix components.
 *
 * The program shares the PAPI library with us. When it calls PAPI_shutdown (often
 * before MPI_Finalize), our definition below runs first: it folds our sets' counts in
 * and forgets the sets, so the report keeps the counts up to that point with a note, and
 * a set the program creates later under the same handle is never read as ours. Each
 * read also checks that the set still holds exactly our events. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "env.h"
#include "papi.h"
#include "papi_metrics.h"
#include "clock.h"
#include "component_counters.h"
#include "counter_mpx.h"
#include "counter_note.h"
#include "counters.h"
#include "default_events.h"
#include "energy_events.h"
#include "run_events.h"
#include "pmpi_identity.h"
#include "software_event.h"
#include "socket_counters.h"
#include "state.h"
#include "str_append.h"

/* Per thread slot (the same index as pmpi_rec.threads), guarded by pmpi_state_lock. */
struct thread_counters {
    int evset;                         /* PAPI event set of this thread, or -1 */
    int exited;                        /* thread ended: final counts are in 'counts' */
    long long counts[PMPI_MAX_EVENTS]; /* counts at thread exit */
};
static struct thread_counters slots[PMPI_MAX_THREADS];
static long long retired[PMPI_MAX_EVENTS]; /* counts of threads that already ended */
static int papi_ok;
static int papi_gone; /* the program called PAPI_shutdown: our sets are gone */
static int event_codes[PMPI_MAX_EVENTS];
/* The events each thread's set counts, as indices of pmpi_ev()->event_names: all but the
 * socket-wide ones, which the socket's reader alone counts (socket_counters.c), and the
 * other components', counted for the rank (component_counters.c). */
static int thread_ev[PMPI_MAX_EVENTS], nthread_ev;

/* Values of a thread's set (v, in its order) added into out (the rank's event order). */
static void scatter_add(const long long *v, long long *out)
{
    for (int i = 0; i < nthread_ev; i++)
        out[thread_ev[i]] += v[i];
}

static unsigned long thread_id(void)
{
    return (unsigned long)syscall(SYS_gettid);
}

/* The report's counter note, whole whatever its length (heap; replaced, never cut). */
static void set_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void set_note(const char *fmt, ...)
{
    struct pmpi_events *ev = pmpi_events_edit();
    va_list ap;
    va_start(ap, fmt);
    str_vsetf(&ev->counter_note, fmt, ap);
    va_end(ap);
    free(ev->counter_banner);
    if (!ev->counter_note)
        ev->counter_note = strdup("counters limited (no memory to say why)");
    ev->counter_banner = NULL; /* the banner says the note whole */
}

/* Try each name in a fresh event set of its component (one per component); keep those
 * that open. Returns how many. Each name that does not open goes to failed (when given)
 * with its error and its reason (PAPI_strerror_detail), whole. */
/* Adds name to es as it counts what it says: an event that happens only in the kernel
 * (a context switch, a migration) in user and kernel mode, never in user mode alone,
 * where it reads 0 whatever the program does. The name added goes to counted. */
static int add_counting(int es, const char *name, char *counted, const char **why)
{
    snprintf(counted, PMPI_NAME_LEN, "%s", name);
    *why = NULL;
    if (software_event_kind(name) != SOFTWARE_EVENT_KERNEL_ONLY)
        return PAPI_add_named_event(es, name);
    if (software_event_all_modes(name, counted, PMPI_NAME_LEN) != 0) {
        *why = "happens only in the kernel, and its name is too long to add kernel mode";
        return PAPI_EINVAL;
    }
    int rc = PAPI_add_named_event(es, counted);
    if (rc != PAPI_OK)
        *why = "happens only in the kernel, which this process may not count (root, "
               "CAP_PERFMON or kernel.perf_event_paranoid <= 1 is needed): in user mode it "
               "would read 0";
    return rc;
}

static int try_events(const char *const *names, int n, struct pmpi_failed *failed)
{
    struct pmpi_events *ev = pmpi_events_edit();
    int es[PMPI_MAX_EVENTS], cidx[PMPI_MAX_EVENTS], nsets = 0;
    ev->nevents = 0;
    for (int i = 0; i < n && ev->nevents < PMPI_MAX_EVENTS; i++) {
        int k = 0, c = pmpi_event_component(names[i]), rc = c < 0 ? c : PAPI_OK;
        while (rc == PAPI_OK && k < nsets && cidx[k] != c)
            k++;
        if (rc == PAPI_OK && k == nsets) {
            es[k] = PAPI_NULL;
            if ((rc = PAPI_create_eventset(&es[k])) == PAPI_OK)
                cidx[nsets++] = c;
        }
        const char *why = NULL;
        if (rc == PAPI_OK)
            rc = add_counting(es[k], names[i], ev->event_counted[ev->nevents], &why);
        if (rc == PAPI_OK)
            snprintf(ev->event_names[ev->nevents++], PMPI_NAME_LEN, "%s", names[i]);
        else if (failed)
            pmpi_failed_add(failed, names[i], PAPI_strerror(rc), why ? why : PAPI_strerror_detail());
    }
    for (int k = 0; k < nsets; k++) {
        PAPI_cleanup_eventset(es[k]);
        PAPI_destroy_eventset(&es[k]);
    }
    return ev->nevents;
}

/* The note from the events that did not open: "<before><each (why)><after>", a reason
 * they share said once. */
static void failed_note(const struct pmpi_failed *failed, const char *before, const char *after,
                        const char *banner_after)
{
    struct pmpi_events *ev = pmpi_events_edit();
    char *text = pmpi_failed_note(failed, before, after);
    set_note("%s", text ? text : "counters limited (no memory to say why)");
    free(text);
    ev->counter_banner = pmpi_failed_banner(failed, banner_after);
}

#define WHOLE_REASONS "; the whole reasons: counter_note in papi_mpi_report.json"

/* PAPI_MPI_EVENTS (or PAPI_EVENTS, the region API's, when it is unset: var names which):
 * the whole list or nothing: an entry that does not fit is named, whole. */
static void user_events(const char *env, const char *var)
{
    struct pmpi_events *ev = pmpi_events_edit();
    struct pmpi_failed failed = {0};
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
        set_note("%s rejected at entry \"%s\" (%s): no counters", var, bad ? bad : "",
                 why ? why : "out of memory");
        size_t blen = bad ? strlen(bad) : 0;
        if (blen > 40 && asprintf(&ev->counter_banner,
                               "%s rejected at entry \"%.32s[...]\" (%zu bytes, %s): no "
                               "counters; the whole entry: counter_note in papi_mpi_report.json",
                               var, bad, blen, why ? why : "out of memory") < 0)
            ev->counter_banner = NULL;
        fprintf(stderr, "papi_mpi: %s\n", ev->counter_banner ? ev->counter_banner
                                                                 : ev->counter_note);
        ev->nevents = 0;
    } else {
        try_events(names, n, &failed);
        if (failed.n) {
            char before[64], after[128];
            snprintf(before, sizeof before, "%s: not available: ", var);
            snprintf(after, sizeof after, " of %s%s", var, WHOLE_REASONS);
            failed_note(&failed, before, "", after);
        }
    }
    pmpi_failed_free(&failed);
    free(buf);
}

static void choose_events(void)
{
    /* The tool's start, unseen by the program's PAPI_is_initialized. */
    int rc = PAPI_tool_init(PAPI_VER_CURRENT);
    if (rc != PAPI_VER_CURRENT && rc != PAPI_OK) {
        const char *why = PAPI_strerror_detail();
        set_note("PAPI_tool_init failed (%s%s%s): no counters", PAPI_strerror(rc),
                 why && *why ? ": " : "", why && *why ? why : "");
        return;
    }
    /* No PAPI_thread_init: the thread id function is the program's (PAPI_thread_id);
     * each thread's set counts it without one. */
    papi_ok = 1;
    const char *var = "PAPI_MPI_EVENTS";
    const char *env = env_get(var);
    if (!env || !*env) { /* the program's region API list counts the ranks too */
        var = "PAPI_EVENTS";
        env = env_get(var);
    }
    if (env && *env) {
        user_events(env, var);
        return;
    }
    struct pmpi_failed failed = {0};
    int got = try_events(default_hardware_events, DEFAULT_HARDWARE_N, &failed);
    if (got > 0 && got < DEFAULT_HARDWARE_N) {
        failed_note(&failed, "not available: ", "", WHOLE_REASONS);
    } else if (got == 0) {
        try_events(default_mpi_software_events, DEFAULT_SOFTWARE_N, NULL);
        failed_note(&failed, "no hardware counters (", "): software events instead",
                    "; counting perf::PAGE-FAULTS and perf::TASK-CLOCK instead" WHOLE_REASONS);
    }
    pmpi_failed_free(&failed);
}

/* Whether a set of name's component (multiplexed when the rank's are: the CPU's) opens
 * with the events of that component and name: PAPI_OK, or the error of the first that
 * did not. */
static int opens_with(const char *name)
{
    int c = pmpi_event_component(name), es = PAPI_NULL;
    int ret = c < 0 ? c : PAPI_create_eventset(&es);
    if (ret == PAPI_OK && c == 0 && pmpi_mpx_on())
        ret = pmpi_mpx_make(es);
    for (int e = 0; ret == PAPI_OK && e < pmpi_ev()->nevents; e++)
        if (pmpi_event_component(pmpi_ev()->event_names[e]) == c)
            ret = PAPI_add_named_event(es, pmpi_ev()->event_counted[e]);
    if (ret == PAPI_OK)
        ret = PAPI_add_named_event(es, name);
    if (es != PAPI_NULL) {
        PAPI_cleanup_eventset(es);
        PAPI_destroy_eventset(&es);
    }
    return ret;
}

/* name among the counted events (by name, or the same event by another name: the
 * metrics' evaluation finds it by its code), or (may_add) added to them when the set still
 * opens with it. */
static int have_event(const char *name, int may_add)
{
    struct pmpi_events *ev = pmpi_events_edit();
    int code = 0, other = 0;
    if (PAPI_event_name_to_code(name, &code) != PAPI_OK)
        code = 0;
    for (int e = 0; e < ev->nevents; e++)
        if (strcmp(ev->event_names[e], name) == 0 ||
            (code && PAPI_event_name_to_code(ev->event_names[e], &other) == PAPI_OK &&
             other == code))
            return 1;
    if (!may_add || ev->nevents == PMPI_MAX_EVENTS || strlen(name) >= PMPI_NAME_LEN)
        return 0;
    int ret = opens_with(name);
    if (ret == PAPI_ECNFLCT && !pmpi_mpx_on()) { /* does not fit: multiplexed, not dropped */
        pmpi_mpx_force(name, PAPI_strerror_detail());
        if ((ret = opens_with(name)) != PAPI_OK)
            pmpi_mpx_unforce();
    }
    int ok = ret == PAPI_OK;
    if (ok) { /* a metric's events: counted as named (its formula chose their modes) */
        snprintf(ev->event_counted[ev->nevents], PMPI_NAME_LEN, "%s", name);
        snprintf(ev->event_names[ev->nevents++], PMPI_NAME_LEN, "%s", name);
    }
    return ok;
}

/* Each entry of list expanded on its own: one this machine has no metric or group of is
 * said once (rank 0), with the library's reason, and the others are still computed. */
static void expand_metrics(const char *list, char (*names)[PAPI_MIN_STR_LEN], int max, int *n)
{
    char entry[PAPI_MIN_STR_LEN];
    *n = 0;
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        snprintf(entry, sizeof entry, "%.*s", (int)(len < sizeof entry ? len : sizeof entry - 1), p);
        p += len + (p[len] == ',');
        char got[PMPI_MAX_METRICS * 4][PAPI_MIN_STR_LEN];
        int ngot = 0;
        if (PAPIM_expand(entry, got, PMPI_MAX_METRICS * 4, &ngot) == PAPI_OK)
            for (int i = 0; i < ngot; i++) {
                int k = 0;
                while (k < *n && strcmp(names[k], got[i]) != 0)
                    k++;
                if (k == *n && *n < max) /* not twice */
                    memcpy(names[(*n)++], got[i], PAPI_MIN_STR_LEN);
            }
        else if (pmpi_id()->rank == 0 && strspn(entry, " \t") < strlen(entry))
            fprintf(stderr, "papi_mpi: PAPI_MPI_METRICS not used: %s\n", PAPI_strerror_detail());
    }
}

/* PAPI_MPI_METRICS: each metric's events are added to the rank's; one that cannot be
 * computed here is said on stderr with the reason. Unset: CPU_UTILIZATION, IPC and
 * DP_FLOPS where they can be counted, adding their events only to the default ones (a
 * list the user chose with PAPI_MPI_EVENTS or PAPI_EVENTS is kept as it is). */
static void choose_metrics(int user_events)
{
    struct pmpi_events *ev = pmpi_events_edit();
    const char *env = env_get("PAPI_MPI_METRICS");
    int asked = env && *env;
    char names[PMPI_MAX_METRICS * 4][PAPI_MIN_STR_LEN];
    int n = 0;
    if (!papi_ok)
        return;
    expand_metrics(asked ? env : "CPU_UTILIZATION,IPC,DP_FLOPS", names, PMPI_MAX_METRICS * 4, &n);
    for (int i = 0; i < n; i++) {
        PAPIM_metric_info_t m;
        memset(&m, 0, sizeof m);
        int ok = ev->nmetrics < PMPI_MAX_METRICS && PAPIM_query_metric(names[i], &m) == PAPI_OK &&
                 m.countable;
        for (int e = 0; ok && e < m.num_events; e++)
            ok = have_event(m.event_names[e], asked || !user_events);
        if (ok) {
            int k = ev->nmetrics++;
            ev->metric_socket[k] = ev->metric_device[k] = 0;
            for (int e = 0; e < m.num_events; e++) {
                ev->metric_socket[k] |= pmpi_socket_wide_event(m.event_names[e]);
                ev->metric_device[k] |= pmpi_node_device_event(m.event_names[e]);
            }
            snprintf(ev->metric_names[k], PMPI_NAME_LEN, "%.63s", names[i]);
            snprintf(ev->metric_units[k], PMPI_NAME_LEN, "%.63s", m.unit);
        } else if (asked && pmpi_id()->rank == 0) {
            fprintf(stderr, "papi_mpi: PAPI_MPI_METRICS: %s not computed: %s\n", names[i],
                    ev->nmetrics == PMPI_MAX_METRICS ? "more than 4 metrics"
                    : m.reason[0]                         ? m.reason
                                                          : "its events do not open together, multiplexed neither");
        }
    }
}

void pmpi_counters_metrics(const long long *counts, double wall_s, double *value, int *ok,
                           char (*why)[160], size_t whylen)
{
    const char *names[PMPI_MAX_EVENTS];
    for (int e = 0; e < pmpi_ev()->nevents; e++)
        names[e] = pmpi_ev()->event_names[e];
    for (int k = 0; k < pmpi_ev()->nmetrics; k++) {
        int uncounted = pmpi_ev()->metric_socket[k] && pmpi_socket_counters_not_counted();
        ok[k] = !papi_gone && !uncounted &&
                PAPIM_evaluate(pmpi_ev()->metric_names[k], pmpi_ev()->nevents, names, counts,
                               wall_s, &value[k]) == PAPI_OK;
        if (!ok[k] && uncounted)
            snprintf(why[k], whylen,
                     "%s: its socket's events could not be counted (why: the line on stderr)",
                     pmpi_ev()->metric_names[k]);
        else if (!ok[k])
            snprintf(why[k], whylen, "%s: %s", pmpi_ev()->metric_names[k],
                     papi_gone ? "the program called PAPI_shutdown" : PAPI_strerror_detail());
    }
}

void pmpi_counters_init(void)
{
    for (int i = 0; i < PMPI_MAX_THREADS; i++)
        slots[i].evset = -1;
    const char *ev = env_get("PAPI_MPI_EVENTS"), *hl = env_get("PAPI_EVENTS");
    pmpi_mpx_init();
    choose_events();
    choose_metrics((ev && *ev) || (hl && *hl));
    if (pmpi_mpx_on() && pmpi_id()->rank == 0)
        fprintf(stderr, "papi_mpi: %s\n", pmpi_mpx_note());
    pmpi_component_counters_init(papi_ok);
    for (int e = 0; e < pmpi_ev()->nevents; e++) {
        if (PAPI_event_name_to_code(pmpi_ev()->event_counted[e], &event_codes[e]) != PAPI_OK)
            event_codes[e] = 0;
        if (!pmpi_socket_wide_event(pmpi_ev()->event_names[e]) && !pmpi_component_event(e))
            thread_ev[nthread_ev++] = e;
    }
    pmpi_socket_counters_init(papi_ok);
    pmpi_energy_events_init();
}

/* Slots with a thread of their own (the shared overflow slot has no event set). */
static int private_slots(void)
{
    int n = atomic_load(&pmpi_rec.nthreads);
    return n > PMPI_MAX_THREADS ? PMPI_MAX_THREADS : n;
}

/* The calling thread's counters, or NULL when it shares the overflow slot. */
static struct thread_counters *own_slot(void)
{
    long i = pmpi_tls - pmpi_rec.threads;
    return i >= 0 && i < PMPI_MAX_THREADS ? &slots[i] : NULL;
}

/* The set still holds exactly our events (not a set the program made after its own
 * PAPI_shutdown and re-init under the same handle). */
static int set_is_ours(int es)
{
    int codes[PMPI_MAX_EVENTS], n = PMPI_MAX_EVENTS;
    if (papi_gone || es < 0 || PAPI_num_events(es) != nthread_ev)
        return 0;
    if (PAPI_list_events(es, codes, &n) != PAPI_OK || n != nthread_ev)
        return 0;
    for (int i = 0; i < n; i++)
        if (codes[i] != event_codes[thread_ev[i]])
            return 0;
    return 1;
}

void pmpi_counters_thread_start(int slot)
{
    struct thread_counters *th = &slots[slot];
    int es = PAPI_NULL;
    if (!papi_ok || papi_gone || nthread_ev == 0)
        return;
    /* Not PAPI_register_thread: the program's PAPI_list_threads lists its own threads. */
    if (PAPI_create_eventset(&es) != PAPI_OK)
        return;
    /* Attached to this very thread: counts the same, but does not occupy the thread's
     * one running event set, so the program's own PAPI_start still works. */
    if (PAPI_attach(es, thread_id()) != PAPI_OK)
        goto fail;
    if (pmpi_mpx_make(es) != PAPI_OK && pmpi_id()->rank == 0)
        fprintf(stderr, "papi_mpi: a thread's event set is not multiplexed: %s\n",
                PAPI_strerror_detail());
    for (int i = 0; i < nthread_ev; i++)
        if (PAPI_add_named_event(es, pmpi_ev()->event_counted[thread_ev[i]]) != PAPI_OK)
            goto fail;
    if (PAPI_start(es) != PAPI_OK)
        goto fail;
    pthread_mutex_lock(&pmpi_state_lock);
    th->evset = es;
    pthread_mutex_unlock(&pmpi_state_lock);
    return;
fail:
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
}

static void stop_set(struct thread_counters *th, long long *out)
{
    long long v[PMPI_MAX_EVENTS] = {0};
    if (set_is_ours(th->evset)) {
        if (PAPI_stop(th->evset, v) == PAPI_OK) {
            memset(out, 0, sizeof v);
            scatter_add(v, out);
            pmpi_mpx_fold(th->evset, thread_ev, nthread_ev, 1);
        }
        PAPI_cleanup_eventset(th->evset);
        PAPI_destroy_eventset(&th->evset);
    }
    th->evset = -1;
}

/* A thread that made MPI calls ends: fold its counts into the rank's total. */
void pmpi_counters_thread_exit(int slot)
{
    struct thread_counters *th = &slots[slot];
    pthread_mutex_lock(&pmpi_state_lock);
    if (th->evset >= 0 && !th->exited) {
        stop_set(th, th->counts);
        for (int e = 0; e < pmpi_ev()->nevents; e++)
            retired[e] += th->counts[e];
    }
    th->exited = 1;
    pthread_mutex_unlock(&pmpi_state_lock);
}

int pmpi_counters_read_self(long long *out)
{
    /* the caller holds pmpi_state_lock */
    struct thread_counters *th = pmpi_tls ? own_slot() : NULL;
    long long v[PMPI_MAX_EVENTS] = {0};
    if (papi_gone || (nthread_ev > 0 && (!th || !set_is_ours(th->evset) ||
                                         PAPI_read(th->evset, v) != PAPI_OK)))
        return -1;
    memset(out, 0, sizeof v);
    if (nthread_ev > 0)
        scatter_add(v, out);
    pmpi_component_counters_read(out); /* the node's or the process's, not the thread's */
    return 0;
}

/* The rank's total: ended threads plus a read of every live thread's set (the perf
 * descriptors are the process's, so the finalising thread can read them). The caller
 * holds pmpi_state_lock. */
const char *pmpi_counters_read_rank(long long *sum)
{
    memcpy(sum, retired, sizeof retired);
    pmpi_mpx_row_begin();
    int n = private_slots();
    for (int i = 0; i < n; i++) {
        long long v[PMPI_MAX_EVENTS] = {0};
        if (slots[i].exited || !set_is_ours(slots[i].evset))
            continue;
        if (PAPI_read(slots[i].evset, v) == PAPI_OK) {
            scatter_add(v, sum);
            pmpi_mpx_fold(slots[i].evset, thread_ev, nthread_ev, 0);
        }
    }
    if (!papi_gone) {
        pmpi_socket_counters_read(sum);
        pmpi_component_counters_read(sum);
    }
    return papi_gone ? "the program called PAPI_shutdown before MPI_Finalize: counts end there"
                : NULL;
}

/* A read longer than this was interrupted (the reading thread preempted): its time is
 * not the counts' time, so the read is taken again (at most READ_TRIES times). */
#define READ_SKEW_NS 100000
#define READ_TRIES   4

const char *pmpi_counters_read_rank_at(long long *sum, long long *t_ns)
{
    const char *note = NULL;
    for (int k = 0; k < READ_TRIES; k++) {
        long long t0 = pmpi_now_ns();
        note = pmpi_counters_read_rank(sum);
        long long t1 = pmpi_now_ns();
        *t_ns = t0 + (t1 - t0) / 2;
        if (t1 - t0 <= READ_SKEW_NS)
            break;
    }
    return note;
}

/* The program's PAPI_shutdown: fold our counts in and forget our sets first. */
void PAPI_shutdown(void)
{
    static void (*real)(void);
    if (!real)
        real = (void (*)(void))dlsym(RTLD_NEXT, "PAPI_shutdown");
    pthread_mutex_lock(&pmpi_state_lock);
    if (papi_ok && !papi_gone) {
        int n = private_slots();
        for (int i = 0; i < n; i++) {
            struct thread_counters *th = &slots[i];
            if (th->exited || th->evset < 0)
                continue;
            stop_set(th, th->counts);
            for (int e = 0; e < pmpi_ev()->nevents; e++)
                retired[e] += th->counts[e];
            th->exited = 1;
        }
        pmpi_socket_counters_stop(retired);
        pmpi_component_counters_stop(retired);
        papi_gone = 1;
    }
    pthread_mutex_unlock(&pmpi_state_lock);
    if (real)
        real();
}

void pmpi_counters_shutdown(void)
{
    pthread_mutex_lock(&pmpi_state_lock);
    if (!papi_gone) {
        pmpi_socket_counters_stop(retired);
        pmpi_component_counters_stop(retired);
    }
    struct thread_counters *self = pmpi_tls ? own_slot() : NULL;
    if (self && self->evset >= 0 && !self->exited) {
        stop_set(self, self->counts);
        self->exited = 1;
    }
    pthread_mutex_unlock(&pmpi_state_lock);
}
