/* hl_regions.c: the 7.x region API, PAPI_hl_region_begin / PAPI_hl_read /
 * PAPI_hl_region_end / PAPI_hl_stop.
 *
 * Every thread that marks a region gets one event set with the process's events
 * (PAPI_EVENTS, comma-separated preset or native names; without it a default list, and
 * when none of the default hardware events counts here, the software events
 * perf::TASK-CLOCK and perf::PAGE-FAULTS, which the report says). The set runs from the
 * thread's first region on. Every begin/end pair is one instance with its own values
 * (counts at end - counts at begin), as PAPI 7 records them; each region name also
 * keeps its per-thread totals, so nested regions are inclusive and repeated regions
 * accumulate.
 * Real time and cycles are recorded even with no event at all. The report
 * is written at exit by hl_regions_report.c. */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env.h"
#include "call_guard.h"
#include "hl_state.h"
#include "hl_all_threads.h"
#include "hl_regions.h"

struct hlr_config g_hlr;
pthread_mutex_t g_hlr_lock = PTHREAD_MUTEX_INITIALIZER;

static atomic_int configured; /* 0, or 1 + the library generation g_hlr.code belongs to */
static _Thread_local struct hlr_thread *my_record;
#define me (*hl_record_slot(&my_record)) /* one per process under PAPI_HL_THREAD_MULTIPLE=0 */
static pthread_key_t exit_key;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

/* The thread's event set, or PAPI_NULL when it belongs to an earlier library
 * generation (PAPI_shutdown freed it; its handle may now name another set). */
static int own_set(struct hlr_thread *t)
{
    if (t->eventset != PAPI_NULL && t->generation != atomic_load(&g_papi_generation))
        t->eventset = PAPI_NULL;
    return t->eventset;
}

/* A thread that ends: close its counters (its regions stay for the report). */
static void thread_exit(void *arg)
{
    struct hlr_thread *t = arg;
    pthread_mutex_lock(&t->lock);
    const struct eventset *es = own_set(t) != PAPI_NULL ? es_lookup(t->eventset) : NULL;
    if (es && es->owner_tid == papi_gettid()) {
        PAPI_stop(t->eventset, NULL);
        PAPI_cleanup_eventset(t->eventset);
        PAPI_destroy_eventset(&t->eventset);
    }
    t->eventset = PAPI_NULL;
    pthread_mutex_unlock(&t->lock);
}

static void make_exit_key(void)
{
    thread_exit_key_create(&exit_key, thread_exit); /* deleted at unload */
}

static const char *const default_events[] = {"perf::TASK-CLOCK", "PAPI_TOT_INS", "PAPI_TOT_CYC",
                                             "PAPI_FP_OPS"};
static const char *const fallback_events[] = {"perf::TASK-CLOCK", "perf::PAGE-FAULTS"};

/* Every entry not counted is kept whole with its reason (no fixed-size list to cut). */
static void add_skipped(const char *name, const char *why)
{
    struct hlr_skipped *n = realloc(g_hlr.skipped, (size_t)(g_hlr.nskipped + 1) * sizeof *n);
    if (!n)
        return;
    g_hlr.skipped = n;
    n[g_hlr.nskipped].name = strdup(name);
    n[g_hlr.nskipped].why = strdup(why);
    if (n[g_hlr.nskipped].name && n[g_hlr.nskipped].why)
        g_hlr.nskipped++;
}

static void component_name(int code, char *out, size_t len)
{
    const PAPI_component_info_t *c = PAPI_get_component_info(PAPI_get_event_component(code));
    papi_strcpy(out, len, c ? c->name : "perf_event");
}

