/* hl_trace.c: PAPI_TRACE=json|otf2 records the region API's timeline: each region's begin
 * and end on its thread's track, and with PAPI_INTERVAL the sampler's counts as counter
 * tracks; where the project's OMPT tool ran, the OpenMP slices of the process (parallel
 * regions, implicit tasks, barriers, joins, task waits, explicit tasks: trace_openmp.h)
 * on their threads' tracks, asked of the tool at the write. The records stay in memory (trace_writer.c, bounded: past it they are dropped
 * and counted) and are written when the region report is, into papi_hl_trace/ beside
 * papi_hl_output/ (hl_regions_report.c). A bad value
 * or an OTF2 trace without libotf2 is one line on stderr; the report is written as ever.
 * Off (unset), each hook costs one atomic load. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env.h"
#include "hl_clock.h"
#include "hl_state.h"
#include "hl_trace.h"
#include "run_identity.h"
#include "gpu_activity.h"
#include "ompt_query.h"
#include "trace_gpu_tracks.h"
#include "trace_openmp.h"
#include "trace_writer.h"

static pthread_mutex_t trace_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int state; /* 0: PAPI_TRACE not read yet, 1: tracing, -1: off */
static struct trace_writer *tw;

/* Under trace_lock: whether to record, PAPI_TRACE read at the first call. */
static int tracing(void)
{
    int s = atomic_load_explicit(&state, memory_order_relaxed);
    if (s)
        return s > 0;
    const char *v = env_get("PAPI_TRACE");
    enum trace_format f;
    char why[256], host[256] = "";
    s = -1;
    if (!v || !*v)
        goto out;
    if (trace_format_parse(v, &f, why, sizeof why) != 0 ||
        (f == TRACE_OTF2 && !trace_otf2_available(why, sizeof why))) {
        fprintf(stderr, "PAPI: PAPI_TRACE: %s: no trace (the region report is still written)\n",
                why);
        goto out;
    }
    gethostname(host, sizeof host - 1);
    if ((tw = trace_open(f, 0, (long)getpid(), host, 0)))
        s = 1;
    else
        fprintf(stderr, "PAPI: PAPI_TRACE: out of memory: no trace\n");
out:
    atomic_store_explicit(&state, s, memory_order_relaxed);
    return s > 0;
}

void hl_trace_region(long tid, const char *name, int enter, long long ts_ns)
{
    if (atomic_load_explicit(&state, memory_order_relaxed) < 0)
        return;
    if (ts_ns < 0) /* "now": the clock read only when tracing may be on */
        ts_ns = hl_real_ns();
    pthread_mutex_lock(&trace_lock);
    if (tracing()) {
        int r = trace_define_region(tw, name);
        if (r >= 0)
            (enter ? trace_enter : trace_leave)(tw, (uint64_t)ts_ns, (uint32_t)tid, r);
    }
    pthread_mutex_unlock(&trace_lock);
}

void hl_trace_counters(int nthreads, const long *tid, const long long *v, int nevents)
{
    if (atomic_load_explicit(&state, memory_order_relaxed) < 0)
        return;
    long long now = hl_real_ns();
    pthread_mutex_lock(&trace_lock);
    if (tracing())
        for (int j = 0; j < nevents && j < g_hlr.nevents; j++) {
            int c = trace_define_counter(tw, g_hlr.name[j]);
            for (int k = 0; k < nthreads && c >= 0; k++)
                trace_counter(tw, (uint64_t)now, (uint32_t)tid[k], c, v[k * nevents + j]);
        }
    pthread_mutex_unlock(&trace_lock);
}

int hl_trace_on(void)
{
    return atomic_load_explicit(&state, memory_order_relaxed) > 0;
}

/* The GPU operations filed since the last write, as regions on GPU tracks
 * (trace_gpu_tracks.c). Taken under the layer's lock, added under trace_lock (a leaf:
 * never both). */
static void add_gpu_tracks(void)
{
    static struct trace_gpu_since since; /* what a first write took (a second: the rest) */
    struct trace_gpu_ops g = {0};
    int rc = gpu_activity_trace_ops(&g, &since);
    if (rc == 0) {
        pthread_mutex_lock(&trace_lock);
        rc = trace_gpu_ops_add(tw, &g);
        pthread_mutex_unlock(&trace_lock);
    }
    if (rc < 0)
        fprintf(stderr, "PAPI: PAPI_TRACE: no memory for the GPU tracks\n");
    if (g.dropped)
        fprintf(stderr, "PAPI: PAPI_TRACE: %llu GPU operations past the first %d not traced\n",
                (unsigned long long)g.dropped, GPU_TRACE_ITEMS);
    trace_gpu_ops_free(&g);
}

/* The OMPT tool's slices so far (none when it is not loaded or records none), in
 * CLOCK_MONOTONIC ns as the regions' times: asked anew at each write (a slice open at
 * one write has its end at the next), added for that write alone (under trace_lock). */
static int omp_tracks(struct trace_omp_spans *o)
{
    trace_omp_query_fn get = (trace_omp_query_fn)ompt_query_lookup("papi_ompt_query_spans", NULL);
    if (!get || get(TRACE_OMP_QUERY_VERSION, o) != 0)
        return 0;
    trace_omp_spans_to_mono(o);
    trace_omp_spans_order(o);
    return 1;
}

static void add_omp_tracks(const struct trace_omp_spans *o)
{
    if (trace_omp_spans_add(tw, o) != 0)
        fprintf(stderr, "PAPI: PAPI_TRACE: no memory for the OpenMP slices\n");
    trace_omp_say_dropped("PAPI: PAPI_TRACE", o);
}

void hl_trace_write(const char *dir, int rank, char *path, size_t pathlen)
{
    path[0] = '\0';
    if (!hl_trace_on())
        return;
    add_gpu_tracks(); /* where the run's GPU activity was kept for it */
    struct trace_omp_spans omp;
    int have_omp = omp_tracks(&omp); /* where the OMPT tool kept OpenMP slices */
    char base[64], why[512];
    static struct run_identity run; /* (4 KB: under trace_lock) */
    pthread_mutex_lock(&trace_lock);
    struct trace_mark before_omp = trace_mark_now(tw);
    if (have_omp)
        add_omp_tracks(&omp);
    struct trace_rank v;
    trace_view(tw, &v);
    v.rank = rank >= 0 ? rank : 0;
    snprintf(base, sizeof base, "trace_rank_%06d", rank >= 0 ? rank : (int)getpid());
    run_identity_self(&run, "", PAPI_compat_version());
    const struct trace_meta meta = {run.command, run.id, "papi-compat region API", 0};
    enum trace_format f = trace_writer_format(tw);
    if (trace_write(dir, base, f, &meta, &v, 1, why, sizeof why) != 0) {
        fprintf(stderr, "PAPI: PAPI_TRACE: %s\n", why);
        goto out;
    }
    snprintf(path, pathlen, "%s/%s%s", dir, base, f == TRACE_JSON ? ".json" : "/traces.otf2");
    if (v.dropped)
        fprintf(stderr, "PAPI: PAPI_TRACE: %llu records dropped (memory bound) in %s/%s\n",
                (unsigned long long)v.dropped, dir, base);
out:
    trace_rewind(tw, before_omp); /* the next write asks the tool anew */
    pthread_mutex_unlock(&trace_lock);
    if (have_omp)
        trace_omp_spans_free(&omp);
}
