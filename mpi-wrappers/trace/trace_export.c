/* trace_export.c: the job's timeline from the event logs (trace_export.h).
 *
 * Each rank turns its log into trace records on rank 0's clock (the same conversion as
 * the wait states: ticks to CLOCK_MONOTONIC ns, minus the offset to rank 0 interpolated
 * between MPI_Init and MPI_Finalize): every MPI call a region named after it, entered at
 * its start and left at its end (a Test form's consecutive polls, folded in the log, one
 * region with their number of calls); a send's record at the send's start; a receive's at its
 * completion (a blocking one's end, an Irecv's at the end of the Wait/Test that
 * completed it); a collective a begin/end pair (on communicator 1 when not world-congruent); the
 * MPI_Pcontrol regions as regions; the rank's GPU operations (kernels, copies, memsets:
 * trace_gpu_tracks.h) as regions on a track per device and stream; where the project's
 * OMPT tool ran, the OpenMP slices (parallel regions, implicit tasks, barriers, joins,
 * task waits, explicit tasks: trace_openmp.h) on their threads' tracks, beside the MPI
 * calls of the same thread: their ticks are the calls' clock (mono_clock.h's
 * tick_clock), moved onto rank 0's clock by the same conversion, so a call made inside an
 * implicit task lies inside its slice. Communicator numbers: 0 for those congruent with
 * MPI_COMM_WORLD, 1 for every other (the log keeps no more; peers are world ranks).
 * Each record is on the track of the thread that made it (the log keeps its slot; the
 * track is labelled with the thread's OS id): MPI_THREAD_MULTIPLE programs get a track
 * per rank and thread. PAPI_INTERVAL's samples add each event's count since MPI_Init and
 * each named metric (PAPI_MPI_METRICS) of the interval's counts as counter records.
 *
 * Every rank writes its own part, at most TRACE_RANK_MAX_RECORDS (past it its timeline is
 * cut where no collective is open, its open regions closed there, and the rest counted
 * as dropped, with the log's own drops, in one line): OTF2 its locations in the job's
 * archive (trace_otf2_job.c), JSON its own file and rank 0 an index
 * (trace_json_ranks.c). No rank receives another's records. */
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "count_series.h"
#include "clock.h"
#include "counters.h"
#include "env.h"
#include "event_log.h"
#include "finalize_agreement.h"
#include "idle_wait.h"
#include "rank_series.h"
#include "record.h"
#include "region_state.h"
#include "request_link.h"
#include "run_events.h"
#include "pmpi_identity.h"
#include "papi_gpu_activity.h"
#include "state.h"
#include "trace_export.h"
#include "ompt_query.h"
#include "trace_gpu_tracks.h"
#include "trace_openmp.h"
#include "trace_json_ranks.h"
#include "trace_otf2_job.h"
#include "trace_writer.h"
#include "wait_states.h"

#define TRACE_BASE             "papi_mpi_trace"
#define TRACE_RANK_MAX_RECORDS (4LL * 1024 * 1024) /* each rank's, 48 bytes each: 192 MiB */
#define COMM_WORLD             0u
#define COMM_OTHER             1u

/* One rank's conversion. */
struct conv {
    const struct pmpi_event_log *log; /* the rank's event log, its waits computed */
    struct trace_record *rec;
    size_t n, cap;
    int failed;
    double npt, off0, off1, span;
    uint32_t thread;
    int call_region[PMPI_NCALLS]; /* -1, or the region id of that call */
    const char *names[PMPI_MAX_REGIONS + PMPI_NCALLS + TRACE_GPU_MAX_NAMES + TRACE_OMP_MAX_NAMES];
    int nnames, ncounters; /* counter i: pmpi_ev()->event_names[i], then the metrics' */
    int nevents;           /* counters that are events; the interval metrics follow them */
    int nim, nrm;          /* interval metrics; region metrics (region x metric) after them */
    uint32_t label[PMPI_MAX_THREADS + 1]; /* a thread slot's track */
    long long end_tick;                   /* where regions still open are closed */
    struct trace_gpu_ops gpu;             /* the GPU tracks' operations (names[] uses them) */
    uint64_t gpu_dropped;                 /* their records not kept (past the layer's log) */
    struct trace_omp_spans omp;           /* the OpenMP slices (names[] uses their names) */
    uint64_t omp_dropped;                 /* their records not kept (past a thread's log) */
};