/* Keep name in the configuration if it opens in a probe set; else note why not. */
static void try_event(int probe, const char *name, int quiet, int may_multiplex)
{
    int code = 0, ret;
    if (g_hlr.nevents >= HLR_MAX_EVENTS) {
        add_skipped(name, "more than 16 events");
        return;
    }
    if (strlen(name) >= sizeof g_hlr.name[0]) {
        add_skipped(name, "the event name is longer than 127 characters");
        return;
    }
    ret = PAPI_event_name_to_code(name, &code);
    if (ret != PAPI_OK)
        code = 0;
    if (ret == PAPI_OK)
        ret = PAPI_add_event(probe, code);
    if (ret == PAPI_ECNFLCT && may_multiplex &&
        hl_metrics_multiplex(probe, name, papi_last_error_detail()) == PAPI_OK)
        ret = PAPI_add_event(probe, code); /* PAPI_METRICS: multiplexed, not dropped */
    if (ret == PAPI_OK) {
        g_hlr.code[g_hlr.nevents] = code;
        papi_strcpy(g_hlr.name[g_hlr.nevents], sizeof g_hlr.name[0], name);
        component_name(code, g_hlr.component[g_hlr.nevents], sizeof g_hlr.component[0]);
        g_hlr.nevents++;
        return;
    }
    if (quiet)
        return;
    /* The name is unknown (code 0): the hardware is not the reason. */
    char *why = code == 0 ? strdup(papi_last_error_detail()) : hl_missing_reason(code);
    add_skipped(name, why ? why : "not counted (no memory to say why)");
    free(why);
}

/* g_hlr.note = the formatted reason, whole. */
__attribute__((format(printf, 1, 2))) static void set_note(const char *fmt, ...)
{
    va_list ap;
    char *s = NULL;
    va_start(ap, fmt);
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    va_end(ap);
    free(g_hlr.note);
    g_hlr.note = s;
}

/* configure's one-line notice, printed only once the choice stands (a PAPI_shutdown in
 * another thread makes every probe fail: that is no diagnosis of the machine). */
static char *pending_notice;
static void notice_later(const char *msg)
{
    if (!pending_notice)
        pending_notice = strdup(msg);
}

/* The notice names this many entries and quotes this much of the first one's reason
 * (a reason with a recorded tree's path can be kilobytes long). */
#define NOTICE_NAMES 8
#define NOTICE_WHY   120

/* The events PAPI_EVENTS lists (comma-separated, spaces around names ignored). */
static void configure_from_env(int probe, const char *env)
{
    g_hlr.source = "PAPI_EVENTS";
    char *list = strdup(env); /* the whole list, however long */
    if (!list) {
        set_note("no memory to read PAPI_EVENTS: no event counted");
        notice_later("PAPI_hl_region_begin: no memory to read PAPI_EVENTS: no event counted");
        return;
    }
    char *save = NULL;
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        size_t len = strlen(tok);
        while (len > 0 && tok[len - 1] == ' ')
            tok[--len] = '\0';
        int instant = hl_event_suffix(tok), before = g_hlr.nevents;
        if (*tok)
            try_event(probe, tok, 0, 0);
        if (g_hlr.nevents > before)
            g_hlr.instant[before] = instant;
    }
    free(list);
    if (g_hlr.nskipped) { /* one short line; the report's note has every reason whole */
        char *msg = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&msg, &len);
        if (f) {
            fprintf(f,
                    "PAPI_hl_region_begin: PAPI_EVENTS entries not counted (%d): ", g_hlr.nskipped);
            for (int i = 0; i < g_hlr.nskipped && i < NOTICE_NAMES; i++)
                fprintf(f, "%s%s", i ? ", " : "", g_hlr.skipped[i].name);
            if (g_hlr.nskipped > NOTICE_NAMES)
                fprintf(f, ", ...");
            const char *why = g_hlr.skipped[0].why ? g_hlr.skipped[0].why : "";
            const char *end = strstr(why, ". "); /* its first sentence */
            int n = end ? (int)(end - why) : (int)strlen(why);
            fprintf(f, " (%s%.*s%s); the whole reasons: the region report's note",
                    g_hlr.nskipped > 1 ? "the first: " : "", n > NOTICE_WHY ? NOTICE_WHY : n, why,
                    n > NOTICE_WHY ? " [...]" : "");
            if (fclose(f) != 0) {
                free(msg);
                msg = NULL;
            }
        }
        notice_later(msg ? msg : "PAPI_hl_region_begin: some PAPI_EVENTS entries are not counted");
        free(msg);
    }
}

