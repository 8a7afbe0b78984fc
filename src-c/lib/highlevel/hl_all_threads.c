/* hl_all_threads.c: the counts of every thread of the process, for the region API's
 * all-thread totals. A region begun on the master thread around an OpenMP loop counts
 * the master alone in its own set; its all-thread value is the difference of two
 * snapshots of these process counters, taken at its begin and its end.
 *
 * The process counters: at the first snapshot, one event set per thread of the process
 * (/proc/self/task), attached to it with inherited counters (PAPI_attach, PAPI_INHERIT).
 * A thread created later by any of them counts into its creator's counters (the kernel
 * folds its counts in at its exit, and a read includes the live ones), so a pool that
 * existed before and threads created inside a region are both covered; an ended
 * thread's counters stay readable. Those are the CPU component's (0) events; the events of
 * every other component count the node or the process already (net, powercap, sde ...):
 * one set each, attached to the process (procio then reads the process's I/O, its threads
 * together), whose differences are the all-thread values. Reads take all_lock (two threads ending regions at
 * once read the same sets). By default only the main thread's regions take snapshots
 * (PAPI_HL_ALL_THREADS=1: every thread's, 0: none).
 *
 * A process that never created a thread (glibc's __libc_single_threaded) has one thread:
 * its process counter moves exactly as that thread's own region set, so once one region
 * measured both at its begin (the offset between them), a begin or end reads no process
 * counter: the value is the own sample plus that offset (two read() system calls fewer per
 * region, most of a region's cost without user access). Only for a region set of the CPU
 * component alone, not multiplexed, and the same set as when the offset was taken; the
 * first thread the process creates ends it for good (glibc never sets the flag back), and
 * a region begun before that and ended after takes a real snapshot at its end.
 *
 * A process whose threads all ended before its process counters were set up has one
 * thread as well (one row, the caller's; the ended threads' counts are not in the process
 * counters, which count from their set-up): the same holds as long as that thread creates
 * none, which the CPU component's clone watch tells with one load (component.h; the
 * perf_event component's fork records). So a thread created and joined before the first
 * region costs nothing after it; the first thread created after ends it for good. */
#include <dirent.h>
#include <stdio.h>
#if defined(__has_include)
#if __has_include(<sys/single_threaded.h>)
#include <sys/single_threaded.h>
#define HLA_SINGLE_THREADED() (__libc_single_threaded != 0)
#endif
#endif
#ifndef HLA_SINGLE_THREADED
#define HLA_SINGLE_THREADED() 0
#endif
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "call_guard.h"
#include "component_registry.h"
#include "env.h"
#include "eventset.h"
#include "hl_all_threads.h"
#include "hl_omp_share.h"
#include "hl_regions_config.h"
#include "json_writer.h"
#include "threads.h"

static pthread_mutex_t all_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    unsigned generation;      /* library generation the sets belong to */
    int ready;                /* 1: set up, -1: refused (the reason was recorded) */
    int n;                    /* rows: one per thread, or one (the process) without CPU events */
    int set[HLA_MAX_THREADS]; /* the CPU events' sets, per thread (PAPI_NULL: none) */
    long tid[HLA_MAX_THREADS];
    int cpu;                /* index of the CPU component's set in g_hlr.set, or -1 */
    int proc[HLR_MAX_SETS]; /* the other components' sets, as g_hlr.set (CPU: unused) */
} hla;

/* One thread alive at the set-up (the caller) in a process that had others: that stays
 * so while the clone watch's word keeps its value (only that thread can create one). */
static struct {
    const volatile uint64_t *watch; /* the clone watch's word, NULL: none */
    uint64_t start;                 /* its value before the threads were listed */
    atomic_int ok;                  /* 1: the caller was alone in the listing */
    unsigned forks;                 /* papi_fork_count() then: a forked child is not watched */
    unsigned generation;            /* of the library: PAPI_shutdown closes the watch */
} lone;