/* CLOCK_MONOTONIC ns of this rank on rank 0's clock (wait_states.c's conversion). */
static uint64_t gtime_ns(const struct conv *c, double local)
{
    double f = c->span > 0 ? (local - (double)pmpi_id()->t_init) / c->span : 0;
    double g = local - (c->off0 + (c->off1 - c->off0) * (f < 0 ? 0 : f > 1 ? 1 : f));
    return g > 0 ? (uint64_t)g : 0;
}

/* Log tick x on rank 0's clock (ns). */
static uint64_t gtime(const struct conv *c, long long x)
{
    return gtime_ns(c, (double)pmpi_id()->t_init + (double)(x - pmpi_id()->tick_init) * c->npt);
}

/* The track of a log record's thread slot. */
static uint32_t track(const struct conv *c, uint32_t slot)
{
    return c->label[slot <= PMPI_MAX_THREADS ? slot : 0];
}

static struct trace_record *add(struct conv *c, long long tick, int kind)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 1024;
        struct trace_record *r = realloc(c->rec, cap * sizeof *r);
        if (!r) {
            c->failed = 1;
            return NULL;
        }
        c->rec = r;
        c->cap = cap;
    }
    struct trace_record *r = &c->rec[c->n++];
    memset(r, 0, sizeof *r);
    r->ts = gtime(c, tick);
    r->thread = c->thread; /* the rank's first thread; a call's record sets its own */
    r->kind = (uint8_t)kind;
    r->peer = -1;
    return r;
}

/* add() on the track of log record e's thread. */
static struct trace_record *add_on(struct conv *c, long long tick, int kind,
                                   const struct pmpi_event *e)
{
    struct trace_record *r = add(c, tick, kind);
    if (r)
        r->thread = track(c, e->thread);
    return r;
}

static int call_region(struct conv *c, int call)
{
    if (call < 0 || call >= PMPI_NCALLS)
        return -1;
    if (c->call_region[call] < 0) {
        c->call_region[call] = c->nnames;
        c->names[c->nnames++] = pmpi_calls[call].name;
    }
    return c->call_region[call];
}

/* The collective of a call ("MPI_Iallreduce" is MPI_Allreduce's), or -1. */
static int collop_of(const char *name)
{
    const char *b = name + 4; /* after "MPI_" */
    if (b[0] == 'I' && b[1] >= 'a' && b[1] <= 'z')
        b++;
    for (unsigned op = 0; op < TC_COUNT; op++)
        if (strcasecmp(b, trace_collop_name(op) + 4) == 0)
            return (int)op;
    return -1;
}

static void add_p2p(struct conv *c, long long tick, int kind, const struct pmpi_event *e)
{
    if (e->peer < 0 || e->tag < 0)
        return; /* MPI_PROC_NULL, or a partner the log could not learn */
    struct trace_record *r = add_on(c, tick, kind, e);
    if (!r)
        return;
    r->peer = e->peer;
    r->tag = e->tag;
    r->comm = (e->flags & PMPI_EVF_WORLD) ? COMM_WORLD : COMM_OTHER;
    r->bytes = e->bytes > 0 ? (uint64_t)e->bytes : 0;
}

/* Records i .. j-1: one call (a Sendrecv is two records, a Waitall one per request). */
static void add_call(struct conv *c, const int64_t *link, long long i, long long j)
{
    const struct pmpi_event *e0 = &c->log->ev[i];
    int region = call_region(c, e0->call);
    int op = e0->kind == PMPI_EV_COLL ? collop_of(pmpi_calls[e0->call].name) : -1;
    struct trace_record *r = add_on(c, e0->t0, TR_ENTER, e0);
    if (!r)
        return;
    r->id = (uint32_t)region;
    if (e0->flags & PMPI_EVF_POLL)
        r->value = e0->calls; /* polls folded into one slice (event_log.h) */
    if (op >= 0)
        add_on(c, e0->t0, TR_COLL_BEGIN, e0);
    for (long long k = i; k < j; k++) {
        const struct pmpi_event *e = &c->log->ev[k];
        if (e->kind == PMPI_EV_SEND)
            add_p2p(c, e->t0, TR_SEND, e);
        else if (e->kind == PMPI_EV_RECV && !e->req)
            add_p2p(c, e->t1, TR_RECV, e);
        else if (e->kind == PMPI_EV_WAIT && link && link[k] >= 0 &&
                 c->log->ev[link[k]].kind == PMPI_EV_RECV) { /* an Irecv it completed */
            struct pmpi_event m = c->log->ev[link[k]];
            if (m.peer < 0 && e->peer >= 0 && (m.flags & PMPI_EVF_WORLD))
                m.peer = e->peer; /* MPI_ANY_SOURCE: the status's */
            if (m.tag == MPI_ANY_TAG && e->tag >= 0)
                m.tag = e->tag;
            m.thread = e->thread; /* completed on the Wait's thread */
            add_p2p(c, e->t1, TR_RECV, &m);
        }
    }
    if (op >= 0 && (r = add_on(c, e0->t1, TR_COLL_END, e0))) {
        r->collop = (uint8_t)op;
        r->comm = (e0->flags & PMPI_EVF_GROUP) ? COMM_OTHER : COMM_WORLD;
        r->peer = e0->peer;
        r->bytes = e0->bytes > 0 ? (uint64_t)e0->bytes : 0;
    }
    if ((r = add_on(c, e0->t1, TR_LEAVE, e0)))
        r->id = (uint32_t)region;
}

