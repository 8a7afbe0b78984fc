/* hl_regions.c: the 7.x region API, PAPI_hl_region_begin / PAPI_hl_read /
 * PAPI_hl_region_end / PAPI_hl_stop.
 *
 * Every thread that marks a region gets one event set per component of the process's
 * events, as PAPI 7 makes them (PAPI_EVENTS, comma-separated preset or native names of any
 * mix of components; without it a default list, and when none of the default hardware
 * events counts here, the software events perf::TASK-CLOCK and perf::PAGE-FAULTS, which
 * the report says). The sets run from the thread's first region on. Every begin/end pair is one instance with its own values
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
#include "eventset.h"
#include "hl_all_threads.h"
#include "hl_clock.h"
#include "hl_gpu.h"
#include "hl_init.h"
#include "hl_interval.h"
#include "hl_metrics_mpx.h"
#include "hl_notice.h"
#include "hl_regions_config.h"
#include "hl_regions_report.h"
#include "hl_state.h"
#include "hl_switches.h"
#include "hl_trace.h"
#include "region_sample.h"
#include "threads.h"

static atomic_int configured; /* 0, or 1 + the library generation g_hlr.code belongs to */
static _Thread_local struct hlr_thread *my_record;
#define me (*hl_record_slot(&my_record)) /* one per process under PAPI_HL_THREAD_MULTIPLE=0 */
static pthread_key_t exit_key;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

/* The number of the thread's event sets open, 0 when they belong to an earlier library
 * generation (PAPI_shutdown freed them; their handles may now name other sets). */
static int own_sets(struct hlr_thread *t)
{
    if (t->nopen && t->generation != atomic_load(&g_papi_generation))
        t->nopen = 0;
    return t->nopen;
}

/* Stop and free the first n sets of es[]; the last stop's status, but for the lost sets
 * (bit k of lost: their failure was said when it happened). */
static int close_sets(int *es, int n, unsigned lost)
{
    int ret = PAPI_OK;
    hla_sets_closed();
    for (int k = 0; k < n; k++) {
        int r = PAPI_stop(es[k], NULL);
        if (!(lost >> k & 1))
            ret = r;
        PAPI_cleanup_eventset(es[k]);
        PAPI_destroy_eventset(&es[k]);
    }
    return ret;
}

/* A thread that ends: close its counters (its regions stay for the report). */
static void thread_exit(void *arg)
{
    struct hlr_thread *t = arg;
    pthread_mutex_lock(&t->lock);
    const struct eventset *es = own_sets(t) ? es_lookup(t->eventset[0]) : NULL;
    if (es && es->owner_tid == papi_gettid())
        close_sets(t->eventset, t->nopen, t->lost);
    t->nopen = 0;
    rsample_thread_stop(t->sampler);
    pthread_mutex_unlock(&t->lock);
}

static void make_exit_key(void)
{
    thread_exit_key_create(&exit_key, thread_exit); /* deleted at unload */
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

/* The events chosen (hl_regions_config.c) and stored in g_hlr, the only place that
 * writes it; on failure nothing is stored: chosen again at the next call. Under
 * g_hlr_lock. */
static int configure(void)
{
    struct hlr_config *c = malloc(sizeof *c); /* tens of KB: not on a thread's stack */
    if (!c)
        return papi_error(PAPI_ENOMEM, "no memory to choose the region events");
    int ret = hlr_configure(c);
    if (ret == PAPI_OK) {
        g_hlr = *c;              /* g_hlr held nothing: configured once per process */
        hla_on_ready(hli_start); /* the PAPI_INTERVAL series, once the counters are up */
        atexit(at_exit_report);
    }
    free(c);
    return ret;
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
        ret = configure();
    } else if (state != (int)gen + 1) {
        ret = hlr_resolve_again(&g_hlr);
    }
    if (ret == PAPI_OK)
        atomic_store_explicit(&configured, (int)gen + 1, memory_order_release);
    pthread_mutex_unlock(&g_hlr_lock);
    return ret;
}

/* One set of g_hlr.set[k]'s events, started, into *out. */
static int start_one(int k, int *out)
{
    int es = PAPI_NULL;
    int ret = hl_region_eventset(&es, g_hlr.set[k].cidx);
    return hlr_set_start(&g_hlr, k, ret, es, out);
}