/* Whether the process has one thread: it never created another, or it is alone (above). */
static int alone(void)
{
    if (HLA_SINGLE_THREADED())
        return 1;
    return atomic_load_explicit(&lone.ok, memory_order_relaxed) &&
           lone.generation == atomic_load_explicit(&g_papi_generation, memory_order_relaxed) &&
           lone.forks == papi_fork_count() && *lone.watch == lone.start;
}

/* Before the threads are listed, so that a thread created during the listing is seen. */
static void watch_clones(void)
{
    atomic_store_explicit(&lone.ok, 0, memory_order_relaxed);
    lone.watch = NULL;
    const struct papi_component *c = HLA_SINGLE_THREADED() ? NULL : component_get(0);
    if (c && c->clone_watch && c->clone_watch(c, &lone.watch) == PAPI_OK) {
        lone.start = *lone.watch;
        lone.forks = papi_fork_count();
        lone.generation = hla.generation;
    } else {
        lone.watch = NULL;
    }
}

/* A set of g_hlr.set[k]'s events attached to tid (inherited: the CPU events), started. */
static int attach_set(int k, long tid, int inherit, int *out)
{
    const struct hlr_set *set = &g_hlr.set[k];
    int es = PAPI_NULL;
    PAPI_option_t opt = {0};
    int ret = PAPI_create_eventset(&es);
    if (ret == PAPI_OK)
        ret = PAPI_assign_eventset_component(es, set->cidx);
    if (ret == PAPI_OK)
        ret = PAPI_attach(es, (unsigned long)tid);
    opt.inherit.eventset = es;
    opt.inherit.inherit = PAPI_INHERIT_ALL;
    if (ret == PAPI_OK && inherit)
        ret = PAPI_set_opt(PAPI_INHERIT, &opt);
    return hlr_set_start(&g_hlr, k, ret, es, out);
}

/* The sets of the other components, attached to the process; on failure none stays. */
static int set_up_process(void)
{
    int ret = PAPI_OK, k;
    for (k = 0; ret == PAPI_OK && k < g_hlr.nsets; k++)
        if (k != hla.cpu)
            ret = attach_set(k, getpid(), 0, &hla.proc[k]);
    if (ret != PAPI_OK)
        for (int j = 0; j < k - 1; j++)
            if (j != hla.cpu) {
                PAPI_stop(hla.proc[j], NULL);
                PAPI_cleanup_eventset(hla.proc[j]);
                PAPI_destroy_eventset(&hla.proc[j]);
            }
    return ret;
}

/* A thread that ended between the listing and its attach is skipped (ESRCH). */
static int set_up_threads(void)
{
    watch_clones();
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return papi_error(PAPI_ESYS, "all-thread totals: cannot list /proc/self/task");
    int ret = PAPI_OK;
    struct dirent *e;
    while ((e = readdir(d)) && hla.n < HLA_MAX_THREADS) {
        long tid = strtol(e->d_name, NULL, 10);
        if (tid <= 0)
            continue;
        int es, r = attach_set(hla.cpu, tid, 1, &es);
        if (r == PAPI_OK) {
            hla.tid[hla.n] = tid;
            hla.set[hla.n++] = es;
        } else if (ret == PAPI_OK)
            ret = r;
    }
    closedir(d);
    if (lone.watch && hla.n == 1 && hla.tid[0] == papi_gettid() && ret == PAPI_OK)
        atomic_store_explicit(&lone.ok, 1, memory_order_relaxed);
    return hla.n > 0 ? PAPI_OK : ret;
}