/* Records of one call: the same call and times, of the kinds a call may log twice. */
static int same_call(const struct pmpi_event *a, const struct pmpi_event *b)
{
    return a->call == b->call && a->t0 == b->t0 && a->t1 == b->t1 && a->thread == b->thread &&
           a->kind != PMPI_EV_COLL && b->kind != PMPI_EV_COUNTER && b->kind != PMPI_EV_COLL &&
           a->kind != PMPI_EV_CALL && b->kind != PMPI_EV_CALL && b->kind != PMPI_EV_REGION_ENTER &&
           b->kind != PMPI_EV_REGION_EXIT;
}

static void convert(struct conv *c)
{
    long long n = pmpi_log_count(c->log);
    /* each Irecv's Wait (request_link.c); without memory Irecvs have no receive
     * records: said as failed */
    int64_t *link = malloc((n > 0 ? (size_t)n : 1) * sizeof *link);
    if (!link || pmpi_link_requests(c->log->ev, n, link) != 0) {
        free(link);
        link = NULL;
        c->failed = 1;
    }
    unsigned open = 0;                            /* MPI_Pcontrol regions open */
    uint32_t open_thread[PMPI_MAX_REGIONS] = {0}; /* and the thread that opened each */
    for (long long i = 0; i < n && !c->failed;) {
        const struct pmpi_event *e = &c->log->ev[i];
        if (e->kind == PMPI_EV_COUNTER && (e->flags & PMPI_EVF_METRIC) &&
            e->pad < (uint32_t)pmpi_regions()->nregions && e->call < pmpi_ev()->nmetrics &&
            c->nrm) {
            struct trace_record *r = add_on(c, e->t0, TR_COUNTER, e); /* a region entry's */
            if (r) {
                r->id =
                    (uint32_t)(c->nevents + c->nim + (int)e->pad * pmpi_ev()->nmetrics + e->call);
                r->vtype = TR_VALUE_DOUBLE;
                r->value = e->bytes; /* the double's bits */
            }
        }
        if (e->kind == PMPI_EV_COUNTER) { /* samples: taken from the series (add_counters) */
            i++;
            continue;
        }
        if (e->kind == PMPI_EV_REGION_ENTER || e->kind == PMPI_EV_REGION_EXIT) {
            int enter = e->kind == PMPI_EV_REGION_ENTER;
            struct trace_record *r = add_on(c, e->t0, enter ? TR_ENTER : TR_LEAVE, e);
            if (e->call < PMPI_MAX_REGIONS && enter)
                open_thread[e->call] = e->thread;
            if (r)
                r->id = e->call;
            if (e->call < PMPI_MAX_REGIONS)
                open = enter ? open | 1u << e->call : open & ~(1u << e->call);
            i++;
            continue;
        }
        long long j = i + 1;
        while (j < n && same_call(e, &c->log->ev[j]))
            j++;
        add_call(c, link, i, j);
        i = j;
    }
    for (int k = PMPI_MAX_REGIONS - 1; k >= 0; k--) { /* still open at MPI_Finalize */
        struct trace_record *r = (open & 1u << k) ? add(c, c->end_tick, TR_LEAVE) : NULL;
        if (r) {
            r->id = (uint32_t)k;
            r->thread = track(c, open_thread[k]);
        }
    }
    free(link);
}

/* The rank's GPU tracks: each operation the GPU activity layer kept for the trace
 * (papi_gpu_activity.h) a region on its device's stream's track, its times moved onto
 * rank 0's clock as the calls' are; its name a region's at its first use. */