static int counted(const char *name)
{
    for (int i = 0; i < g_hlr.nevents; i++)
        if (strcmp(g_hlr.name[i], name) == 0)
            return 1;
    return 0;
}

/* A metric already planned (a group and a name may both bring it). */
static int metric_configured(const char *name)
{
    for (int k = 0; k < g_hlr.nmetrics; k++)
        if (strcmp(g_hlr.metric[k].name, name) == 0)
            return 1;
    return 0;
}

/* One metric of PAPI_METRICS: its events added to the process's, its formula planned
 * over them; a metric that cannot be computed here is skipped with the reason. */
static void configure_metric(int probe, const char *name)
{
    PAPIM_metric_info_t info;
    char why[PAPI_HUGE_STR_LEN + 64];
    memset(&info, 0, sizeof info);
    if (g_hlr.nmetrics == HLR_MAX_METRICS) {
        add_skipped(name, "more than 8 metrics");
        return;
    }
    if (PAPIM_query_metric(name, &info) != PAPI_OK || !info.countable) {
        snprintf(why, sizeof why, "metric: %s",
                 info.reason[0] ? info.reason : papi_last_error_detail());
        add_skipped(name, why);
        return;
    }
    for (int i = 0; i < info.num_events; i++)
        if (!counted(info.event_names[i]))
            try_event(probe, info.event_names[i], 0, 1);
    if (metric_plan_make(name, g_hlr.nevents, (const char(*)[PAPI_MAX_STR_LEN])g_hlr.name,
                         &g_hlr.metric[g_hlr.nmetrics]) != PAPI_OK) {
        snprintf(why, sizeof why, "metric: %s", papi_last_error_detail());
        add_skipped(name, why);
        return;
    }
    g_hlr.nmetrics++;
}

/* One entry of PAPI_METRICS (a metric or a group) configured; an unknown one is skipped
 * with the reason, the others are still computed. */
static void configure_metric_entry(int probe, const char *entry)
{
    char names[HLR_MAX_METRICS * 2][PAPI_MIN_STR_LEN];
    int n = 0;
    if (PAPIM_expand(entry, names, HLR_MAX_METRICS * 2, &n) != PAPI_OK) {
        char why[PAPI_HUGE_STR_LEN + 64];
        snprintf(why, sizeof why, "PAPI_METRICS: %s", papi_last_error_detail());
        add_skipped(entry, why);
        return;
    }
    for (int i = 0; i < n; i++)
        if (!metric_configured(names[i]))
            configure_metric(probe, names[i]);
}

/* PAPI_METRICS: metric and group names (papi_metrics(3)), beside the events. */
static void configure_metrics(int probe, const char *env)
{
    int skipped = g_hlr.nskipped;
    char entry[PAPI_MIN_STR_LEN];
    for (const char *p = env; *p;) {
        size_t len = strcspn(p, ", \t");
        if (len > 0) {
            snprintf(entry, sizeof entry, "%.*s",
                     (int)(len < sizeof entry ? len : sizeof entry - 1), p);
            configure_metric_entry(probe, entry);
        }
        p += len;
        p += strspn(p, ", \t");
    }
    if (g_hlr.nskipped > skipped)
        notice_later("PAPI_hl_region_begin: some PAPI_METRICS metrics are not computed (the "
                     "region report's skipped_events says why)");
}

