/* hl_omp_share.c: whether the OMPT tool's workers' share can stand for the other
 * threads' counts, and its sums (hl_omp_share.h). Once a worker's span could not be added
 * (a thread that cannot count), the share is used no more: the instance open then has no
 * all-thread value, later ones take the exact path. Every check but the first is a few
 * loads: the tool is looked up once (again only after a thread was created: the runtime
 * loads it when it starts its threads), the events compared once, and the threads counted
 * (/proc/self/status) only when the tool's thread count or the CPU component's clone
 * watch (a clone of the main thread) moved since the last count.
 *
 * What it cannot see: a thread that an OpenMP worker creates outside OpenMP (neither the
 * tool nor the main thread's clone watch sees it): its counts are left out of the totals.
 * PAPI_HL_ALL_THREADS=exact keeps the process counters' exact path (hl_all_threads.c). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "component_registry.h"
#include "eventset.h"
#include "hl_omp_share.h"
#include "ompt_query.h"

static struct {
    unsigned generation;             /* 1 + the library's: a shutdown starts again */
    unsigned forks;                  /* papi_fork_count() then: a forked child too */
    int looked, match;               /* the tool looked up; its events are the region's */
    struct papi_ompt_share *s;       /* the tool's share, NULL: none */
    const volatile uint64_t *watch;  /* the main thread's clone watch, NULL: none */
    uint64_t watch_seen;             /* its word at the last look or count */
    unsigned long long begun, ended; /* the tool's thread counts at the last count */
    int threads_ok;                  /* then: every other thread was an OpenMP one */
} so;

static int events_match(const struct papi_ompt_share *s)
{
    if (!s || s->nevents != g_hlr.nevents || g_hlr.nsets != 1 || g_hlr.set[0].cidx != 0)
        return 0;
    for (int i = 0; i < g_hlr.nevents; i++)
        if (g_hlr.instant[i] || !s->names[i] || strcmp(s->names[i], g_hlr.name[i]) != 0)
            return 0;
    return 1;
}

/* The tool, looked up again only after a clone (the runtime starts its threads). */
static void look_up(void)
{
    unsigned gen = atomic_load_explicit(&g_papi_generation, memory_order_relaxed) + 1;
    if (so.generation != gen || so.forks != papi_fork_count()) {
        memset(&so, 0, sizeof so);
        so.generation = gen;
        so.forks = papi_fork_count();
        const struct papi_component *c = component_get(0);
        if (!c || !c->clone_watch || c->clone_watch(c, &so.watch) != PAPI_OK)
            so.watch = NULL;
    }
    if (!so.watch || (so.looked && (so.s || *so.watch == so.watch_seen)))
        return;
    so.looked = 1;
    so.watch_seen = *so.watch;
    papi_ompt_query_share_fn get =
        (papi_ompt_query_share_fn)ompt_query_lookup("papi_ompt_query_share", NULL);
    so.s = get ? get(PAPI_OMPT_QUERY_VERSION) : NULL;
    so.match = events_match(so.s);
    so.begun = so.ended = ~0ULL; /* count at the first use */
}

static long process_threads(void)
{
    char line[128];
    long n = -1;
    FILE *f = fopen("/proc/self/status", "re");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "Threads:", 8) == 0)
            n = strtol(line + 8, NULL, 10);
    if (f)
        fclose(f);
    return n;
}

/* Every thread but the caller is an OpenMP thread the tool knows (counted again only
 * when a thread was created or the tool's count moved). */
static int only_openmp_threads(void)
{
    unsigned long long b = atomic_load_explicit(&so.s->threads_begun, memory_order_relaxed);
    unsigned long long e = atomic_load_explicit(&so.s->threads_ended, memory_order_relaxed);
    uint64_t w = *so.watch;
    if (b != so.begun || e != so.ended || w != so.watch_seen) {
        long n = process_threads();
        so.begun = b, so.ended = e, so.watch_seen = w;
        so.threads_ok = n > 0 && (unsigned long long)n == 1 + b - e;
    }
    return so.threads_ok;
}

int hlo_share_read(const struct hlr_thread *t, long long *sum, unsigned long long *missed)
{
    look_up();
    if (!so.s || !so.match || t->nopen != 1)
        return 0;
    const struct eventset *es = es_lookup(t->eventset[0]);
    if (!es || es->multiplexed ||
        atomic_load_explicit(&so.s->teams_open, memory_order_relaxed) != 0 ||
        !only_openmp_threads())
        return 0;
    *missed = atomic_load_explicit(&so.s->missed, memory_order_relaxed);
    if (*missed != 0)
        return 0; /* a worker could not count: the process counters from now on */
    for (int i = 0; i < g_hlr.nevents; i++)
        sum[i] = (long long)atomic_load_explicit(&so.s->sums[i], memory_order_relaxed);
    return 1;
}
