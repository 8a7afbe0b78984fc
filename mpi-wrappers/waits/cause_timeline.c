/* cause_timeline.c: a rank's thread 0 as calls and segments (cause_timeline.h), no MPI.
 *
 * One record per request an MPI_Waitall (Waitsome ...) completed is one call on the
 * timeline, waiting for its latest request (else its time would count N times). Compute
 * between calls is split where a region opens or closes and takes the innermost open
 * region, so that the same work compares alike on every rank whatever call follows it. */
#include <stdlib.h>
#include <string.h>

#include "cause_timeline.h"

uint64_t pmpi_tl_region_hash(const char *name)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 1099511628211ULL;
    h &= (1ULL << PMPI_ACT_REGION_BITS) - 1;
    return h ? h : 1;
}

static int sync_cmp(const struct pmpi_sync *x, const struct pmpi_sync *y)
{
    if (x->type != y->type)
        return x->type < y->type ? -1 : 1;
    if (x->a != y->a)
        return x->a < y->a ? -1 : 1;
    return x->b < y->b ? -1 : x->b > y->b;
}

static int tl_sync_cmp(const void *a, const void *b)
{
    return sync_cmp(&((const struct pmpi_tl_sync *)a)->s, &((const struct pmpi_tl_sync *)b)->s);
}

void pmpi_tl_free(struct pmpi_timeline *tl)
{
    free(tl->calls);
    free(tl->segs);
    free(tl->call_of_rec);
    free(tl->seg_of_call);
    free(tl->coll_rec);
    free(tl->syncs);
    memset(tl, 0, sizeof *tl);
}

/* The calls of thread 0 in log order (and each record's call). */
static void make_calls(struct pmpi_timeline *tl, const struct pmpi_wait_log *w)
{
    long long last_rec = -1;
    for (long long i = 0; i < w->n; i++) {
        const struct pmpi_event *e = &w->ev[i];
        tl->call_of_rec[i] = -1;
        if (!pmpi_tl_is_call(e))
            continue;
        int comm = e->kind != PMPI_EV_CALL;
        if (e->kind == PMPI_EV_WAIT && last_rec >= 0 && w->ev[last_rec].kind == PMPI_EV_WAIT &&
            w->ev[last_rec].t0 == e->t0 && w->ev[last_rec].t1 == e->t1 &&
            w->ev[last_rec].call == e->call) {
            struct pmpi_tl_call *c = &tl->calls[tl->ncalls - 1];
            tl->call_of_rec[i] = tl->ncalls - 1;
            c->rec1 = i;
            if (w->wait[i] > c->wait) { /* the request it waited longest for */
                c->wait = w->wait[i];
                c->kind = w->kind[i];
                c->sync = w->sync[i];
                c->cause_rank = w->cause_rank[i];
                c->cause_rec = w->cause_rec[i];
            }
            continue;
        }
        struct pmpi_tl_call *c = &tl->calls[tl->ncalls];
        *c = (struct pmpi_tl_call){pmpi_wait_time(&w->clock, e->t0),
                                   pmpi_wait_time(&w->clock, e->t1),
                                   comm ? w->wait[i] : 0,
                                   e->site,
                                   comm ? w->sync[i] : (struct pmpi_sync){0, 0, 0},
                                   comm ? w->cause_rec[i] : -1,
                                   comm && w->wait[i] > 0 ? w->cause_rank[i] : -1,
                                   i,
                                   i,
                                   e->call,
                                   comm ? w->kind[i] : 0};
        if (c->wait <= 0)
            c->wait = 0;
        tl->call_of_rec[i] = tl->ncalls++;
        last_rec = i;
    }
}