static int set_up(void)
{
    hla.cpu = -1;
    for (int k = 0; k < g_hlr.nsets; k++)
        if (g_hlr.set[k].cidx == 0)
            hla.cpu = k;
    int ret = hla.cpu >= 0 ? set_up_threads() : PAPI_OK;
    if (hla.cpu < 0) { /* no CPU event: one row, the process */
        hla.n = 1;
        hla.set[0] = PAPI_NULL;
        hla.tid[0] = getpid();
    }
    if (ret == PAPI_OK && (ret = set_up_process()) != PAPI_OK)
        for (int k = 0; k < hla.n; k++)
            if (hla.set[k] != PAPI_NULL) {
                PAPI_stop(hla.set[k], NULL);
                PAPI_cleanup_eventset(hla.set[k]);
                PAPI_destroy_eventset(&hla.set[k]);
            }
    if (ret != PAPI_OK)
        hla.n = 0;
    return ret;
}

/* One running set of g_hlr.set[k]'s events read into one[]. */
static int read_one(int handle, int k, long long *one)
{
    struct eventset *es = es_lookup(handle);
    if (!es || !(es->state & PAPI_RUNNING) || es->nentries != g_hlr.set[k].n)
        return papi_error(PAPI_ENOTRUN, "all-thread totals: a process counter is gone");
    return es_read_values(es, one);
}

/* Each row's counts into v[k * nevents + i] (v NULL: only sum), their sum into sum. The
 * CPU events per thread; the other components' (the node's or the process's) in row 0. */
static int read_sets(long long *v, long long *sum)
{
    long long one[HLR_MAX_EVENTS];
    const int ne = g_hlr.nevents;
    memset(sum, 0, sizeof(long long) * (size_t)ne);
    if (v)
        memset(v, 0, sizeof(long long) * (size_t)hla.n * (size_t)ne);
    for (int k = 0; hla.cpu >= 0 && k < hla.n; k++) {
        const struct hlr_set *set = &g_hlr.set[hla.cpu];
        int ret = read_one(hla.set[k], hla.cpu, one);
        if (ret != PAPI_OK)
            return ret;
        for (int j = 0; j < set->n; j++) {
            sum[set->idx[j]] += one[j];
            if (v)
                v[k * ne + set->idx[j]] = one[j];
        }
    }
    for (int s = 0; s < g_hlr.nsets; s++) {
        if (s == hla.cpu)
            continue;
        int ret = read_one(hla.proc[s], s, one);
        if (ret != PAPI_OK)
            return ret;
        for (int j = 0; j < g_hlr.set[s].n; j++) {
            sum[g_hlr.set[s].idx[j]] = one[j];
            if (v)
                v[g_hlr.set[s].idx[j]] = one[j];
        }
    }
    return PAPI_OK;
}

static int sum_sets(long long *sum)
{
    return read_sets(NULL, sum);
}

int hla_read_each(unsigned generation, long long *v, int *n, long *tid)
{
    long long sum[HLR_MAX_EVENTS];
    int ret = PAPI_ENOTRUN;
    pthread_mutex_lock(&all_lock);
    if (hla.ready == 1 && hla.generation == generation &&
        generation == atomic_load(&g_papi_generation)) {
        ret = read_sets(v, sum);
        *n = hla.n;
        memcpy(tid, hla.tid, sizeof(long) * (size_t)hla.n);
    }
    pthread_mutex_unlock(&all_lock);
    return ret;
}

/* PAPI_HL_ALL_THREADS: 0 none, 1 regions of every thread, else (default) regions of
 * the main thread only (the OpenMP master, where a region spans the others' work; a
 * snapshot reads one set per thread, a cost the workers' own regions are spared), there
 * with the OpenMP workers' share from the OMPT tool where it stands for the other threads
 * (hl_omp_share.h); "exact": the main thread's, always from the process counters. */
enum { ALL_NONE, ALL_EVERY, ALL_MAIN, ALL_MAIN_EXACT };
static atomic_int policy_cached; /* 0: not read yet, else 1 + the policy */