static void add_gpu(struct conv *c)
{
    struct trace_gpu_since since = {0}; /* every write: the whole run's */
    int id[TRACE_GPU_MAX_NAMES];
    trace_gpu_ops_free(&c->gpu);
    int rc = papi_gpu_activity_trace_ops(&c->gpu, &since);
    c->gpu_dropped = 2 * c->gpu.dropped + (rc < 0 ? 2 * c->gpu.n : 0);
    for (int k = 0; k < TRACE_GPU_MAX_NAMES; k++)
        id[k] = -1;
    for (size_t i = 0; rc == 0 && i < c->gpu.n && !c->failed; i++) {
        const struct trace_gpu_op *o = &c->gpu.op[i];
        if (o->name < 0 || o->name >= TRACE_GPU_MAX_NAMES) {
            c->gpu_dropped += 2;
            continue;
        }
        if (id[o->name] < 0) {
            id[o->name] = c->nnames;
            c->names[c->nnames++] = c->gpu.name[o->name];
        }
        for (int leave = 0; leave < 2; leave++) {
            struct trace_record *r = add(c, 0, leave ? TR_LEAVE : TR_ENTER);
            if (r) {
                r->ts = gtime_ns(c, (double)(leave ? o->end : o->start));
                r->thread = o->label;
                r->id = (uint32_t)id[o->name];
            }
        }
    }
}

/* add_omp's walk: each slice's name a region at its first use, its enter and leave
 * records (a slice whose name finds no room: neither, counted). */
struct omp_walk {
    struct conv *c;
    int kind_id[TRACE_OMP_KINDS], name_id[TRACE_OMP_MAX_NAMES];
    unsigned char in[4096]; /* per open slice: whether it went in (deeper: not) */
    int depth;
};

static int omp_region(struct omp_walk *o, const struct trace_omp_span *sp)
{
    const struct trace_omp_spans *s = &o->c->omp;
    int named =
        sp->name >= 0 && sp->name < s->nnames && sp->name < TRACE_OMP_MAX_NAMES - TRACE_OMP_KINDS;
    int *id = named ? &o->name_id[sp->name] : &o->kind_id[sp->kind % TRACE_OMP_KINDS];
    if (*id < 0 && o->c->nnames < (int)(sizeof o->c->names / sizeof o->c->names[0])) {
        *id = o->c->nnames;
        o->c->names[o->c->nnames++] = trace_omp_span_name(s, sp);
    }
    return *id;
}

static void omp_emit(void *ctx, uint64_t ts, uint32_t thread, int enter,
                     const struct trace_omp_span *sp)
{
    struct omp_walk *o = ctx;
    int in = 0;
    if (!enter) {
        in = o->depth > 0 && o->depth <= (int)sizeof o->in && o->in[o->depth - 1];
        o->depth--;
    } else {
        in = o->depth < (int)sizeof o->in && omp_region(o, sp) >= 0;
        if (o->depth < (int)sizeof o->in)
            o->in[o->depth] = (unsigned char)in;
        o->depth++;
        o->c->omp_dropped += in ? 0 : 2;
    }
    struct trace_record *r = in ? add(o->c, (long long)ts, enter ? TR_ENTER : TR_LEAVE) : NULL;
    if (r) {
        r->thread = thread;
        r->id = (uint32_t)omp_region(o, sp);
    }
}

/* The rank's OpenMP slices, asked of the OMPT tool (none when it is not loaded or keeps
 * none: no trace was asked for at its start), on rank 0's clock as the calls are. */
static void add_omp(struct conv *c)
{
    static struct omp_walk o; /* static: its name table is large */
    trace_omp_query_fn get = (trace_omp_query_fn)ompt_query_lookup("papi_ompt_query_spans", NULL);
    trace_omp_spans_free(&c->omp);
    c->omp_dropped = 0;
    if (!get || get(TRACE_OMP_QUERY_VERSION, &c->omp) != 0)
        return;
    trace_omp_spans_order(&c->omp); /* in ticks: the conversion keeps their order */
    memset(&o, 0, sizeof o);
    o.c = c;
    memset(o.kind_id, -1, sizeof o.kind_id);
    memset(o.name_id, -1, sizeof o.name_id);
    c->omp_dropped = 2 * c->omp.dropped;
    trace_omp_spans_walk(&c->omp, omp_emit, &o);
}

/* PAPI_INTERVAL's samples (those the row's series has: taken before MPI_Finalize
 * began): each event's count since MPI_Init, a counter record each, and each named
 * metric (PAPI_MPI_METRICS) of the interval's counts over its time (as the row's series
 * has it: never a ratio of averages), a double-valued counter at the interval's end. */