/* The thread's sets, one per component, all started or none. */
static int start_sets(struct hlr_thread *t)
{
    int es[HLR_MAX_SETS], ret = PAPI_OK, k;
    unsigned gen = atomic_load(&g_papi_generation);
    for (k = 0; ret == PAPI_OK && k < g_hlr.nsets; k++)
        ret = start_one(k, &es[k]);
    if (ret != PAPI_OK) {
        close_sets(es, k - 1, 0);
        if (ret == PAPI_EISRUN)
            return papi_error(PAPI_EINVAL,
                              "PAPI_hl_region_begin: another event set is already "
                              "counting in this thread on component %s; stop it "
                              "first",
                              g_hlr.component[g_hlr.set[k - 1].idx[0]]);
        return ret;
    }
    memcpy(t->eventset, es, sizeof(int) * (size_t)g_hlr.nsets);
    t->nopen = g_hlr.nsets;
    t->lost = 0; /* new sets: a component lost before is read again */
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
        t->nopen = 0;
        memset(t->one, 0, sizeof t->one); /* touched now: sample() writes it in regions */
        pthread_mutex_init(&t->lock, NULL);
        t->id = !hl_thread_multiple() ? (unsigned long)getpid() /* PAPI 7.0's id then */
                : (g_papi.init_state & PAPI_THREAD_LEVEL_INITED) ? PAPI_thread_id()
                                                                 : (unsigned long)papi_gettid();
        t->tid = !hl_thread_multiple() ? (long)getpid() : (long)papi_gettid();
        t->key = -1;
        pthread_mutex_lock(&g_hlr_lock);
        t->next = g_hlr_threads;
        g_hlr_threads = t;
        pthread_mutex_unlock(&g_hlr_lock);
        pthread_once(&exit_once, make_exit_key);
        pthread_setspecific(exit_key, t);
        me = t;
        t->sampler = rsample_thread_start(); /* PAPI_SAMPLE */
    }
    if (!own_sets(t) && g_hlr.nsets > 0) {
        ret = start_sets(t);
        if (ret != PAPI_OK)
            return ret;
    }
    *out = t;
    return PAPI_OK;
}

/* Set k of t failed to read (ret): lost, said once (stderr and the report's lost_events),
 * its events held at their last values (the set's last good counts) in s and from now
 * on. The other sets and later regions go on. Cold: once per set and thread at most. */
static __attribute__((noinline, cold)) void lose_set(struct hlr_thread *t, int k,
                                                     struct eventset *es, int ret,
                                                     struct hlr_sample *s)
{
    const struct hlr_set *set = &g_hlr.set[k];
    long long last[HLR_MAX_EVENTS];
    const char *detail = papi_last_error_detail();
    char *why = strdup(detail && *detail ? detail : PAPI_strerror(ret) ? PAPI_strerror(ret) : "?");
    es_compute_values(es, last); /* the counts of the last read that worked */
    for (int j = 0; j < set->n; j++)
        t->held[set->idx[j]] = s->value[set->idx[j]] = last[j];
    t->lost |= 1u << k;
    const char *region = t->sp > 0 ? t->region[t->stack[t->sp - 1]].name : NULL;
    struct hlr_lost *n = realloc(t->lost_sets, (size_t)(t->nlost + 1) * sizeof *n);
    if (n) {
        t->lost_sets = n;
        n[t->nlost++] = (struct hlr_lost){k, region ? strdup(region) : NULL, why};
    }
    char *msg = NULL;
    if (asprintf(&msg,
                 "the region events of component %s (%s%s) could not be read in thread %ld%s%s%s: "
                 "%s; they count no more in this thread, the other events go on",
                 g_hlr.component[set->idx[0]], g_hlr.name[set->idx[0]], set->n > 1 ? ", ..." : "",
                 t->tid, region ? " (region '" : "", region ? region : "", region ? "')" : "",
                 why ? why : "no memory to say why") < 0)
        msg = NULL;
    hl_notice(msg ? msg : "region events could not be read; they count no more in this thread");
    free(msg);
    if (!n)
        free(why);
}