/* No hardware counts here: software events instead of failing (or none at all). */
static void configure_fallback(int probe)
{
    char *why = hl_missing_reason(PAPI_TOT_CYC);
    PAPI_cleanup_eventset(probe);
    g_hlr.nevents = 0;
    for (size_t i = 0; i < sizeof fallback_events / sizeof *fallback_events; i++)
        try_event(probe, fallback_events[i], 0, 0);
    g_hlr.source = "fallback";
    if (g_hlr.nevents > 0) {
        set_note("no PAPI_EVENTS and none of PAPI_TOT_INS, PAPI_TOT_CYC, PAPI_FP_OPS "
                 "counts here (%s); counting software events perf::TASK-CLOCK and "
                 "perf::PAGE-FAULTS",
                 why ? why : "no memory to say why");
    } else { /* seccomp, perf_event_paranoid 3: not even software events */
        set_note("no event counts here, software events neither (%s); the regions "
                 "record real time only",
                 why ? why : "no memory to say why");
        char *msg = NULL; /* the whole reason, whatever its length */
        if (g_hlr.note && asprintf(&msg, "PAPI_hl_region_begin: %s", g_hlr.note) < 0)
            msg = NULL;
        notice_later(msg ? msg : "PAPI_hl_region_begin: no event counts here");
        free(msg);
    }
    free(why);
}

/* The default events; the fallback when none of the hardware ones counts. */
static void configure_default(int probe)
{
    int hardware = 0;
    for (size_t i = 0; i < sizeof default_events / sizeof *default_events; i++) {
        int before = g_hlr.nevents;
        try_event(probe, default_events[i], 1, 0);
        hardware += i > 0 && g_hlr.nevents > before;
    }
    g_hlr.source = "default";
    if (!hardware)
        configure_fallback(probe);
}

/* What configure chose, dropped: a shutdown in another thread made it meaningless. */
static void forget_configuration(void)
{
    for (int i = 0; i < g_hlr.nskipped; i++) {
        free(g_hlr.skipped[i].name);
        free(g_hlr.skipped[i].why);
    }
    free(g_hlr.skipped);
    free(g_hlr.note);
    free(pending_notice);
    g_hlr.skipped = NULL;
    g_hlr.note = pending_notice = NULL;
    g_hlr.nskipped = g_hlr.nevents = g_hlr.nmetrics = 0;
    memset(g_hlr.instant, 0, sizeof g_hlr.instant);
    g_hlr.source = NULL;
}

static int configure(void)
{
    int probe = PAPI_NULL;
    int ret = hl_region_eventset(&probe);
    if (ret != PAPI_OK)
        return ret;
    unsigned gen = atomic_load(&g_papi_generation);
    g_hlr.generation = gen;
    const char *env = env_get("PAPI_EVENTS");
    if (env && *env)
        configure_from_env(probe, env);
    else
        configure_default(probe);
    const char *metrics = env_get("PAPI_METRICS");
    if (metrics && *metrics) {
        configure_metrics(probe, metrics);
        hl_metrics_check_fit(probe);
    }
    PAPI_cleanup_eventset(probe);
    PAPI_destroy_eventset(&probe);
    if (atomic_load(&g_papi_generation) != gen || g_papi.init_state == PAPI_NOT_INITED) {
        forget_configuration();
        return papi_error(PAPI_ENOINIT, "PAPI_hl_region_begin: PAPI_shutdown in another thread "
                                        "while the region events were chosen");
    }
    if (pending_notice)
        hl_notice_once(pending_notice);
    free(pending_notice);
    pending_notice = NULL;
    return PAPI_OK;
}

/* After PAPI_shutdown + PAPI_library_init the codes of the first generation mean
 * nothing: resolve the names again. Caller holds g_hlr_lock. */
static int resolve_again(void)
{
    for (int i = 0; i < g_hlr.nevents; i++) {
        int ret = PAPI_event_name_to_code(g_hlr.name[i], &g_hlr.code[i]);
        if (ret == PAPI_ENOINIT) /* a PAPI_shutdown in another thread, not the event */
            return ret;
        if (ret != PAPI_OK)
            return papi_error(PAPI_ENOEVNT,
                              "PAPI_hl_region_begin: event %s is no longer known "
                              "after PAPI_library_init",
                              g_hlr.name[i]);
    }
    g_hlr.generation = atomic_load(&g_papi_generation);
    return PAPI_OK;
}