static void add_counters(struct conv *c)
{
    const struct count_series *s = pmpi_series_samples();
    /* the row's: later ones, and one folded into its last interval, are not in it either */
    int kept = s ? pmpi_series_kept(pmpi_end()->t_final - pmpi_id()->t_init) : 0;
    int w = c->nevents, nm = c->nim;
    for (int j = 0; j < kept && !c->failed; j++) {
        const long long *now = s->v + (size_t)j * (size_t)s->width;
        uint64_t ts = gtime_ns(c, (double)(pmpi_id()->t_init + s->t[j]));
        for (int i = 0; i < w; i++) {
            struct trace_record *r = add(c, 0, TR_COUNTER);
            if (!r)
                return;
            r->ts = ts;
            r->id = (uint32_t)i;
            r->value = now[i];
        }
        if (nm < 1)
            continue;
        long long delta[PMPI_MAX_EVENTS];
        long long dt = s->t[j] - (j ? s->t[j - 1] : 0);
        for (int i = 0; i < w; i++)
            delta[i] = now[i] - (j ? s->v[(size_t)(j - 1) * (size_t)s->width + (size_t)i] : 0);
        double v[PMPI_MAX_METRICS];
        int ok[PMPI_MAX_METRICS];
        char why[PMPI_MAX_METRICS][160];
        pmpi_counters_metrics(delta, (double)dt * 1e-9, v, ok, why, sizeof why[0]);
        for (int k = 0; k < nm; k++) {
            if (!ok[k] || !isfinite(v[k]))
                continue; /* no value for that interval: no point on the track */
            struct trace_record *r = add(c, 0, TR_COUNTER);
            if (!r)
                return;
            r->ts = ts;
            r->id = (uint32_t)(w + k);
            r->vtype = TR_VALUE_DOUBLE;
            r->value = trace_value_of_double(v[k]);
        }
    }
}

/* The counters' ids: the events the series has, its metrics (every event needed), then
 * each region's metrics (region r, metric k: r x nmetrics + k). */
static char region_metric[PMPI_MAX_REGIONS * PMPI_MAX_METRICS][2 * PMPI_NAME_LEN + 16];

static void counter_layout(struct conv *c)
{
    const struct count_series *s = pmpi_series_samples();
    int w = s ? (s->width < pmpi_ev()->nevents ? s->width : pmpi_ev()->nevents) : 0;
    c->nevents = w;
    c->nim = w == pmpi_ev()->nevents ? pmpi_ev()->nmetrics : 0;
    c->nrm = c->log->ev ? pmpi_regions()->nregions * pmpi_ev()->nmetrics : 0; /* on is 0 by now */
    for (int i = 0; i < c->nrm; i++)
        snprintf(region_metric[i], sizeof region_metric[i], "%s [region %s]",
                 pmpi_ev()->metric_names[i % pmpi_ev()->nmetrics],
                 pmpi_regions()->regions[i / pmpi_ev()->nmetrics].name);
    c->ncounters = w + c->nim + c->nrm;
}

/* Time order, stable (an enter stays before the send made at the same tick): a merge
 * sort, skipped when the records are in order already (one thread: always). */
static void sort_records(struct conv *c)
{
    int sorted = 1;
    for (size_t i = 1; i < c->n && sorted; i++)
        sorted = c->rec[i - 1].ts <= c->rec[i].ts;
    struct trace_record *tmp = sorted ? NULL : malloc(c->n * sizeof *tmp);
    if (!tmp)
        return; /* in order, or no memory: left as logged (the writer takes it) */
    for (size_t w = 1; w < c->n; w *= 2) {
        for (size_t lo = 0; lo < c->n; lo += 2 * w) {
            size_t mid = lo + w < c->n ? lo + w : c->n;
            size_t hi = lo + 2 * w < c->n ? lo + 2 * w : c->n;
            size_t a = lo, b = mid, o = lo;
            while (a < mid || b < hi)
                tmp[o++] = (b >= hi || (a < mid && c->rec[a].ts <= c->rec[b].ts)) ? c->rec[a++]
                                                                                  : c->rec[b++];
        }
        memcpy(c->rec, tmp, c->n * sizeof *tmp);
    }
    free(tmp);
}

/* The innermost region open on thread t removed from the open ones (depth of them). */
static void close_on(uint32_t *stack, uint32_t *th, int *depth, uint32_t t)
{
    int k = *depth - 1;
    while (k >= 0 && th[k] != t) /* tracks interleave: the thread's own, not the last */
        k--;
    if (k < 0)
        return;
    memmove(stack + k, stack + k + 1, (size_t)(*depth - k - 1) * sizeof *stack);
    memmove(th + k, th + k + 1, (size_t)(*depth - k - 1) * sizeof *th);
    --*depth;
}

