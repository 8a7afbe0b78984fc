/* hl_trace.c: PAPI_TRACE=json|otf2 records the region API's timeline: each region's begin
 * and end on its thread's track, and with PAPI_INTERVAL the sampler's counts as counter
 * tracks. The records stay in memory (trace_writer.c, bounded: past it they are dropped
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

/* A GPU operation on its track (a device's stream); name: a kernel's row, or a name of
 * GPU_OP_NAMES for a copy (by kind) or a memset. */
struct gpu_op {
    uint32_t label;
    uint64_t start, end;
    int32_t name;
};
#define GPU_OP_COPY   (-1 - CUPTI_MEMCPY_KINDS) /* - copy kind - 1 .. */
#define GPU_OP_MEMSET (-2 - CUPTI_MEMCPY_KINDS)

static int by_track(const void *a, const void *b)
{
    const struct gpu_op *x = a, *y = b;
    if (x->label != y->label)
        return x->label < y->label ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->end > y->end) - (x->end < y->end); /* ties: the shorter first, as filed */
}

/* The GPU operations filed since the last write, as regions on GPU tracks, in time order
 * per track (an operation starting before the one before it on its stream ends is cut
 * there: a stream runs one at a time). Copied under the layer's lock, added under
 * trace_lock (a leaf: never both). */
static void add_gpu_tracks(void)
{
    static int added; /* the log's operations already in the trace (a second write) */
    gpu_activity_flush();
    const struct gpu_table *t = gpu_activity_lock();
    const struct gpu_tracelog *l = gpu_activity_tracelog();
    int n = t && l ? l->n - added : 0, nk = t ? t->nkernels : 0;
    struct gpu_op *op = n > 0 ? malloc((size_t)n * sizeof *op) : NULL;
    char(*names)[GPU_KERNEL_NAME_LEN] = op && nk ? malloc((size_t)nk * sizeof *names) : NULL;
    uint64_t dropped = l ? l->dropped : 0;
    for (int i = 0; op && i < n; i++) {
        const struct gpu_trace_item *it = &l->item[added + i];
        op[i] = (struct gpu_op){TRACE_GPU_TRACK(it->device, it->stream), it->start, it->end,
                                it->type == GPU_TRACE_KERNEL ? it->row
                                : it->type == GPU_TRACE_COPY ? -1 - (int32_t)it->copy_kind
                                                             : GPU_OP_MEMSET};
    }
    for (int i = 0; names && i < nk; i++)
        memcpy(names[i], t->kernels[i].name, sizeof names[i]);
    gpu_activity_unlock();
    if (!op || (nk && !names)) {
        if (n > 0)
            fprintf(stderr, "PAPI: PAPI_TRACE: no memory for the GPU tracks\n");
        free(op);
        free(names);
        return;
    }
    added += n;
    qsort(op, (size_t)n, sizeof *op, by_track);
    pthread_mutex_lock(&trace_lock);
    for (int i = 0; i < n; i++) {
        char copy[32];
        const char *name = op[i].name >= 0 && op[i].name < nk ? names[op[i].name] : copy;
        if (op[i].name == GPU_OP_MEMSET)
            snprintf(copy, sizeof copy, "memset");
        else if (op[i].name < 0)
            snprintf(copy, sizeof copy, "memcpy %s",
                     gpu_copy_direction((unsigned)(-1 - op[i].name)));
        if (i > 0 && op[i - 1].label == op[i].label && op[i].start < op[i - 1].end)
            op[i].start = op[i - 1].end < op[i].end ? op[i - 1].end : op[i].end;
        int r = trace_define_region(tw, name);
        if (r >= 0) {
            trace_enter(tw, op[i].start, op[i].label, r);
            trace_leave(tw, op[i].end, op[i].label, r);
        }
    }
    pthread_mutex_unlock(&trace_lock);
    if (dropped)
        fprintf(stderr, "PAPI: PAPI_TRACE: %llu GPU operations past the first %d not traced\n",
                (unsigned long long)dropped, GPU_TRACE_ITEMS);
    free(op);
    free(names);
}

void hl_trace_write(const char *dir, int rank, char *path, size_t pathlen)
{
    path[0] = '\0';
    if (!hl_trace_on())
        return;
    if (gpu_activity_tracelog()) /* the GPU tracks of a run whose GPU activity ran */
        add_gpu_tracks();
    char base[64], why[512];
    static struct run_identity run; /* (4 KB: under trace_lock) */
    pthread_mutex_lock(&trace_lock);
    struct trace_rank v;
    trace_view(tw, &v);
    v.rank = rank >= 0 ? rank : 0;
    snprintf(base, sizeof base, "trace_rank_%06d", rank >= 0 ? rank : (int)getpid());
    run_identity_self(&run, "", PAPI_compat_version());
    const struct trace_meta meta = {run.command, run.id, "papi-compat region API", 0};
    enum trace_format f = trace_writer_format(tw);
    if (trace_write(dir, base, f, &meta, &v, 1, why, sizeof why) != 0) {
        fprintf(stderr, "PAPI: PAPI_TRACE: %s\n", why);
        pthread_mutex_unlock(&trace_lock);
        return;
    }
    snprintf(path, pathlen, "%s/%s%s", dir, base, f == TRACE_JSON ? ".json" : "/traces.otf2");
    if (v.dropped)
        fprintf(stderr, "PAPI: PAPI_TRACE: %llu records dropped (memory bound) in %s/%s\n",
                (unsigned long long)v.dropped, dir, base);
    pthread_mutex_unlock(&trace_lock);
}