/* A report that could not be written (full disk, refused directory) is a failed run:
 * the exit status says so instead of 0 (the reason is on stderr already). */
static void at_exit_report(void)
{
    const char *rep = env_get("PAPI_REPORT");
    if (hlr_write_report(rep && *rep && strcmp(rep, "0") != 0) != PAPI_OK) {
        fflush(NULL);
        _exit(EXIT_FAILURE);
    }
}

static int process_init(void)
{
    int ret = hl_self_init();
    if (ret != PAPI_OK)
        return ret;
    unsigned gen = atomic_load_explicit(&g_papi_generation, memory_order_relaxed);
    if (__builtin_expect(atomic_load_explicit(&configured, memory_order_acquire) == (int)gen + 1,
                         1))
        return PAPI_OK;
    pthread_mutex_lock(&g_hlr_lock);
    int state = atomic_load_explicit(&configured, memory_order_relaxed);
    if (state == 0) {
        ret = configure(); /* on failure, chosen again at the next call */
        if (ret == PAPI_OK)
            atexit(at_exit_report);
    } else if (state != (int)gen + 1) {
        ret = resolve_again();
    }
    if (ret == PAPI_OK)
        atomic_store_explicit(&configured, (int)gen + 1, memory_order_release);
    pthread_mutex_unlock(&g_hlr_lock);
    return ret;
}

static int start_set(struct hlr_thread *t)
{
    int es = PAPI_NULL, ret;
    if (g_hlr.nevents == 0)
        return PAPI_OK; /* time only */
    unsigned gen = atomic_load(&g_papi_generation);
    ret = hl_region_eventset(&es);
    for (int i = 0; ret == PAPI_OK && i < g_hlr.nevents; i++)
        ret = PAPI_add_event(es, g_hlr.code[i]);
    if (ret == PAPI_OK)
        ret = PAPI_start(es);
    if (ret != PAPI_OK) {
        if (es != PAPI_NULL) {
            PAPI_cleanup_eventset(es);
            PAPI_destroy_eventset(&es);
        }
        if (ret == PAPI_EISRUN)
            return papi_error(PAPI_EINVAL, "PAPI_hl_region_begin: another event set is already "
                                           "counting in this thread; stop it first");
        return ret;
    }
    t->eventset = es;
    t->generation = gen;
    return PAPI_OK;
}

/* This thread's record, created (and its event set started) on first use. */
static int thread_get(struct hlr_thread **out)
{
    int ret = process_init();
    if (ret != PAPI_OK)
        return ret;
    struct hlr_thread *t = me;
    if (!t) {
        t = calloc(1, sizeof *t);
        if (!t)
            return papi_error(PAPI_ENOMEM, "no memory for the region table");
        t->cap = 32;
        t->region = malloc((size_t)t->cap * sizeof *t->region);
        if (!t->region) {
            free(t);
            return papi_error(PAPI_ENOMEM, "no memory for the region table");
        }
        /* Touch the table now: a first write inside a region would be a page fault
         * counted in that region. */
        memset(t->region, 0, (size_t)t->cap * sizeof *t->region);
        t->eventset = PAPI_NULL;
        pthread_mutex_init(&t->lock, NULL);
        t->id = !hl_thread_multiple() ? (unsigned long)getpid() /* PAPI 7.0's id then */
                : (g_papi.init_state & PAPI_THREAD_LEVEL_INITED) ? PAPI_thread_id()
                                                                 : (unsigned long)papi_gettid();
        pthread_mutex_lock(&g_hlr_lock);
        t->next = g_hlr.threads;
        g_hlr.threads = t;
        pthread_mutex_unlock(&g_hlr_lock);
        pthread_once(&exit_once, make_exit_key);
        pthread_setspecific(exit_key, t);
        me = t;
    }
    if (own_set(t) == PAPI_NULL && t->sp >= 0) {
        ret = start_set(t);
        if (ret != PAPI_OK)
            return ret;
    }
    *out = t;
    return PAPI_OK;
}