/* The events of the lost set k: their held values. */
static __attribute__((noinline)) void held_values(const struct hlr_thread *t, int k,
                                                  struct hlr_sample *s)
{
    const struct hlr_set *set = &g_hlr.set[k];
    for (int j = 0; j < set->n; j++)
        s->value[set->idx[j]] = t->held[set->idx[j]];
}

static int sample(struct hlr_thread *t, struct hlr_sample *s)
{
    PAPI_CALL_GUARD(); /* a PAPI_shutdown in another thread waits, or this call fails */
    s->real = hl_real_ns();
    s->cyc = PAPI_get_real_cyc();
    if (!own_sets(t))
        return g_hlr.nevents == 0
                   ? PAPI_OK
                   : papi_error(PAPI_ENOTRUN,
                                "the region counters of this thread were closed "
                                "(PAPI_shutdown or PAPI_hl_stop); begin a region again");
    /* PAPI_read without its argument checks: each set is this thread's own, of this
     * library generation, with exactly its component's events (never more than the
     * sample holds). */
    for (int k = 0; k < t->nopen; k++) {
        const struct hlr_set *set = &g_hlr.set[k];
        if (__builtin_expect(t->lost >> k & 1, 0)) {
            held_values(t, k, s);
            continue;
        }
        struct eventset *es = es_lookup(t->eventset[k]);
        if (__builtin_expect(!es || !(es->state & PAPI_RUNNING) || es->nentries != set->n, 0))
            return papi_error(PAPI_ENOTRUN, "the region counters of this thread are not running");
        int ret = es_read_values(es, g_hlr.direct ? s->value : t->one);
        if (__builtin_expect(ret != PAPI_OK, 0)) {
            lose_set(t, k, es, ret, s);
            continue;
        }
        if (!g_hlr.direct)
            for (int j = 0; j < set->n; j++)
                s->value[set->idx[j]] = t->one[j];
        if (es->multiplexed)
            hl_metrics_sample_times(es, set, &t->t_cur);
    }
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
 * a page fault counted in it. The slots past ninst are kept zero (about 600 bytes each:
 * clearing one at every begin cost a sixth of the begin's own instructions). */
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
    struct hlr_instance *in = &t->inst[i]; /* zero: made so at growth, or by drop_instance */
    in->region = r;
    in->parent = t->sp > 0 ? t->region[t->stack[t->sp - 1]].instance : -1;
    return i;
}

/* The instance just made, given back (a failed begin): its slot zero again. */
static void drop_instance(struct hlr_thread *t)
{
    t->ninst--;
    memset(&t->inst[t->ninst], 0, sizeof t->inst[t->ninst]);
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
        drop_instance(t);
        return ret;
    }
    struct hlr_region *g = &t->region[r];
    /* Bookkeeping first, counters last: nothing of ours runs inside the region. */
    g->instance = i;
    t->stack[t->sp++] = r;
    g->depth = 1;
    rsample_set_region(t->sampler, r);
    hl_gpu_region_begin(g);                 /* its flush outside the counted region */
    hl_trace_region(t->tid, region, 1, -1); /* now: before the counters' start */
    hla_region_begin(t, g);
    ret = sample(t, &g->begin);
    if (ret != PAPI_OK) {
        hl_trace_region(t->tid, region, 0, -1);
        g->depth = 0;
        t->sp--;
        drop_instance(t);
        return ret;
    }
    g->mark = g->begin;
    hla_region_begun(t, g);
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
    hl_trace_region(t->tid, g->name, 0, now.real);
    hla_region_end(t, g);
    hl_gpu_region_end(g);
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
    rsample_set_region(t->sampler, t->sp > 0 ? t->stack[t->sp - 1] : -1);
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
    if (!own_sets(t) || !es_lookup(t->eventset[0])) {
        ret = papi_error(PAPI_ENOTRUN, "PAPI_hl_stop: no region counters run in this thread");
    } else if (t->sp > 0) {
        ret = papi_error(PAPI_EINVAL, "PAPI_hl_stop: region '%s' is still open",
                         t->region[t->stack[t->sp - 1]].name);
    } else {
        ret = close_sets(t->eventset, t->nopen, t->lost);
        t->nopen = 0;
    }
    pthread_mutex_unlock(&t->lock);
    return ret;
}