/* Cuts the records to at most share: where no collective is open, the regions then open
 * (on every thread's and GPU's track) closed at the cut. Returns the records dropped. */
#define CUT_OPEN (PMPI_MAX_REGIONS + PMPI_MAX_THREADS + 64)
static uint64_t cut(struct conv *c, size_t share)
{
    if (c->n <= share)
        return 0;
    uint32_t stack[CUT_OPEN], best_stack[CUT_OPEN];
    uint32_t th[CUT_OPEN], best_th[CUT_OPEN]; /* their threads */
    int depth = 0, best_depth = 0, coll = 0;
    size_t best = 0;
    for (size_t i = 0; i < c->n; i++) {
        const struct trace_record *r = &c->rec[i];
        if (r->kind == TR_ENTER && depth < (int)(sizeof stack / sizeof stack[0]))
            th[depth] = r->thread, stack[depth++] = r->id;
        else if (r->kind == TR_LEAVE)
            close_on(stack, th, &depth, r->thread);
        else if (r->kind == TR_COLL_BEGIN)
            coll = 1;
        else if (r->kind == TR_COLL_END)
            coll = 0;
        if (i + 1 + (size_t)depth > share)
            break;
        if (!coll) {
            best = i + 1;
            best_depth = depth;
            memcpy(best_stack, stack, (size_t)depth * sizeof *stack);
            memcpy(best_th, th, (size_t)depth * sizeof *th);
        }
    }
    uint64_t dropped = c->n - best;
    uint64_t ts = best ? c->rec[best - 1].ts : 0;
    c->n = best;
    for (int d = best_depth - 1; d >= 0; d--) {
        struct trace_record *r = &c->rec[c->n++]; /* fits: best + depth <= share < n */
        memset(r, 0, sizeof *r);
        r->ts = ts;
        r->thread = best_th[d];
        r->kind = TR_LEAVE;
        r->id = best_stack[d];
        r->peer = -1;
    }
    return dropped;
}

/* What the lines say of the report, written before the trace (or not: a full disk). */
static int report_failed;

static const char *report_said(void)
{
    return report_failed ? "the report was not written either (FAILED above)"
                         : "the report is still written";
}

/* PAPI_MPI_TRACE on rank 0: the format, 0 when none is asked for (or refused: said;
 * waits_done: the waits, and so the log they came from, were computed; note: why not). */
static int trace_format_env(int waits_done, const char *note)
{
    const char *v = env_get("PAPI_MPI_TRACE");
    enum trace_format f;
    char why[256];
    if (!v || !*v)
        return 0;
    if (trace_format_parse(v, &f, why, sizeof why) != 0) {
        fprintf(stderr, "papi_mpi: PAPI_MPI_TRACE=%s: %s: no trace; %s\n", v, why, report_said());
        return 0;
    }
    if (f == TRACE_OTF2 && !trace_otf2_available(why, sizeof why)) {
        fprintf(stderr, "papi_mpi: PAPI_MPI_TRACE=otf2: %s: no trace; %s\n", why, report_said());
        return 0;
    }
    if (!waits_done) {
        fprintf(stderr, "papi_mpi: PAPI_MPI_TRACE=%s: %s: no trace; %s\n", v,
                note ? note : "no event log (no memory on some rank)", report_said());
        return 0;
    }
    return (int)f;
}

/* Name i of this rank: its regions', then its events', then its metrics'. */
static const char *name_of(const struct conv *c, int i)
{
    if (i < c->nnames)
        return c->names[i];
    i -= c->nnames;
    if (i < c->nevents)
        return pmpi_ev()->event_names[i];
    i -= c->nevents;
    return i < c->nim ? pmpi_ev()->metric_names[i] : region_metric[i - c->nim];
}

/* Rank 0: one line when the trace failed (why), or when records were dropped, or when
 * the report was not written beside it. */