static int sample(struct hlr_thread *t, struct hlr_sample *s)
{
    PAPI_CALL_GUARD(); /* a PAPI_shutdown in another thread waits, or this call fails */
    s->real = hl_real_ns();
    s->cyc = PAPI_get_real_cyc();
    if (own_set(t) == PAPI_NULL)
        return g_hlr.nevents == 0
                   ? PAPI_OK
                   : papi_error(PAPI_ENOTRUN,
                                "the region counters of this thread were closed "
                                "(PAPI_shutdown or PAPI_hl_stop); begin a region again");
    /* PAPI_read without its argument checks: the set is this thread's own, of this
     * library generation, with exactly our events (never more than s->value holds). */
    struct eventset *es = es_lookup(t->eventset);
    if (__builtin_expect(!es || !(es->state & PAPI_RUNNING) || es->nentries != g_hlr.nevents, 0))
        return papi_error(PAPI_ENOTRUN, "the region counters of this thread are not running");
    int ret = es_read_values(es, s->value);
    if (__builtin_expect(ret != PAPI_OK, 0))
        return ret;
    if (es->multiplexed)
        hl_metrics_sample_times(es, &t->t_cur);
    return PAPI_OK;
}

static int find_region(const struct hlr_thread *t, const char *name)
{
    for (int i = t->nregions - 1; i >= 0; i--)
        if (strcmp(t->region[i].name, name) == 0)
            return i;
    return -1;
}

static int check_name(const char *caller, const char *name)
{
    if (!name || !*name)
        return papi_error(PAPI_EINVAL, "%s: the region name is NULL or empty", caller);
    if (strlen(name) >= HLR_NAME_LEN)
        return papi_error(PAPI_EINVAL, "%s: the region name is longer than %d characters", caller,
                          HLR_NAME_LEN - 1);
    return PAPI_OK;
}

/* Bookkeeping that grows memory touches new pages inside the regions open around it:
 * what it costs (page faults first) is taken out of them by moving their begin and mark
 * past it. before was sampled just before the growth; only growth calls this (rare). */
static int exclude_from_open(struct hlr_thread *t, const struct hlr_sample *before)
{
    struct hlr_sample after;
    int ret = sample(t, &after);
    if (ret != PAPI_OK)
        return ret;
    for (int k = 0; k < t->sp; k++) {
        struct hlr_region *g = &t->region[t->stack[k]];
        for (int i = 0; i < g_hlr.nevents; i++) {
            long long d = after.value[i] - before->value[i];
            g->begin.value[i] += d;
            g->mark.value[i] += d;
        }
    }
    return PAPI_OK;
}

/* Whether beginning region r (-1: a new name) grows the thread's tables. */
static bool begin_grows(const struct hlr_thread *t, int r)
{
    return t->ninst == t->instcap || (r < 0 && t->nregions == t->cap);
}

static int new_region(struct hlr_thread *t, const char *region)
{
    if (t->nregions == t->cap) {
        struct hlr_region *n = realloc(t->region, (size_t)t->cap * 2 * sizeof *n);
        if (!n)
            return papi_error(PAPI_ENOMEM, "no memory for region '%s'", region);
        memset(n + t->cap, 0, (size_t)t->cap * sizeof *n);
        t->region = n;
        t->cap *= 2;
    }
    int r = t->nregions++;
    struct hlr_region *g = &t->region[r];
    memset(g, 0, sizeof *g);
    papi_strcpy(g->name, sizeof g->name, region);
    g->parent = t->sp > 0 ? t->stack[t->sp - 1] : -1;
    return r;
}

/* A new instance of region r, its parent the innermost open instance. Its record is
 * written here, before the counters are read: a first write inside the region would be
 * a page fault counted in it. */
