/* bench_counting: ns per PAPI_read / accum / reset / start+stop / add_event for 1, 2
 * and 4 software events and per PAPI_library_init, for this library against the raw
 * perf_event floor and against the system's PAPI (libpapi.so loaded with dlopen), all
 * in the same run. Fairness (bench_timing.h): warm-up, pairs of batches in ABBA order,
 * the median of the per-pair ratios; every side counts the same events (the same
 * software event types, opened the same way) and is called through a function pointer.
 * When the system PAPI cannot count here (its perf_event component disabled, as in a VM
 * with perf_event_paranoid 3), it says why and only PAPI_library_init is compared.
 *
 *   bench_counting [--reps N] */
#include <dlfcn.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_timing.h"
#include "papi.h"

#ifndef SYSTEM_PAPI_LIBRARY
#define SYSTEM_PAPI_LIBRARY "libpapi.so.7.0"
#endif
#define BATCH 8

static const char *events[4] = {"perf::PAGE-FAULTS", "perf::MINOR-FAULTS",
                                "perf::CONTEXT-SWITCHES", "perf::CPU-MIGRATIONS"};
static const unsigned long long configs[4] = {PERF_COUNT_SW_PAGE_FAULTS,
                                              PERF_COUNT_SW_PAGE_FAULTS_MIN,
                                              PERF_COUNT_SW_CONTEXT_SWITCHES,
                                              PERF_COUNT_SW_CPU_MIGRATIONS};
static int reps = 2001;

/* ---- a PAPI, ours (linked) or the system's (dlopen) ------------------------------------ */
struct papi_api {
    int (*library_init)(int);
    int (*create_eventset)(int *);
    int (*add_named_event)(int, const char *);
    int (*add_event)(int, int);
    int (*remove_event)(int, int);
    int (*event_name_to_code)(const char *, int *);
    int (*start)(int);
    int (*stop)(int, long long *);
    int (*read)(int, long long *);
    int (*accum)(int, long long *);
    int (*reset)(int);
    int (*cleanup_eventset)(int);
    int (*destroy_eventset)(int *);
    int (*num_components)(void);
    const PAPI_component_info_t *(*get_component_info)(int);
};

static const struct papi_api ours_api = {
    PAPI_library_init, PAPI_create_eventset, PAPI_add_named_event, PAPI_add_event,
    PAPI_remove_event, PAPI_event_name_to_code, PAPI_start, PAPI_stop, PAPI_read, PAPI_accum,
    PAPI_reset, PAPI_cleanup_eventset, PAPI_destroy_eventset, PAPI_num_components,
    PAPI_get_component_info,
};

/* RTLD_DEEPBIND: the system library's calls to its own PAPI_* stay inside it. */
static int load_system_papi(struct papi_api *api, char *why, size_t len)
{
    void *h = dlopen(SYSTEM_PAPI_LIBRARY, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!h) {
        snprintf(why, len, "not installed (%s)", dlerror());
        return -1;
    }
#define LOAD(field, sym)                                                                   \
    if (!(*(void **)&api->field = dlsym(h, sym))) { /* the POSIX idiom for dlsym */     \
        snprintf(why, len, "%s lacks %s", SYSTEM_PAPI_LIBRARY, sym);                       \
        return -1;                                                                         \
    }
    LOAD(library_init, "PAPI_library_init")
    LOAD(create_eventset, "PAPI_create_eventset")
    LOAD(add_named_event, "PAPI_add_named_event")
    LOAD(add_event, "PAPI_add_event")
    LOAD(remove_event, "PAPI_remove_event")
    LOAD(event_name_to_code, "PAPI_event_name_to_code")
    LOAD(start, "PAPI_start")
    LOAD(stop, "PAPI_stop")
    LOAD(read, "PAPI_read")
    LOAD(accum, "PAPI_accum")
    LOAD(reset, "PAPI_reset")
    LOAD(cleanup_eventset, "PAPI_cleanup_eventset")
    LOAD(destroy_eventset, "PAPI_destroy_eventset")
    LOAD(num_components, "PAPI_num_components")
    LOAD(get_component_info, "PAPI_get_component_info")
#undef LOAD
    return 0;
}