static void say_written(int rc, const char *why, uint64_t dropped, enum trace_format f)
{
    const char *file = f == TRACE_JSON
                           ? (pmpi_id()->nranks <= TRACE_ONE_FILE_RANKS ? TRACE_BASE ".json"
                                                                        : TRACE_BASE ".index.json")
                           : TRACE_BASE "/traces.otf2";
    if (rc != 0)
        fprintf(stderr, "papi_mpi: PAPI_MPI_TRACE=%s: %s: no trace; %s\n", trace_format_name(f),
                why, report_said());
    else if (dropped)
        fprintf(stderr,
                "papi_mpi: trace %s/%s: %llu records dropped (past the event log's "
                "PAPI_MPI_LOG_RECORDS, the GPU activity's 65536 operations, a thread's "
                "PAPI_OMPT_TRACE_SPANS OpenMP slices or the trace's "
                "%lld per rank)%s\n",
                pmpi_id()->outdir, file, (unsigned long long)dropped, TRACE_RANK_MAX_RECORDS,
                f == TRACE_JSON ? ": said in the file" : "");
    if (rc == 0 && report_failed) /* the report's FAILED line said no file was written */
        fprintf(stderr,
                "papi_mpi: wrote the trace %s/%s; the report was not written (FAILED "
                "above)\n",
                pmpi_id()->outdir, file);
}

/* This rank's names and records as the writers take them (at most
 * TRACE_RANK_MAX_RECORDS; a rank without memory for its names gives none, counted);
 * *ctr: the counters' names (free it). */
static struct trace_rank rank_view(struct conv *c, const struct pmpi_event_log *log,
                                   const char ***ctr)
{
    uint64_t dropped = (uint64_t)pmpi_log_dropped(log) + c->gpu_dropped + c->omp_dropped +
                       cut(c, (size_t)TRACE_RANK_MAX_RECORDS);
    *ctr = malloc((size_t)(c->ncounters > 0 ? c->ncounters : 1) * sizeof **ctr);
    for (int i = 0; *ctr && i < c->ncounters; i++)
        (*ctr)[i] = name_of(c, c->nnames + i);
    if (c->failed || !*ctr) {
        dropped += c->n;
        c->n = 0;
    }
    return (struct trace_rank){.rank = pmpi_id()->rank,
                               .pid = (long)getpid(),
                               .host = pmpi_id()->host[0] ? pmpi_id()->host : NULL,
                               .region = c->names,
                               .nregions = c->nnames,
                               .counter = *ctr,
                               .ncounters = *ctr ? c->ncounters : 0,
                               .rec = c->rec,
                               .nrec = c->n,
                               .dropped = dropped};
}

/* Every rank writes its own part: the OTF2 archive's locations, or its JSON file. */
static void export_ranks(struct conv *c, const struct pmpi_event_log *log, enum trace_format f)
{
    const char **ctr = NULL;
    struct trace_rank mine = rank_view(c, log, &ctr);
    const char *prog = pmpi_id()->command_len > 0 ? pmpi_id()->command : NULL;
    struct trace_meta meta = {prog, pmpi_id()->run_id, "libpapi_mpi", 0};
    char why[PATH_MAX + 512] = "";
    uint64_t job_dropped = 0;
    int rc = f == TRACE_OTF2 ? pmpi_trace_otf2_job(&mine, 0, &meta, pmpi_id()->outdir, TRACE_BASE,
                                                   &job_dropped, why, sizeof why)
                             : pmpi_trace_json_ranks(&mine, &meta, pmpi_id()->outdir, TRACE_BASE,
                                                     &job_dropped, why, sizeof why);
    if (pmpi_id()->rank == 0)
        say_written(rc, why, job_dropped, f);
    free(ctr);
}

/* c made ready for log, times on rank 0's clock by the offsets off0 .. off1 over span
 * ns after MPI_Init (span 0: off0 throughout). */
static void conv_init(struct conv *c, const struct pmpi_event_log *log, double npt, double off0,
                      double off1, double span, long long end_tick)
{
    memset(c, 0, sizeof *c);
    c->log = log;
    c->npt = npt;
    c->off0 = off0;
    c->off1 = off1;
    c->span = span;
    c->end_tick = end_tick;
    c->thread = (uint32_t)getpid();             /* the thread of MPI_Init, unless its slot says */
    for (int i = 0; i <= PMPI_MAX_THREADS; i++) /* a slot without an OS id: unique still */
        c->label[i] = pmpi_rec.threads[i].tid > 0 ? (uint32_t)pmpi_rec.threads[i].tid
                      : i == 0                    ? c->thread
                                                  : 0x80000000u | (uint32_t)i;
    c->thread = c->label[0];
    for (int i = 0; i < PMPI_NCALLS; i++)
        c->call_region[i] = -1;
    for (int i = 0; i < pmpi_regions()->nregions && i < PMPI_MAX_REGIONS; i++)
        c->names[c->nnames++] = pmpi_regions()->regions[i].name; /* ids as the log's */
    counter_layout(c);
}

/* The checkpoint archive of this rank (papi_mpi_trace.rank<N>.checkpoint): written, so
 * MPI_Finalize removes it; the log records and the GPU operations it holds (rewritten
 * when either grew: GPU work between MPI calls too). */