static int new_instance(struct hlr_thread *t, int r)
{
    if (t->ninst == t->instcap) {
        int cap = t->instcap ? t->instcap * 2 : 64;
        struct hlr_instance *n = realloc(t->inst, (size_t)cap * sizeof *n);
        if (!n)
            return papi_error(PAPI_ENOMEM, "no memory for an instance of region '%s'",
                              t->region[r].name);
        memset(n + t->instcap, 0, (size_t)(cap - t->instcap) * sizeof *n);
        t->inst = n;
        t->instcap = cap;
    }
    int i = t->ninst++;
    struct hlr_instance *in = &t->inst[i];
    memset(in, 0, sizeof *in);
    in->region = r;
    in->parent = t->sp > 0 ? t->region[t->stack[t->sp - 1]].instance : -1;
    return i;
}

static int region_begin_locked(struct hlr_thread *t, const char *region)
{
    int ret;
    int r = find_region(t, region);
    if (r >= 0 && t->region[r].depth > 0) {
        t->region[r].depth++; /* recursion: the outermost begin/end pair counts */
        return PAPI_OK;
    }
    if (t->sp >= HLR_MAX_DEPTH)
        return papi_error(PAPI_EINVAL, "PAPI_hl_region_begin: more than %d nested regions",
                          HLR_MAX_DEPTH);
    struct hlr_sample before;
    bool grows = t->sp > 0 && begin_grows(t, r);
    if (grows && (ret = sample(t, &before)) != PAPI_OK)
        return ret;
    if (r < 0 && (r = new_region(t, region)) < 0)
        return r;
    int i = new_instance(t, r);
    if (i < 0)
        return i;
    if (grows && (ret = exclude_from_open(t, &before)) != PAPI_OK) {
        t->ninst--;
        return ret;
    }
    struct hlr_region *g = &t->region[r];
    /* Bookkeeping first, counters last: nothing of ours runs inside the region. */
    g->instance = i;
    t->stack[t->sp++] = r;
    g->depth = 1;
    hla_region_begin(g);
    ret = sample(t, &g->begin);
    if (ret != PAPI_OK) {
        g->depth = 0;
        t->sp--;
        t->ninst--;
    }
    g->mark = g->begin;
    t->inst[i].begin_real = g->begin.real;
    hl_metrics_begin_times(t, g);
    return ret;
}

int PAPI_hl_region_begin(const char *region)
{
    struct hlr_thread *t = NULL;
    int ret = check_name("PAPI_hl_region_begin", region);
    if (ret == PAPI_OK)
        ret = thread_get(&t);
    if (ret != PAPI_OK)
        return ret;
    pthread_mutex_lock(&t->lock);
    ret = region_begin_locked(t, region);
    pthread_mutex_unlock(&t->lock);
    return ret;
}

/* Add the counts since the region's last sample to its per-name totals, and set its
 * open instance's value to the counts since the instance began. */
static void accumulate(struct hlr_thread *t, struct hlr_region *g, const struct hlr_sample *now)
{
    struct hlr_instance *in = &t->inst[g->instance];
    g->total.real += now->real - g->mark.real;
    g->total.cyc += now->cyc - g->mark.cyc;
    in->value.real = now->real - g->begin.real;
    in->value.cyc = now->cyc - g->begin.cyc;
    for (int i = 0; i < g_hlr.nevents; i++) {
        if (g_hlr.instant[i]) { /* =instant: the value now, in totals the last one */
            g->total.value[i] = in->value.value[i] = now->value[i];
            continue;
        }
        g->total.value[i] += now->value[i] - g->mark.value[i];
        in->value.value[i] = now->value[i] - g->begin.value[i];
    }
    hl_metrics_accumulate_times(t, g, in);
    g->mark = *now;
}

/* The region, open in this thread, with the thread's lock held on success. */
static int open_region(const char *caller, const char *region, struct hlr_thread **t, int *r)
{
    int ret = check_name(caller, region);
    if (ret != PAPI_OK)
        return ret;
    *t = me;
    if (!*t)
        return papi_error(PAPI_EINVAL, "%s: region '%s' was not begun in this thread", caller,
                          region);
    pthread_mutex_lock(&(*t)->lock);
    *r = find_region(*t, region);
    if (*r < 0 || (*t)->region[*r].depth == 0) {
        pthread_mutex_unlock(&(*t)->lock);
        return papi_error(PAPI_EINVAL, "%s: region '%s' was not begun in this thread", caller,
                          region);
    }
    return PAPI_OK;
}