static __attribute__((noinline, cold)) int policy_read(void)
{
    const char *v = env_get("PAPI_HL_ALL_THREADS");
    int p = 1 + (!v || !*v                 ? ALL_MAIN
                 : strcmp(v, "0") == 0     ? ALL_NONE
                 : strcmp(v, "1") == 0     ? ALL_EVERY
                 : strcmp(v, "exact") == 0 ? ALL_MAIN_EXACT
                                           : ALL_MAIN);
    atomic_store_explicit(&policy_cached, p, memory_order_relaxed);
    return p - 1;
}

/* Inline: every region begin asks (the environment read once, out of line). */
static inline int policy(void)
{
    int p = atomic_load_explicit(&policy_cached, memory_order_relaxed);
    return p ? p - 1 : policy_read();
}

/* The process id, asked of the kernel once per fork (glibc's getpid is a system call:
 * one at every region begin cost more than the rest of the test). */
static pid_t process_id(void)
{
    static atomic_uint seen; /* 1 + the fork count the id belongs to, 0: none yet */
    static atomic_int pid;
    unsigned f = papi_fork_count() + 1;
    if (atomic_load_explicit(&seen, memory_order_acquire) != f) {
        atomic_store_explicit(&pid, (int)getpid(), memory_order_relaxed);
        atomic_store_explicit(&seen, f, memory_order_release);
    }
    return (pid_t)atomic_load_explicit(&pid, memory_order_relaxed);
}

static int wanted(int p)
{
    return p == ALL_EVERY ||
           ((p == ALL_MAIN || p == ALL_MAIN_EXACT) && papi_gettid() == process_id());
}

static void (*_Atomic ready_hook)(unsigned generation, int nrows);

void hla_on_ready(void (*hook)(unsigned generation, int nrows))
{
    atomic_store(&ready_hook, hook);
}

int hla_snapshot(long long *sum)
{
    PAPI_CALL_GUARD();
    if (g_hlr.nevents == 0)
        return PAPI_ENOSUPP;
    pthread_mutex_lock(&all_lock);
    unsigned gen = atomic_load(&g_papi_generation);
    if (hla.ready != 0 && hla.generation != gen) /* PAPI_shutdown freed the sets */
        hla.ready = hla.n = 0;
    int ret = PAPI_ENOSUPP, ready_now = 0, rows = 0;
    if (hla.ready == 0) {
        hla.generation = gen;
        hla.ready = set_up() == PAPI_OK ? 1 : -1;
        ready_now = hla.ready == 1;
        rows = hla.n;
    }
    if (hla.ready == 1)
        ret = sum_sets(sum);
    pthread_mutex_unlock(&all_lock);
    /* After all_lock: the PAPI_INTERVAL sampler takes its lock, then all_lock. */
    void (*hook)(unsigned, int) = atomic_load(&ready_hook);
    if (ready_now && hook)
        hook(gen, rows);
    return ret;
}

/* The offset of the process counter over the calling thread's own region set, valid
 * while the process has one thread (above). Only that thread reads or writes it. */
static struct {
    atomic_int valid;    /* cleared by any thread whose region sets close */
    int set;             /* the own set it was taken against */
    unsigned generation; /* of the library */
    unsigned forks;      /* papi_fork_count() then: a forked child takes it again */
    long long off[HLR_MAX_EVENTS];
} single;

/* Whether t's counts plus the offset are the process counter's now. */
static int single_ok(const struct hlr_thread *t)
{
    if (!alone() || g_hlr.nsets != 1 || g_hlr.set[0].cidx != 0 || t->nopen != 1)
        return 0;
    const struct eventset *es = es_lookup(t->eventset[0]);
    return es && !es->multiplexed && atomic_load_explicit(&single.valid, memory_order_relaxed) &&
           single.set == t->eventset[0] && single.generation == t->generation &&
           single.forks == papi_fork_count() && hla.ready == 1 && hla.generation == t->generation;
}

void hla_sets_closed(void)
{
    /* a set made later may get the same handle, its counts from 0 */
    atomic_store_explicit(&single.valid, 0, memory_order_relaxed);
}