/* Why api cannot count the events: its perf_event component's disabled reason. */
static void why_not_counting(const struct papi_api *api, char *why, size_t len)
{
    snprintf(why, len, "cannot add %s", events[0]);
    for (int i = 0; i < api->num_components(); i++) {
        const PAPI_component_info_t *c = api->get_component_info(i);
        if (c && strcmp(c->name, "perf_event") == 0 && c->disabled)
            snprintf(why, len, "component perf_event disabled: %s", c->disabled_reason);
    }
}

static int make_set(const struct papi_api *api, int n)
{
    int es = PAPI_NULL;
    if (api->create_eventset(&es) != PAPI_OK)
        return -1;
    for (int i = 0; i < n; i++)
        if (api->add_named_event(es, events[i]) != PAPI_OK)
            return -1;
    return es;
}

/* ---- the raw perf_event floor: one group of the same software events ------------------- */
static int raw_open_one(int i, int group_fd)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = configs[i];
    a.disabled = group_fd < 0;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    a.read_format =
        PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
}

/* ---- the operations, one batch each --------------------------------------------------- */
struct op {
    const struct papi_api *api;
    int es, n, code;   /* a PAPI side */
    int fd[4];         /* the raw side */
    long long v[4];
    unsigned long long buf[3 + 4];
};

#define BATCH_RUN(fn, stmt)                                                                \
    static long long fn(void *arg)                                                         \
    {                                                                                      \
        struct op *o = arg;                                                                \
        long long t0 = now_ns();                                                           \
        for (int k = 0; k < BATCH; k++) {                                                  \
            stmt;                                                                          \
        }                                                                                  \
        return now_ns() - t0;                                                              \
    }