/* PAPI 7 keeps the instance's value at each read beside its value (read_1 ... read_N);
 * the multiplexed times beside it give each read's metrics their running fraction. */
static int keep_read(struct hlr_instance *in, const char *name)
{
    if (in->nreads == in->readcap) {
        int cap = in->readcap ? in->readcap * 2 : 4;
        struct hlr_sample *n = realloc(in->reads, (size_t)cap * sizeof *n);
        if (n)
            in->reads = n;
        struct hlr_times *nt = n ? realloc(in->read_times, (size_t)cap * sizeof *nt) : NULL;
        if (!nt)
            return papi_error(PAPI_ENOMEM, "no memory for the reads of region '%s'", name);
        in->read_times = nt;
        in->readcap = cap;
    }
    in->read_times[in->nreads] = in->t_value;
    in->reads[in->nreads++] = in->value;
    return PAPI_OK;
}

int PAPI_hl_read(const char *region)
{
    struct hlr_thread *t;
    struct hlr_sample now;
    int r;
    int ret = open_region("PAPI_hl_read", region, &t, &r);
    if (ret != PAPI_OK)
        return ret;
    ret = sample(t, &now);
    if (ret == PAPI_OK) {
        struct hlr_region *g = &t->region[r];
        accumulate(t, g, &now);
        struct hlr_instance *in = &t->inst[g->instance];
        bool grows = in->nreads == in->readcap;
        ret = keep_read(in, g->name);
        if (ret == PAPI_OK && grows)
            ret = exclude_from_open(t, &now);
    }
    pthread_mutex_unlock(&t->lock);
    return ret;
}

int PAPI_hl_region_end(const char *region)
{
    struct hlr_thread *t;
    struct hlr_sample now;
    int r;
    int ret = open_region("PAPI_hl_region_end", region, &t, &r);
    if (ret != PAPI_OK)
        return ret;
    struct hlr_region *g = &t->region[r];
    if (g->depth > 1) {
        g->depth--;
        goto out;
    }
    ret = sample(t, &now); /* counters first */
    if (ret != PAPI_OK)
        goto out;
    accumulate(t, g, &now);
    hla_region_end(t, g);
    t->inst[g->instance].done = 1;
    g->count++;
    g->depth = 0;
    /* Pop it, wherever it is: an end out of order still closes that region. */
    for (int i = t->sp - 1; i >= 0; i--)
        if (t->stack[i] == r) {
            memmove(&t->stack[i], &t->stack[i + 1], (size_t)(t->sp - 1 - i) * sizeof(int));
            t->sp--;
            break;
        }
out:
    pthread_mutex_unlock(&t->lock);
    return ret;
}

int PAPI_hl_stop(void)
{
    struct hlr_thread *t = me;
    if (!t)
        return papi_error(PAPI_ENOTRUN, "PAPI_hl_stop: no region counters run in this thread");
    pthread_mutex_lock(&t->lock);
    int ret;
    if (own_set(t) == PAPI_NULL || !es_lookup(t->eventset)) {
        ret = papi_error(PAPI_ENOTRUN, "PAPI_hl_stop: no region counters run in this thread");
    } else if (t->sp > 0) {
        ret = papi_error(PAPI_EINVAL, "PAPI_hl_stop: region '%s' is still open",
                         t->region[t->stack[t->sp - 1]].name);
    } else {
        ret = PAPI_stop(t->eventset, NULL);
        PAPI_cleanup_eventset(t->eventset);
        PAPI_destroy_eventset(&t->eventset);
        t->eventset = PAPI_NULL;
    }
    pthread_mutex_unlock(&t->lock);
    return ret;
}