/* The segments, from the calls and the region records. */
static void make_segments(struct pmpi_timeline *tl, const struct pmpi_wait_log *w,
                          const uint64_t *hash, int nregions)
{
    int stack[64], depth = 0;
    long long r = 0; /* the next record to look at for regions */
    double prev = 0;
    for (long long j = 0; j < tl->ncalls; j++) {
        const struct pmpi_tl_call *c = &tl->calls[j];
        double t = prev;
        tl->seg_of_call[j] = -1;
        /* the region records (thread 0's) up to this call's start, in log order */
        for (; r < w->n; r++) {
            const struct pmpi_event *e = &w->ev[r];
            if (e->thread != 0 ||
                (e->kind != PMPI_EV_REGION_ENTER && e->kind != PMPI_EV_REGION_EXIT))
                continue;
            double rt = pmpi_wait_time(&w->clock, e->t0);
            if (rt > c->t0)
                break;
            if (j > 0 && rt > t) {
                uint64_t reg = depth ? hash[stack[depth - 1]] : 0;
                tl->segs[tl->nsegs++] =
                    (struct pmpi_tl_seg){t, rt, PMPI_ACT_KEY(PMPI_ACT_COMPUTE, 0, reg), j};
                t = rt;
            }
            int idx = e->call < nregions ? e->call : -1;
            if (idx < 0)
                continue;
            if (e->kind == PMPI_EV_REGION_ENTER) {
                if (depth < 64)
                    stack[depth++] = idx;
            } else /* the innermost open with that name closes */
                for (int k = depth - 1; k >= 0; k--)
                    if (hash[stack[k]] == hash[idx]) {
                        memmove(&stack[k], &stack[k + 1], (size_t)(depth - 1 - k) * sizeof *stack);
                        depth--;
                        break;
                    }
        }
        uint64_t reg = depth ? hash[stack[depth - 1]] : 0;
        if (j > 0 && c->t0 > t)
            tl->segs[tl->nsegs++] =
                (struct pmpi_tl_seg){t, c->t0, PMPI_ACT_KEY(PMPI_ACT_COMPUTE, 0, reg), j};
        double wt = c->wait < c->t1 - c->t0 ? c->wait : c->t1 - c->t0;
        if (wt > 0) {
            tl->seg_of_call[j] = tl->nsegs;
            tl->segs[tl->nsegs++] =
                (struct pmpi_tl_seg){c->t0, c->t0 + wt, PMPI_ACT_KEY(PMPI_ACT_WAIT, c->call, 0), j};
        } else
            wt = 0;
        if (c->t1 > c->t0 + wt) {
            if (tl->seg_of_call[j] < 0)
                tl->seg_of_call[j] = tl->nsegs;
            tl->segs[tl->nsegs++] = (struct pmpi_tl_seg){
                c->t0 + wt, c->t1, PMPI_ACT_KEY(PMPI_ACT_MPI, c->call, reg), j};
        }
        prev = j == 0 || c->t1 > prev ? c->t1 : prev;
    }
}

int pmpi_tl_alloc(struct pmpi_timeline *tl, const struct pmpi_wait_log *w)
{
    memset(tl, 0, sizeof *tl);
    size_t n = w->n > 0 ? (size_t)w->n : 1;
    long long nreg = 0;
    int nseq = pmpi_wait_coll_count(w);
    for (long long i = 0; i < w->n; i++)
        nreg += w->ev[i].kind == PMPI_EV_REGION_ENTER || w->ev[i].kind == PMPI_EV_REGION_EXIT;
    tl->calls = malloc(n * sizeof *tl->calls);
    tl->segs = malloc((3 * n + (size_t)nreg + 1) * sizeof *tl->segs);
    tl->call_of_rec = malloc(n * sizeof *tl->call_of_rec);
    tl->seg_of_call = malloc(n * sizeof *tl->seg_of_call);
    tl->coll_rec = malloc((nseq > 0 ? (size_t)nseq : 1) * sizeof *tl->coll_rec);
    tl->syncs = malloc(n * sizeof *tl->syncs);
    tl->nseq = nseq;
    if (!tl->calls || !tl->segs || !tl->call_of_rec || !tl->seg_of_call || !tl->coll_rec ||
        !tl->syncs) {
        pmpi_tl_free(tl);
        return -1;
    }
    return 0;
}