void hla_region_begin(struct hlr_thread *t, struct hlr_region *g)
{
    int p = policy();
    if (!wanted(p)) {
        g->all_ok = 0;
        return;
    }
    if (single_ok(t)) {
        g->all_ok = 2; /* all_begin from the own begin sample: hla_region_begun */
        return;
    }
    /* The workers' share (O(1)): all_begin holds its sums now; the value at the end is
     * their growth plus the own set's. */
    if (p == ALL_MAIN && hlo_share_read(t, g->all_begin, &g->omp_missed)) {
        g->all_ok = 3;
        return;
    }
    g->all_ok = hla_snapshot(g->all_begin) == PAPI_OK;
}

void hla_region_begun(struct hlr_thread *t, struct hlr_region *g)
{
    if (g->all_ok == 2) {
        for (int i = 0; i < g_hlr.nevents; i++)
            g->all_begin[i] = g->begin.value[i] + single.off[i];
        g->all_ok = 1;
        return;
    }
    /* A real snapshot just before the own sample, one thread: the offset, from now on. */
    if (g->all_ok == 1 && alone() && g_hlr.nsets == 1 && g_hlr.set[0].cidx == 0 && t->nopen == 1 &&
        !atomic_load_explicit(&single.valid, memory_order_relaxed)) {
        for (int i = 0; i < g_hlr.nevents; i++)
            single.off[i] = g->all_begin[i] - g->begin.value[i];
        single.set = t->eventset[0];
        single.generation = t->generation;
        single.forks = papi_fork_count();
        atomic_store_explicit(&single.valid, 1, memory_order_relaxed);
    }
}

void hla_region_end(struct hlr_thread *t, struct hlr_region *g)
{
    struct hlr_instance *in = &t->inst[g->instance];
    long long now[HLR_MAX_EVENTS];
    unsigned long long missed;
    if (g->all_ok == 1 && single_ok(t)) { /* the own end sample (g->mark) plus the offset */
        for (int i = 0; i < g_hlr.nevents; i++)
            now[i] = g->mark.value[i] + single.off[i];
        in->all_ok = 1;
    } else if (g->all_ok == 3) { /* the own set's end plus the share now, none of it missed */
        in->all_ok = hlo_share_read(t, now, &missed) && missed == g->omp_missed;
        for (int i = 0; in->all_ok && i < g_hlr.nevents; i++)
            now[i] += g->mark.value[i] - g->begin.value[i];
    } else {
        in->all_ok = g->all_ok && hla_snapshot(now) == PAPI_OK;
    }
    if (!in->all_ok)
        return;
    for (int i = 0; i < g_hlr.nevents; i++) {
        if (g_hlr.instant[i]) { /* =instant: the reading at the end, not a sum */
            g->all_total[i] = in->all_value[i] = in->value.value[i];
            continue;
        }
        in->all_value[i] = now[i] - g->all_begin[i];
        g->all_total[i] += in->all_value[i];
    }
    g->all_count++;
}

static void write_values(struct jw *w, const char *key, const long long *v)
{
    jw_obj_begin(w, key);
    for (int i = 0; i < g_hlr.nevents; i++)
        jw_int(w, g_hlr.name[i], v[i]);
    jw_obj_end(w);
}

void hla_write_thread(struct jw *w, struct hlr_thread *t)
{
    char key[32];
    snprintf(key, sizeof key, "%d", t->key);
    jw_obj_begin(w, key);
    jw_obj_begin(w, "instances");
    for (int i = 0; i < t->ninst; i++) {
        if (!t->inst[i].all_ok)
            continue;
        snprintf(key, sizeof key, "%d", i);
        write_values(w, key, t->inst[i].all_value);
    }
    jw_obj_end(w);
    jw_obj_begin(w, "regions");
    for (int r = 0; r < t->nregions; r++)
        if (t->region[r].all_count > 0)
            write_values(w, t->region[r].name, t->region[r].all_total);
    jw_obj_end(w);
    jw_obj_end(w);
}