BATCH_RUN(run_read, o->api->read(o->es, o->v))
BATCH_RUN(run_accum, o->api->accum(o->es, o->v))
BATCH_RUN(run_reset, o->api->reset(o->es))
BATCH_RUN(run_startstop, o->api->start(o->es); o->api->stop(o->es, o->v))
BATCH_RUN(run_raw_read, if (read(o->fd[0], o->buf, sizeof o->buf) < 0) abort())
BATCH_RUN(run_raw_reset, ioctl(o->fd[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP))
BATCH_RUN(run_raw_ss, ioctl(o->fd[0], PERF_EVENT_IOC_ENABLE, 0);
          ioctl(o->fd[0], PERF_EVENT_IOC_DISABLE, 0);
          if (read(o->fd[0], o->buf, sizeof o->buf) < 0) abort())

/* add_event: the n-th event into a set holding n-1 (its removal untimed), against one
 * perf_event_open of the same event type into a raw group of n-1 (its close untimed). */
static long long run_add(void *arg)
{
    struct op *o = arg;
    long long t0 = now_ns();
    o->api->add_event(o->es, o->code);
    long long t = now_ns() - t0;
    o->api->remove_event(o->es, o->code);
    return t;
}
static long long run_raw_open(void *arg)
{
    struct op *o = arg;
    long long t0 = now_ns();
    int fd = raw_open_one(o->n - 1, o->n > 1 ? o->fd[0] : -1);
    long long t = now_ns() - t0;
    if (fd >= 0)
        close(fd);
    return t;
}

/* ---- the table ------------------------------------------------------------------------- */
enum { OP_READ, OP_ACCUM, OP_RESET, OP_STARTSTOP, OP_ADD, NUM_OPS };
static const char *const op_names[NUM_OPS] = {"PAPI_read", "PAPI_accum", "PAPI_reset (running)",
                                              "PAPI_start+stop", "PAPI_add_event"};
struct row {
    struct bench_compare raw, sys; /* ours against the raw floor, ours against system PAPI */
    int have_sys;
};

static void compare(long long (*ours_run)(void *), long long (*raw_run)(void *), int per,
                    int pairs, struct op *ours, struct op *raw, struct op *sys, struct row *out)
{
    struct bench_side a = {ours_run, ours, per}, b = {raw_run, raw, per};
    bench_abba(&a, &b, pairs, pairs / 10 + 10, &out->raw);
    out->have_sys = sys != NULL;
    if (sys) {
        struct bench_side s = {ours_run, sys, per};
        bench_abba(&a, &s, pairs, pairs / 10 + 10, &out->sys);
    }
}

/* One event count n: both PAPIs' sets and the raw group, running for read, accum, reset;
 * stopped for start+stop; n-1 events for add_event. */
static int bench_n(int n, const struct papi_api *sys_api, struct row rows[NUM_OPS])
{
    struct op ours = {.api = &ours_api, .n = n}, raw = {.n = n}, sys = {.api = sys_api, .n = n};
    struct op *s = sys_api ? &sys : NULL;
    if ((ours.es = make_set(&ours_api, n)) < 0 || (s && (sys.es = make_set(sys_api, n)) < 0))
        return -1;
    for (int i = 0; i < n; i++)
        if ((raw.fd[i] = raw_open_one(i, i ? raw.fd[0] : -1)) < 0)
            return -1;
    ours_api.start(ours.es);
    if (s)
        sys_api->start(sys.es);
    ioctl(raw.fd[0], PERF_EVENT_IOC_ENABLE, 0);
    compare(run_read, run_raw_read, BATCH, reps, &ours, &raw, s, &rows[OP_READ]);
    compare(run_accum, run_raw_read, BATCH, reps, &ours, &raw, s, &rows[OP_ACCUM]);
    compare(run_reset, run_raw_reset, BATCH, reps, &ours, &raw, s, &rows[OP_RESET]);
    ours_api.stop(ours.es, ours.v);
    if (s)
        sys_api->stop(sys.es, sys.v);
    ioctl(raw.fd[0], PERF_EVENT_IOC_DISABLE, 0);
    compare(run_startstop, run_raw_ss, BATCH, reps, &ours, &raw, s, &rows[OP_STARTSTOP]);
    struct op *sets[2] = {&ours, s};
    for (int j = 0; j < 2 && sets[j]; j++) {
        sets[j]->api->cleanup_eventset(sets[j]->es);
        for (int i = 0; i < n - 1; i++)
            sets[j]->api->add_named_event(sets[j]->es, events[i]);
        sets[j]->api->event_name_to_code(events[n - 1], &sets[j]->code);
    }
    for (int i = n - 1; i >= 1; i--) /* the raw group keeps n-1 events */
        close(raw.fd[i]);
    compare(run_add, run_raw_open, 1, reps / 4 + 11, &ours, &raw, s, &rows[OP_ADD]);
    for (int j = 0; j < 2 && sets[j]; j++) {
        sets[j]->api->cleanup_eventset(sets[j]->es);
        sets[j]->api->destroy_eventset(&sets[j]->es);
    }
    close(raw.fd[0]);
    return 0;
}

/* ---- PAPI_library_init, once per fresh process ---------------------------------------- */
static int init_once(int system)
{
    struct papi_api api = ours_api;
    char why[256];
    if (system && load_system_papi(&api, why, sizeof why) != 0)
        return 1;
    long long t0 = now_ns();
    int r = api.library_init(PAPI_VER_CURRENT);
    long long t = now_ns() - t0;
    printf("%lld\n", r == PAPI_VER_CURRENT ? t : -1LL);
    return 0;
}

static long long run_init_child(void *arg)
{
    const char *const *argv = arg;
    int p[2];
    if (pipe(p))
        return -1;
    pid_t c = fork();
    if (c == 0) {
        dup2(p[1], 1);
        execv(argv[0], (char *const *)argv);
        _exit(1);
    }
    close(p[1]);
    char buf[64] = {0};
    ssize_t got = read(p[0], buf, sizeof buf - 1);
    close(p[0]);
    waitpid(c, NULL, 0);
    return got > 0 ? atoll(buf) : -1;
}

static void print_row(const char *label, const struct row *r)
{
    printf("%-24s %9.0f %9.0f %8.2f", label, r->raw.a_ns, r->raw.b_ns, r->raw.ratio);
    if (r->have_sys)
        printf(" %9.0f %8.2f\n", r->sys.b_ns, r->sys.ratio);
    else
        printf(" %9s %8s\n", "-", "-");
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--init-once"))
            return init_once(0);
        if (!strcmp(argv[i], "--init-once-system"))
            return init_once(1);
        if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = atoi(argv[++i]);
            if (reps < 11 || reps > 100001)
                reps = 2001;
        }
    }
    struct papi_api sys_api;
    char why[PAPI_HUGE_STR_LEN + 64] = "";
    int sys_loaded = load_system_papi(&sys_api, why, sizeof why) == 0;
    if (sys_loaded && sys_api.library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
        snprintf(why, sizeof why, "its PAPI_library_init failed");
        sys_loaded = 0;
    }
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
        fprintf(stderr, "PAPI_library_init failed\n");
        return 1;
    }
    int sys_counts = 0;
    if (sys_loaded) {
        int es = make_set(&sys_api, 1);
        sys_counts = es >= 0;
        if (!sys_counts)
            why_not_counting(&sys_api, why, sizeof why);
        else {
            sys_api.cleanup_eventset(es);
            sys_api.destroy_eventset(&es);
        }
    }
    if (!sys_counts)
        printf("system PAPI (%s) not compared on counting: %s\n", SYSTEM_PAPI_LIBRARY, why);

    printf("ns per call: median of %d pairs in ABBA order after warm-up; ratio = median of "
           "per-pair ratios; software events\n", reps);
    printf("%-24s %9s %9s %8s %9s %8s\n", "operation", "ours", "raw", "ours/raw", "sys PAPI",
           "ours/sys");
    for (int k = 0; k < 3; k++) {
        int n = 1 << k;
        struct row rows[NUM_OPS];
        if (bench_n(n, sys_counts ? &sys_api : NULL, rows) != 0) {
            const PAPI_component_info_t *c = PAPI_get_component_info(0);
            printf("cannot count %d software events here (%s: %s)\n", n, c ? c->name : "?",
                   c && c->disabled_reason[0] ? c->disabled_reason : "no reason given");
            return 1;
        }
        for (int i = 0; i < NUM_OPS; i++) {
            char label[48];
            snprintf(label, sizeof label, "%s x%d", op_names[i], n);
            print_row(label, &rows[i]);
        }
    }

    const char *ours_argv[] = {argv[0], "--init-once", NULL};
    const char *sys_argv[] = {argv[0], "--init-once-system", NULL};
    struct bench_side a = {run_init_child, ours_argv, 1}, b = {run_init_child, sys_argv, 1};
    struct bench_compare init;
    if (sys_loaded && bench_abba(&a, &b, 15, 1, &init) == 0 && init.b_ns > 0)
        printf("%-24s %9.0f %9s %8s %9.0f %8.2f\n", "PAPI_library_init", init.a_ns, "-", "-",
               init.b_ns, init.ratio);
    else {
        double t[15];
        for (int i = 0; i < 15; i++)
            t[i] = (double)run_init_child(ours_argv);
        printf("%-24s %9.0f %9s %8s %9s %8s\n", "PAPI_library_init", median(t, 15), "-", "-",
               "-", "-");
    }
    printf("raw floors: read() of the group, ioctl(RESET), enable+disable+read(), one "
           "perf_event_open of the same event type\n");
    PAPI_shutdown();
    return 0;
}