int pmpi_tl_is_call(const struct pmpi_event *e)
{
    return e->thread == 0 && e->kind != 0 && e->kind != PMPI_EV_COUNTER &&
           e->kind != PMPI_EV_REGION_ENTER && e->kind != PMPI_EV_REGION_EXIT;
}

void pmpi_tl_build(struct pmpi_timeline *tl, const struct pmpi_wait_log *w,
                   const char *const *names, int nregions)
{
    int nseq = tl->nseq;
    tl->rank = w->rank;
    tl->nrec = w->n;
    tl->ncalls = tl->nsegs = tl->nsyncs = 0;
    tl->nregions = nregions < PMPI_MAX_REGIONS ? nregions : PMPI_MAX_REGIONS;
    for (int k = 0; k < tl->nregions; k++)
        tl->region_hash[k] = pmpi_tl_region_hash(names[k]);
    make_calls(tl, w);
    make_segments(tl, w, tl->region_hash, tl->nregions);
    for (int s = 0; s < nseq; s++)
        tl->coll_rec[s] = -1;
    for (long long i = 0; i < w->n; i++) {
        const struct pmpi_event *e = &w->ev[i];
        if (e->kind == PMPI_EV_COLL && !(e->flags & PMPI_EVF_GROUP) && e->tag >= 0 && e->tag < nseq)
            tl->coll_rec[e->tag] = i;
    }
    /* A call's meeting is the one it completed last: of a Waitall's requests, the one it
     * waited longest for (the others completed earlier, when is not known: the Waitall's
     * end would start their intervals too late), as papi_report's timelines take it. */
    for (long long j = 0; j < tl->ncalls; j++)
        if (tl->calls[j].sync.type != PMPI_SYNC_NONE)
            tl->syncs[tl->nsyncs++] = (struct pmpi_tl_sync){tl->calls[j].sync, j};
    qsort(tl->syncs, (size_t)tl->nsyncs, sizeof *tl->syncs, tl_sync_cmp);
}

int pmpi_tl_partner(const struct pmpi_wait_log *w, const struct pmpi_sync *s)
{
    if (s->type != PMPI_SYNC_P2P)
        return -1;
    if (s->a != w->rank)
        return s->a;
    return s->b >= 0 && s->b < w->n ? w->ev[s->b].peer : -1;
}

int64_t pmpi_tl_met(const struct pmpi_timeline *tl, const struct pmpi_sync *s)
{
    struct pmpi_tl_sync key = {*s, 0};
    const struct pmpi_tl_sync *f =
        tl->nsyncs ? bsearch(&key, tl->syncs, (size_t)tl->nsyncs, sizeof key, tl_sync_cmp) : NULL;
    return f ? f->call : -1;
}

int64_t pmpi_tl_cause_call(const struct pmpi_timeline *tl, int64_t rec)
{
    if (rec <= -2) {
        int64_t seq = -2 - rec;
        if (seq >= tl->nseq || tl->coll_rec[seq] < 0)
            return -1;
        rec = tl->coll_rec[seq];
    }
    return rec >= 0 && rec < tl->nrec ? tl->call_of_rec[rec] : -1;
}

long long pmpi_tl_seg_at(const struct pmpi_timeline *tl, double s)
{
    long long lo = 0, hi = tl->nsegs; /* the first segment starting after s */
    while (lo < hi) {
        long long mid = (lo + hi) / 2;
        if (tl->segs[mid].t0 <= s)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 ? lo - 1 : 0;
}

long long pmpi_tl_seg_before(const struct pmpi_timeline *tl, int64_t ci, double t)
{
    long long n = ci >= 0 && ci < tl->ncalls ? tl->seg_of_call[ci] : -1;
    if (n < 0) { /* a call of no time: by time */
        long long lo = 0, hi = tl->nsegs;
        while (lo < hi) {
            long long mid = (lo + hi) / 2;
            if (tl->segs[mid].t0 < t)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo - 1;
    }
    if (tl->segs[n].t0 >= t)
        return n - 1;
    while (n + 1 < tl->nsegs && tl->segs[n + 1].call == ci && tl->segs[n + 1].t0 < t)
        n++;
    return n;
}