static _Atomic int ckpt_archive;
static long long ckpt_records = -1, ckpt_gpu = -1;

/* Its path: 0, or -1 when it does not fit. */
static int checkpoint_name(char *buf, size_t len)
{
    return (size_t)snprintf(buf, len, "%s/" TRACE_BASE ".rank%d.checkpoint", pmpi_id()->outdir,
                            pmpi_id()->rank) < len
               ? 0
               : -1;
}

void pmpi_trace_checkpoint(void)
{
    const char *v = env_get("PAPI_MPI_TRACE");
    enum trace_format f;
    char why[PATH_MAX + 256], base[64];
    static int said;
    long long n = atomic_load(&pmpi_log.shipped);   /* in the log's file: never changed again */
    long long gpu = papi_gpu_activity_trace_kept(); /* (the row just flushed CUPTI) */
    if (!v || trace_format_parse(v, &f, why, sizeof why) != 0 || f != TRACE_OTF2 || !pmpi_log.ev ||
        (n == ckpt_records && gpu == ckpt_gpu) || !trace_otf2_available(why, sizeof why))
        return;
    static struct pmpi_event_log snap; /* the log up to n */
    static struct conv c;
    snap.ev = pmpi_log.ev;
    snap.cap = n;
    atomic_store(&snap.next, n);
    long long now = pmpi_ticks();
    conv_init(&c, &snap, pmpi_ns_per_tick(pmpi_now_ns(), now), pmpi_log.offset_ns,
              pmpi_log.offset_ns, 0, now);
    convert(&c);
    add_gpu(&c);
    sort_records(&c);
    const char **ctr = NULL;
    struct trace_rank mine = rank_view(&c, &snap, &ctr);
    const char *prog = pmpi_id()->command_len > 0 ? pmpi_id()->command : NULL;
    struct trace_meta meta = {prog, pmpi_id()->run_id, "libpapi_mpi (checkpoint)", 0};
    snprintf(base, sizeof base, TRACE_BASE ".rank%d.checkpoint", pmpi_id()->rank);
    if (trace_write(pmpi_id()->outdir, base, TRACE_OTF2, &meta, &mine, 1, why, sizeof why) == 0) {
        ckpt_records = n;
        ckpt_gpu = gpu;
        atomic_store(&ckpt_archive, 1);
    } else if (!said++) {
        fprintf(stderr, "papi_mpi: rank %d: checkpoint trace: %s\n", pmpi_id()->rank, why);
    }
    free(ctr);
    free(c.rec);
    c.rec = NULL;
    trace_gpu_ops_free(&c.gpu);
}

/* The agreement round's value: rank 0's PAPI_MPI_TRACE is set. */
int pmpi_trace_prepare(void)
{
    const char *v = pmpi_id()->rank == 0 ? env_get("PAPI_MPI_TRACE") : NULL;
    return pmpi_agree_add(PMPI_AGREE_MAX, v && *v);
}

void pmpi_trace_export(const struct pmpi_event_log *log, double ns_per_tick, int report_not_written,
                       const struct pmpi_wait_result *waits, int asked)
{
    report_failed = report_not_written;
    int me = pmpi_id()->rank;
    if (atomic_load(&ckpt_archive)) { /* the rank finished: its checkpoint archive goes */
        char path[PATH_MAX];
        if (checkpoint_name(path, sizeof path) == 0)
            trace_otf2_discard(path);
    }
    if (asked >= 0 && pmpi_agree_value(asked) == 0)
        return; /* rank 0 asked for no trace: the same on every rank */
    int f = me == 0 ? trace_format_env(waits->done, log->note) : 0;
    MPI_Request req; /* rank 0 reads its setting: the others wait without a core */
    pmpi_idle_complete(PMPI_Ibcast(&f, 1, MPI_INT, 0, MPI_COMM_WORLD, &req), &req);
    if (!f)
        return;
    static struct conv c; /* static: its call table is large */
    conv_init(&c, log, ns_per_tick, log->offset_ns, log->offset_end_ns,
              (double)(pmpi_end()->t_final - pmpi_id()->t_init), pmpi_end()->tick_final);
    convert(&c);
    add_gpu(&c);
    add_omp(&c);
    add_counters(&c);
    sort_records(&c);
    export_ranks(&c, log, (enum trace_format)f);
    free(c.rec);
    c.rec = NULL;
    trace_gpu_ops_free(&c.gpu);
    trace_omp_spans_free(&c.omp);
}
