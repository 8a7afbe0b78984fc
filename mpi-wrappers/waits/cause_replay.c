/* cause_replay.c: the root causes of the waits (Boehme, Geimer, Wolf et al., "Identifying
 * the root causes of wait states in large-scale parallel applications", ICPP 2010) and
 * the critical path (Boehme et al., "Scalable critical-path based performance analysis",
 * IPDPS 2012), computed by the ranks at MPI_Finalize in one backward replay of their own
 * timelines (cause_timeline.c) over the wrapper's communicator: no rank holds another's
 * records, none gathers them.
 *
 * The wait rules (wait_rules.c) gave each wait the record it waited for on another rank,
 * its cause. A wait's synchronisation interval runs, on both ranks, from their latest
 * meeting before it (a message between them, a collective of both) to the wait and to
 * the record waited for. The delaying rank's excess in it, per activity (its time minus
 * the waiting rank's, never below 0), is what made the other wait; its own waits in the
 * interval pass their share on to their causes. First a query from each waiting rank to
 * its cause (the meetings before the wait it knows of, latest first) fixes the interval:
 * the cause answers which of them it had before the record waited for, and that record's
 * times. Then each rank walks its waits backward: once every wait caused by its records
 * after a wait has been handled here (they may have passed time to it), the wait's time
 * and what was passed to it go in one message to its cause, with the waiting rank's time
 * per activity in the interval. The cause spreads it over its excess (direct cost on the
 * wait's own time, propagated on what it was passed) and its waits in the interval (to
 * be passed on in turn). A wait caused by a later record always ends after it, so the
 * replay cannot wait for itself; no message carries a record, only times per activity
 * and the flow of waiting time by origin (kind, call, waiting rank). Every ns of waiting
 * ends at an activity or in the residual (no cause, no delay in the interval): the
 * conservation check adds them up over the job.
 *
 * The critical path rides in the same messages. It starts at the end of the rank that
 * finished last and walks back through its segments; at a wait with a cause it leaves for
 * the cause rank, at the point waited for (the wait's end, within the record waited for):
 * that wait's message says so, and the cause rank walks on from there. Its time per
 * activity stays on each rank until the report's rows are made. papi_report's
 * load/root_causes.py and critical_path.py are the same analyses over a dead job's logs. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cause_replay.h"
#include "cause_timeline.h"
#include "clock.h"
#include "event_log.h"
#include "idle_wait.h"
#include "pmpi_identity.h"
#include "region_state.h"
#include "sparse_exchange.h"

/* the replay's tags on the wrapper's communicator (wait_states.c uses 11 to 14) */
enum { TAG_QUERIES = 15, TAG_ANSWERS, TAG_REPLAY };

/* The meetings a query names, latest first: the interval is the latest of them the cause
 * rank had before the record waited for; past them, the ranks' first calls. */
#define QCAND 4
/* How far back a query looks for them (calls): a wait for a rank met long ago, or never,
 * takes the ranks' first calls without a scan of the whole log for each. */
#define SCAN (1 << 16)
/* The origins one message carries at most (FOLDED of them the folded others'). */
#define FLOW_CAP 64
/* The sleep between a replay probe and the next past the polling stretch. */
#define REPLAY_NAP_NS 20000
#define FOLDED        8

struct query {
    int64_t cause_rec;
    int32_t ncand, pad;
    struct pmpi_sync cand[QCAND];
};
struct answer {
    int64_t entry;  /* its place in the cause rank's expected messages */
    int32_t chosen; /* the meeting: a candidate, -1 the first calls, -2 no such record */
    int32_t pad;
    double rt0, rt1; /* the record waited for */
};
/* A wait the cause rank expects a message for. */
struct expected {
    int64_t ci, k; /* the call waited for; the meeting before it (-1: the first call) */
    int32_t from, got;
    int32_t critical, pad;
    double target; /* critical: where the path goes on */
};

/* The waiting time flowing from a wait: its origin (the wait's kind and call on rank),
 * waited (that rank's waits of the kind and call, for the rows), direct or passed on. */
struct flow {
    int32_t rank;
    uint16_t call;
    uint8_t kind, direct;
    double waited, ns;
};
struct act {
    uint64_t key;
    double ns;
};
struct msg_head {
    int64_t entry;
    int32_t nact, nflow;
    int32_t critical, lost;
    double target;
};

/* An activity's time and the site of its longest part (small tables: a rank's
 * activities number its regions times its calls). */
struct keyed {
    uint64_t key;
    double ns, longest;
    uint64_t site;
    int32_t before; /* the call of that part (a compute part's: the call that ends it) */
    int32_t set;
};
struct keytab {
    struct keyed *v;
    long long n, cap;
};

static struct keyed *kt_get(struct keytab *t, uint64_t key)
{
    for (long long i = 0; i < t->n; i++)
        if (t->v[i].key == key)
            return &t->v[i];
    if (t->n == t->cap) {
        long long cap = t->cap ? 2 * t->cap : 64;
        struct keyed *v = realloc(t->v, (size_t)cap * sizeof *v);
        if (!v)
            return NULL;
        t->v = v, t->cap = cap;
    }
    t->v[t->n] = (struct keyed){key, 0, 0, 0, -1, 0};
    return &t->v[t->n++];
}

/* The costs: (activity, origin) -> direct and propagated ns. */
struct cost {
    uint64_t key;
    int32_t rank;
    uint16_t call;
    uint8_t kind, used;
    double direct, prop, waited;
};
struct costtab {
    struct cost *v;
    long long n, cap; /* cap a power of two */
};

static uint64_t cost_hash(uint64_t key, const struct flow *f)
{
    uint64_t h = key * 0x9e3779b97f4a7c15ULL;
    h ^= ((uint64_t)(uint32_t)f->rank << 24 | (uint64_t)f->call << 8 | f->kind) *
         0xff51afd7ed558ccdULL;
    return h ^ (h >> 29);
}

static struct cost *cost_get(struct costtab *t, uint64_t key, const struct flow *f)
{
    if (2 * (t->n + 1) > t->cap) {
        long long cap = t->cap ? 2 * t->cap : 256;
        struct cost *v = calloc((size_t)cap, sizeof *v), *old = t->v;
        if (!v)
            return NULL;
        for (long long i = 0; i < t->cap; i++) {
            if (!old[i].used)
                continue;
            struct flow g = {old[i].rank, old[i].call, old[i].kind, 0, 0, 0};
            uint64_t h = cost_hash(old[i].key, &g) & (uint64_t)(cap - 1);
            while (v[h].used)
                h = (h + 1) & (uint64_t)(cap - 1);
            v[h] = old[i];
        }
        free(old);
        t->v = v, t->cap = cap;
    }
    uint64_t h = cost_hash(key, f) & (uint64_t)(t->cap - 1);
    while (t->v[h].used) {
        struct cost *c = &t->v[h];
        if (c->key == key && c->rank == f->rank && c->call == f->call && c->kind == f->kind)
            return c;
        h = (h + 1) & (uint64_t)(t->cap - 1);
    }
    t->n++;
    t->v[h] = (struct cost){key, f->rank, f->call, f->kind, 1, 0, 0, f->waited};
    return &t->v[h];
}

/* What was passed to a wait of this rank, until it is handled: a list per call. */
struct passed {
    struct flow f;
    int64_t next;
};

/* The critical path's walk on this rank. */
struct path {
    int on; /* the path is on this rank now, at segment n, time t */
    long long n;
    double t;
    int ended; /* it began here (walking back: ended at this rank's first segment) */
    double start;
    double residual;  /* clock overlap walked twice */
    struct keytab by; /* ns on the path per activity */
    int64_t crit;     /* an expected message that brings the path here, -1 */
};

struct replay {
    const struct pmpi_wait_log *w;
    struct pmpi_timeline tl;
    MPI_Comm comm;
    int P, me, ok;
    double first;       /* the run's first record, every rank's */
    double *waits_by;   /* [PMPI_WAIT_KINDS][PMPI_NCALLS]: this rank's waits */
    struct query *q;    /* nq, by destination */
    int64_t *q_call;    /* the wait each asks about */
    struct answer *ans; /* nq: the answers, as q */
    long long nq;
    struct expected *ex; /* nex: the waits this rank caused */
    int64_t *ex_order;   /* by call waited for, latest first */
    long long nex, nex_got;
    struct passed *pool; /* the passed flows */
    long long npool, cappool, free_pool;
    int64_t *head; /* ncalls: each call's passed list */
    struct costtab costs;
    struct keytab sites;    /* where each activity's cost first landed */
    double waits, residual; /* ns: this rank's waits; what found no cause */
    struct path path;
    MPI_Request *req; /* the messages in flight, their buffers */
    void **buf;
    long long nreq, capreq;
    long long sent;
    int64_t last_entry; /* the entry the last message received was for, -1 */
    /* scratch */
    struct keytab mine, theirs;
    struct flow *flows;
    long long capflows;
    struct {
        int64_t call;
        double ns;
    } * wl;
    long long nwl, capwl;
    char *rbuf;
    long long caprbuf;
};

static void *grow(void *p, long long *cap, long long need, size_t size)
{
    if (need <= *cap)
        return p;
    long long c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    void *q = realloc(p, (size_t)c * size);
    if (q)
        *cap = c;
    return q;
}

/* ---- the timeline's intervals ---- */

/* time per activity (waits apart) of this rank's segments within [s, e]; with sites
 * (the cause's side), the site of each activity's longest part, and its waits by call in
 * r->wl. */
static int interval(struct replay *r, double s, double e, struct keytab *t, int sites)
{
    const struct pmpi_timeline *tl = &r->tl;
    t->n = 0;
    r->nwl = 0;
    for (long long n = pmpi_tl_seg_at(tl, s); n < tl->nsegs; n++) {
        const struct pmpi_tl_seg *g = &tl->segs[n];
        if (g->t0 >= e)
            break;
        double d = (g->t1 < e ? g->t1 : e) - (g->t0 > s ? g->t0 : s);
        if (d <= 0)
            continue;
        if (PMPI_ACT_TYPE(g->key) == PMPI_ACT_WAIT) {
            if (!sites)
                continue;
            if (r->nwl && r->wl[r->nwl - 1].call == g->call) {
                r->wl[r->nwl - 1].ns += d;
                continue;
            }
            void *p = grow(r->wl, &r->capwl, r->nwl + 1, sizeof *r->wl);
            if (!p)
                return -1;
            r->wl = p;
            r->wl[r->nwl].call = g->call;
            r->wl[r->nwl++].ns = d;
            continue;
        }
        struct keyed *k = kt_get(t, g->key);
        if (!k)
            return -1;
        k->ns += d;
        if (sites && d > k->longest) {
            const struct pmpi_tl_call *c = &tl->calls[g->call];
            k->longest = d, k->site = c->site, k->before = c->call;
        }
    }
    return 0;
}

/* ---- the queries: each wait's interval fixed with its cause rank ---- */

/* The meetings before call b that may be with rank c, latest first: the last messages
 * between them and collectives on other communicators (c may be in them), at most
 * QCAND - 1, then the last world collective (every rank's: where the others were not
 * c's, the interval starts there rather than at the ranks' first calls). */
static int candidates(const struct replay *r, int64_t b, int c, struct pmpi_sync *out)
{
    const struct pmpi_timeline *tl = &r->tl;
    int n = 0;
    for (int64_t j = b - 1; j >= 0 && j >= b - SCAN; j--) {
        const struct pmpi_sync *s = &tl->calls[j].sync;
        if (s->type == PMPI_SYNC_WORLD) { /* every rank's: the last one needed */
            out[n++] = *s;
            break;
        }
        if (n == QCAND - 1 || s->type == PMPI_SYNC_NONE ||
            (s->type == PMPI_SYNC_P2P && pmpi_tl_partner(r->w, s) != c))
            continue;
        out[n++] = *s;
    }
    return n;
}

static int with_cause(const struct replay *r, const struct pmpi_tl_call *c)
{
    return c->wait > 0 && c->cause_rank >= 0 && c->cause_rank < r->P && c->cause_rank != r->me;
}

/* The queries out, the answers back (two sparse exchanges, every rank taking part
 * whatever its memory: its workspace came before the replay's agreement); this rank's
 * expected messages from the queries it got. */
static void queries(struct replay *r, struct pmpi_sparse_ws *ws, int *cnt, char *flags)
{
    int P = r->P;
    const struct pmpi_timeline *tl = &r->tl;
    int *dis = cnt + P, *rcnt = cnt + 2 * P, *rdis = cnt + 3 * P, *fill = cnt + 4 * P;
    long long nq = 0;
    for (long long b = 0; r->ok && b < tl->ncalls; b++)
        if (with_cause(r, &tl->calls[b]))
            nq++;
    r->q = malloc((size_t)(nq ? nq : 1) * sizeof *r->q);
    r->q_call = malloc((size_t)(nq ? nq : 1) * sizeof *r->q_call);
    r->ans = malloc((size_t)(nq ? nq : 1) * sizeof *r->ans);
    if (!r->q || !r->q_call || !r->ans)
        r->ok = 0;
    r->nq = r->ok ? nq : 0; /* a rank short of memory asks nothing, still answers */
    for (long long b = 0; b < tl->ncalls && r->nq; b++)
        if (with_cause(r, &tl->calls[b]))
            cnt[tl->calls[b].cause_rank]++;
    pmpi_sparse_displacements(P, cnt, dis);
    for (long long b = 0; b < tl->ncalls && r->nq; b++) {
        const struct pmpi_tl_call *c = &tl->calls[b];
        if (!with_cause(r, c))
            continue;
        long long at = dis[c->cause_rank] + fill[c->cause_rank]++;
        struct query *q = &r->q[at];
        memset(q, 0, sizeof *q);
        q->cause_rec = c->cause_rec;
        q->ncand = candidates(r, b, c->cause_rank, q->cand);
        r->q_call[at] = b;
    }
    int nfrom = 0;
    const int *pattern[1] = {cnt};
    pmpi_sparse_senders(r->comm, ws, 1, pattern, &nfrom);
    void *rb = NULL;
    int ok = nfrom >= 0 && pmpi_sparse_exchange(r->comm, ws, TAG_QUERIES, sizeof(struct query), cnt,
                                                dis, r->q ? (void *)r->q : (void *)flags, NULL,
                                                NULL, nfrom, rcnt, rdis, &rb);
    struct query *in = rb;
    long long nin = 0;
    char *sent = flags, *got = flags + P;
    for (int k = 0; k < P; k++) {
        nin += rcnt[k];
        sent[k] = cnt[k] > 0; /* who answers here */
        got[k] = rcnt[k] > 0; /* whom this rank answers */
    }
    struct answer *out = malloc((size_t)(nin ? nin : 1) * sizeof *out);
    r->ex = malloc((size_t)(nin ? nin : 1) * sizeof *r->ex);
    r->ex_order = malloc((size_t)(nin ? nin : 1) * sizeof *r->ex_order);
    if (!ok || !in || !out || !r->ex || !r->ex_order) {
        ok = 0;
        memset(rcnt, 0, (size_t)P * sizeof *rcnt); /* answers none: the askers see it */
        nin = 0;
    }
    for (int k = 0, at = 0; k < P; k++)
        for (int m = 0; m < rcnt[k]; m++, at++) {
            const struct query *qq = &in[at];
            struct expected *e = &r->ex[at];
            struct answer *a = &out[at];
            int64_t ci = pmpi_tl_cause_call(tl, qq->cause_rec);
            *a = (struct answer){at, -2, 0, 0, 0};
            *e = (struct expected){ci, -1, k, 0, 0, 0, 0};
            if (ci < 0) { /* another thread's record: no message comes */
                e->got = 1;
                r->nex_got++;
                continue;
            }
            a->chosen = -1;
            a->rt0 = tl->calls[ci].t0, a->rt1 = tl->calls[ci].t1;
            for (int x = 0; x < qq->ncand && x < QCAND; x++) {
                int64_t kk = pmpi_tl_met(tl, &qq->cand[x]);
                if (kk >= 0 && kk < ci) {
                    a->chosen = x, e->k = kk;
                    break;
                }
            }
        }
    r->nex = nin;
    pmpi_sparse_displacements(P, rcnt, rdis);
    void *back = NULL;
    ok &= pmpi_sparse_exchange(r->comm, ws, TAG_ANSWERS, sizeof(struct answer), rcnt, rdis,
                               out ? (void *)out : (void *)flags, got, sent, 0, cnt, dis, &back);
    long long nback = 0;
    for (int k = 0; back && k < P; k++)
        nback += cnt[k];
    if (back && nback == r->nq)
        memcpy(r->ans, back, (size_t)nback * sizeof *r->ans);
    else {
        ok = 0;
        for (long long i = 0; i < r->nq; i++)
            r->ans[i].chosen = -2;
    }
    r->ok &= ok;
    free(back);
    free(out);
    free(in);
}

static const struct expected *sort_ex; /* by_ci_desc's (the replay runs on one thread) */
static int by_ci_desc(const void *a, const void *b)
{
    int64_t x = sort_ex[*(const int64_t *)a].ci, y = sort_ex[*(const int64_t *)b].ci;
    return x > y ? -1 : x < y;
}

/* ---- the replay ---- */

static int passed_add(struct replay *r, int64_t call, const struct flow *f)
{
    int64_t at;
    if (r->free_pool >= 0) {
        at = r->free_pool;
        r->free_pool = r->pool[at].next;
    } else {
        void *p = grow(r->pool, &r->cappool, r->npool + 1, sizeof *r->pool);
        if (!p)
            return -1;
        r->pool = p;
        at = r->npool++;
    }
    r->pool[at].f = *f;
    r->pool[at].f.direct = 0;
    r->pool[at].next = r->head[call];
    r->head[call] = at;
    return 0;
}

static int flow_cmp(const void *a, const void *b)
{
    const struct flow *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    if (x->call != y->call)
        return x->call < y->call ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return (int)y->direct - (int)x->direct;
}

static int by_ns_desc(const void *a, const void *b)
{
    const struct flow *x = a, *y = b;
    return x->ns > y->ns ? -1 : x->ns < y->ns;
}

/* More origins than FLOW_CAP: the largest kept, the others folded into one origin per
 * kind, call and kind of cost, of rank -1 ("other ranks", its waiting not counted in
 * the rows' waited_s): a message stays bounded whatever the ranks a wait's time came
 * from. The time is kept whole. Returns the flows left. */
static long long fold(struct flow *f, long long n)
{
    qsort(f, (size_t)n, sizeof *f, by_ns_desc);
    long long m = FLOW_CAP - FOLDED;
    for (long long i = FLOW_CAP - FOLDED; i < n; i++) {
        struct flow g = f[i];
        g.rank = -1, g.waited = 0;
        long long k = FLOW_CAP - FOLDED;
        while (k < m && flow_cmp(&f[k], &g) != 0)
            k++;
        if (k < m)
            f[k].ns += g.ns;
        else if (m < FLOW_CAP)
            f[m++] = g;
        else /* more kinds of folded origin than room: onto the last */
            f[m - 1].ns += g.ns;
    }
    qsort(f, (size_t)m, sizeof *f, flow_cmp);
    return m;
}

/* A wait's flow: its own time (direct) and what was passed to it, one entry per origin
 * and kind of cost; its total in *total. */
static long long flow_of(struct replay *r, int64_t b, double *total)
{
    const struct pmpi_tl_call *c = &r->tl.calls[b];
    long long n = 0;
    for (int64_t at = r->head[b]; at >= 0; at = r->pool[at].next)
        n++;
    void *p = grow(r->flows, &r->capflows, n + 1, sizeof *r->flows);
    if (!p)
        return -1;
    r->flows = p;
    r->flows[0] = (struct flow){
        r->me, c->call, c->kind, 1, r->waits_by[(size_t)c->kind * PMPI_NCALLS + c->call], c->wait};
    n = 1;
    for (int64_t at = r->head[b], next; at >= 0; at = next) {
        next = r->pool[at].next;
        r->flows[n++] = r->pool[at].f;
        r->pool[at].next = r->free_pool;
        r->free_pool = at;
    }
    r->head[b] = -1;
    qsort(r->flows, (size_t)n, sizeof *r->flows, flow_cmp);
    long long m = 0;
    *total = 0;
    for (long long i = 0; i < n; i++) {
        *total += r->flows[i].ns;
        if (m && flow_cmp(&r->flows[m - 1], &r->flows[i]) == 0)
            r->flows[m - 1].ns += r->flows[i].ns;
        else
            r->flows[m++] = r->flows[i];
    }
    return m > FLOW_CAP ? fold(r->flows, m) : m;
}

/* A wait this rank caused (entry e): its flow spread over this rank's excess and waits
 * in the interval. */
static void take(struct replay *r, const struct msg_head *h, const struct act *acts,
                 const struct flow *flows)
{
    if (h->entry < 0 || h->entry >= r->nex || r->ex[h->entry].got) {
        r->ok = 0;
        return;
    }
    struct expected *e = &r->ex[h->entry];
    r->last_entry = h->entry;
    if (h->lost) { /* its sender lost it: counted, the result dropped */
        e->got = 1;
        r->nex_got++;
        r->ok = 0;
        return;
    }
    const struct pmpi_timeline *tl = &r->tl;
    e->got = 1;
    r->nex_got++;
    if (h->critical) {
        e->critical = 1, e->target = h->target;
        r->path.crit = h->entry;
    }
    double total = 0;
    for (int i = 0; i < h->nflow; i++)
        total += flows[i].ns;
    double s = e->k >= 0 ? tl->calls[e->k].t1 : tl->calls[0].t0, end = tl->calls[e->ci].t0;
    if (interval(r, s, end, &r->theirs, 1) != 0) {
        r->ok = 0;
        return;
    }
    double delay = 0;
    for (long long i = 0; i < r->theirs.n; i++) {
        struct keyed *k = &r->theirs.v[i];
        double mine = 0;
        for (int a = 0; a < h->nact; a++)
            if (acts[a].key == k->key)
                mine = acts[a].ns;
        k->ns = k->ns > mine ? k->ns - mine : 0; /* the excess */
        delay += k->ns;
    }
    for (long long i = 0; i < r->nwl; i++)
        delay += r->wl[i].ns;
    if (delay <= 0) {
        r->residual += total;
        return;
    }
    for (long long i = 0; i < r->theirs.n; i++) {
        const struct keyed *k = &r->theirs.v[i];
        if (k->ns <= 0)
            continue;
        struct keyed *site = kt_get(&r->sites, k->key);
        if (!site) {
            r->ok = 0;
            return;
        }
        if (!site->set)
            site->set = 1, site->site = k->site, site->before = k->before;
        for (int f = 0; f < h->nflow; f++) {
            struct cost *c = cost_get(&r->costs, k->key, &flows[f]);
            if (!c) {
                r->ok = 0;
                return;
            }
            *(flows[f].direct ? &c->direct : &c->prop) += flows[f].ns * k->ns / delay;
        }
    }
    for (long long i = 0; i < r->nwl; i++)
        for (int f = 0; f < h->nflow; f++) {
            struct flow g = flows[f];
            g.ns = flows[f].ns * r->wl[i].ns / delay;
            if (passed_add(r, r->wl[i].call, &g) != 0) {
                r->ok = 0;
                return;
            }
        }
}

/* One message in, whichever rank sent it. */
static void receive(struct replay *r)
{
    MPI_Message m;
    MPI_Status st;
    int bytes = 0;
    /* a chain of waits is replayed one message after another: a short sleep between
     * probes (measured: 16 ranks on 2 cores, 300 rounds of a ring, the replay 0.55 s
     * with 20 us against 1.26 s with the finalize steps' sleeps of up to 1 ms) */
    if (pmpi_idle_mprobe_nap(MPI_ANY_SOURCE, TAG_REPLAY, r->comm, &m, &st, REPLAY_NAP_NS) !=
            MPI_SUCCESS ||
        PMPI_Get_count(&st, MPI_BYTE, &bytes) != MPI_SUCCESS) {
        r->ok = 0;
        r->nex_got = r->nex; /* nothing more can be received */
        return;
    }
    void *p = grow(r->rbuf, &r->caprbuf, bytes > 0 ? bytes : 1, 1);
    if (!p) { /* taken and dropped */
        struct msg_head h;
        PMPI_Mrecv(&h, sizeof h, MPI_BYTE, &m, MPI_STATUS_IGNORE);
        r->ok = 0;
        if (h.entry >= 0 && h.entry < r->nex && !r->ex[h.entry].got)
            r->ex[h.entry].got = 1, r->nex_got++, r->last_entry = h.entry;
        return;
    }
    r->rbuf = p;
    PMPI_Mrecv(r->rbuf, bytes, MPI_BYTE, &m, MPI_STATUS_IGNORE);
    struct msg_head h;
    memcpy(&h, r->rbuf, sizeof h);
    size_t need =
        sizeof h + (size_t)h.nact * sizeof(struct act) + (size_t)h.nflow * sizeof(struct flow);
    if ((size_t)bytes < need || h.nact < 0 || h.nflow < 0)
        h.lost = 1;
    take(r, &h, (const struct act *)(r->rbuf + sizeof h),
         (const struct flow *)(r->rbuf + sizeof h + (size_t)h.nact * sizeof(struct act)));
}

/* Room for one more message in flight: 0, or -1 without memory. */
static int reqs_room(struct replay *r)
{
    if (r->nreq < r->capreq)
        return 0;
    long long cap = r->capreq ? 2 * r->capreq : 64;
    MPI_Request *q = realloc(r->req, (size_t)cap * sizeof *q);
    if (q)
        r->req = q;
    void **b = q ? realloc(r->buf, (size_t)cap * sizeof *b) : NULL;
    if (b)
        r->buf = b;
    if (!q || !b)
        return -1;
    r->capreq = cap;
    return 0;
}

/* Frees the buffers of the messages that went out. */
static void reap(struct replay *r, int all)
{
    if (!r->nreq)
        return;
    if (all) {
        for (long long i = 0; i < r->nreq; i++)
            pmpi_idle_wait(&r->req[i], MPI_STATUS_IGNORE);
    } else {
        long long m = 0;
        for (long long i = 0; i < r->nreq; i++) {
            int done = 0;
            PMPI_Test(&r->req[i], &done, MPI_STATUS_IGNORE);
            if (done) {
                free(r->buf[i]);
                continue;
            }
            r->req[m] = r->req[i], r->buf[m++] = r->buf[i];
        }
        r->nreq = m;
        return;
    }
    for (long long i = 0; i < r->nreq; i++)
        free(r->buf[i]);
    r->nreq = 0;
}

/* The path's time on this rank: key from t0 to t1. */
static void path_add(struct replay *r, uint64_t key, double t0, double t1, uint64_t site,
                     int before)
{
    double ns = t1 - t0;
    if (ns <= 0)
        return;
    struct keyed *k = kt_get(&r->path.by, key);
    if (!k) {
        r->ok = 0;
        return;
    }
    k->ns += ns;
    if (ns > k->longest)
        k->longest = ns, k->site = site, k->before = before;
}

/* The path walks back on this rank down to the wait of call stop (or the first segment,
 * stop -1), entering first where a message brought it here. Returns 1 when it stands at
 * stop's wait (the caller jumps from there). */
static int path_walk(struct replay *r, int64_t stop)
{
    struct path *p = &r->path;
    const struct pmpi_timeline *tl = &r->tl;
    if (!p->on && p->crit >= 0 && r->ex[p->crit].ci > stop) {
        const struct expected *e = &r->ex[p->crit];
        const struct pmpi_tl_call *rec = &tl->calls[e->ci];
        double target = e->target;
        if (target < rec->t0) /* the cause's clock puts the record after the wait's end */
            p->residual += rec->t0 - target, target = rec->t0;
        if (target > rec->t1)
            target = rec->t1;
        p->on = 1, p->t = target, p->n = pmpi_tl_seg_before(tl, e->ci, target);
        p->crit = -1;
    }
    if (!p->on)
        return 0;
    int64_t stop_seg = stop >= 0 ? tl->seg_of_call[stop] : -1;
    while (p->n >= 0) {
        const struct pmpi_tl_seg *g = &tl->segs[p->n];
        if (stop >= 0 && p->n == stop_seg && PMPI_ACT_TYPE(g->key) == PMPI_ACT_WAIT)
            return 1;
        if (stop >= 0 && p->n < stop_seg)
            return 0; /* stop's wait had no segment: walked past */
        double upto = g->t1 < p->t ? g->t1 : p->t;
        const struct pmpi_tl_call *c = &tl->calls[g->call];
        path_add(r, g->key, g->t0, upto, c->site, c->call);
        p->t = g->t0;
        p->n--;
    }
    if (stop < 0 && !p->ended) { /* the path's start: this rank's first segment */
        p->ended = 1, p->start = p->t;
        path_add(r, PMPI_ACT_KEY(PMPI_ACT_START, 0, 0), r->first, p->t, 0, -1);
        p->on = 0;
    }
    return 0;
}

/* This rank's wait at call b: its flow to its cause (with the path, where it leaves from
 * here), or to the residual. */
static void own_wait(struct replay *r, int64_t b, long long qi)
{
    const struct pmpi_timeline *tl = &r->tl;
    const struct pmpi_tl_call *c = &tl->calls[b];
    int at_stop = path_walk(r, b);
    double total = 0;
    long long nflow = flow_of(r, b, &total);
    r->waits += c->wait;
    const struct answer *a = qi >= 0 ? &r->ans[qi] : NULL;
    if (nflow < 0 || !a || a->chosen < -1) {
        if (nflow < 0)
            r->ok = 0;
        if (nflow < 0 && a && a->chosen >= -1) { /* the cause waits for it: said lost */
            struct msg_head lost = {a->entry, 0, 0, 0, 1, 0};
            PMPI_Send(&lost, sizeof lost, MPI_BYTE, c->cause_rank, TAG_REPLAY, r->comm);
            r->sent++;
        }
        r->residual += nflow < 0 ? c->wait : total;
        if (at_stop) { /* no cause known: the path stays here, waiting */
            const struct pmpi_tl_seg *g = &tl->segs[r->path.n];
            double upto = g->t1 < r->path.t ? g->t1 : r->path.t;
            path_add(r, g->key, g->t0, upto, c->site, c->call);
            r->path.t = g->t0, r->path.n--;
        }
        return;
    }
    const struct query *q = &r->q[qi];
    double s = a->chosen >= 0 ? 0 : tl->calls[0].t0;
    if (a->chosen >= 0) {
        int64_t j = pmpi_tl_met(tl, &q->cand[a->chosen]);
        s = j >= 0 ? tl->calls[j].t1 : tl->calls[0].t0;
    }
    struct msg_head h = {a->entry, 0, (int32_t)nflow, 0, 0, 0};
    if (interval(r, s, c->t0, &r->mine, 0) != 0)
        h.lost = 1, r->ok = 0;
    else
        h.nact = (int32_t)r->mine.n;
    if (at_stop) { /* the path leaves for the cause, at the point waited for */
        const struct pmpi_tl_seg *g = &tl->segs[r->path.n];
        double upto = g->t1 < r->path.t ? g->t1 : r->path.t;
        double target = upto < a->rt0 ? a->rt0 : upto > a->rt1 ? a->rt1 : upto;
        if (upto > target) /* the record ended before the wait did: the transfer */
            path_add(r, PMPI_ACT_KEY(PMPI_ACT_MPI, c->call, 0), target, upto, c->site, c->call);
        h.critical = 1, h.target = target;
        r->path.on = 0;
    }
    size_t bytes =
        sizeof h + (size_t)h.nact * sizeof(struct act) + (size_t)nflow * sizeof(struct flow);
    char *m = h.lost ? NULL : malloc(bytes);
    if (!m || reqs_room(r) != 0) {
        free(m);
        h.lost = 1, h.nact = 0, h.nflow = 0;
        r->ok = 0;
        PMPI_Send(&h, sizeof h, MPI_BYTE, c->cause_rank, TAG_REPLAY, r->comm);
        r->sent++;
        return;
    }
    memcpy(m, &h, sizeof h);
    for (long long i = 0; i < h.nact; i++) {
        struct act x = {r->mine.v[i].key, r->mine.v[i].ns};
        memcpy(m + sizeof h + (size_t)i * sizeof x, &x, sizeof x);
    }
    memcpy(m + sizeof h + (size_t)h.nact * sizeof(struct act), r->flows,
           (size_t)nflow * sizeof(struct flow));
    r->buf[r->nreq] = m;
    if (PMPI_Isend(m, (int)bytes, MPI_BYTE, c->cause_rank, TAG_REPLAY, r->comm, &r->req[r->nreq]) !=
        MPI_SUCCESS) {
        free(m);
        r->ok = 0;
    } else
        r->nreq++;
    r->sent++;
    if (r->nreq >= 64)
        reap(r, 0);
}

/* ---- the report's rows ---- */

/* Ranks as runs, "1-3,7", cut with "..." where they do not fit. */
static void ranks_text(const int *ranks, long long n, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = 0;
    for (long long i = 0; i < n;) {
        long long j = i;
        while (j + 1 < n && ranks[j + 1] == ranks[j] + 1)
            j++;
        char run[32];
        int m = j > i ? snprintf(run, sizeof run, "%s%d-%d", len ? "," : "", ranks[i], ranks[j])
                      : snprintf(run, sizeof run, "%s%d", len ? "," : "", ranks[i]);
        if (len + (size_t)m + 4 >= cap) {
            snprintf(out + len, cap - len, ",...");
            return;
        }
        memcpy(out + len, run, (size_t)m + 1);
        len += (size_t)m;
        i = j + 1;
    }
}

static const char *region_name(uint64_t hash)
{
    const struct pmpi_regions *reg = pmpi_regions();
    for (int k = 0; k < reg->nregions && k < PMPI_MAX_REGIONS; k++)
        if (pmpi_tl_region_hash(reg->regions[k].name) == hash)
            return reg->regions[k].name;
    return "?";
}

static const char *call_name(int call)
{
    return call >= 0 && call < PMPI_NCALLS ? pmpi_calls[call].name : "?";
}

/* What the report calls an activity (before: the call that ends a compute part). */
static void activity_text(uint64_t key, int before, char *out, size_t cap)
{
    uint64_t reg = PMPI_ACT_REGION(key);
    switch (PMPI_ACT_TYPE(key)) {
    case PMPI_ACT_COMPUTE:
        if (reg)
            snprintf(out, cap, "%s", region_name(reg));
        else if (before >= 0)
            snprintf(out, cap, "compute before %s", call_name(before));
        else
            snprintf(out, cap, "compute");
        break;
    case PMPI_ACT_MPI:
        if (reg)
            snprintf(out, cap, "%s (in %s)", call_name(PMPI_ACT_CALL(key)), region_name(reg));
        else
            snprintf(out, cap, "%s", call_name(PMPI_ACT_CALL(key)));
        break;
    case PMPI_ACT_WAIT:
        snprintf(out, cap, "waiting in %s", call_name(PMPI_ACT_CALL(key)));
        break;
    default:
        snprintf(out, cap, "start-up (before the first record)");
    }
}

static int cost_order(const void *a, const void *b)
{
    const struct cost *x = a, *y = b;
    if (x->used != y->used)
        return x->used ? -1 : 1;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    if (x->call != y->call)
        return x->call < y->call ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static int row_order(const void *a, const void *b)
{
    const struct pmpi_cause_row *x = a, *y = b;
    double tx = x->direct + x->prop, ty = y->direct + y->prop;
    if (tx != ty)
        return tx > ty ? -1 : 1;
    return x->cause_rank < y->cause_rank ? -1 : x->cause_rank > y->cause_rank;
}

/* This rank's rows (its activities as causes), the largest PMPI_CAUSE_ROWS, in out[]. */
static int cause_rows(struct replay *r, struct pmpi_cause_row *out)
{
    struct costtab *t = &r->costs;
    if (!t->n)
        return 0;
    qsort(t->v, (size_t)t->cap, sizeof *t->v, cost_order); /* the used first, grouped */
    int *ranks = malloc((size_t)t->n * sizeof *ranks);
    struct pmpi_cause_row *all = malloc((size_t)t->n * sizeof *all);
    int nall = 0;
    if (!ranks || !all) {
        free(ranks);
        free(all);
        r->ok = 0;
        return 0;
    }
    for (long long i = 0, j; i < t->n; i = j) {
        struct pmpi_cause_row *row = &all[nall++];
        memset(row, 0, sizeof *row);
        long long nr = 0;
        int others = 0;
        for (j = i; j < t->n && t->v[j].key == t->v[i].key && t->v[j].kind == t->v[i].kind &&
                    t->v[j].call == t->v[i].call;
             j++) {
            row->direct += t->v[j].direct;
            row->prop += t->v[j].prop;
            row->waited += t->v[j].waited;
            if (t->v[j].rank >= 0)
                ranks[nr++] = t->v[j].rank;
            else
                others = 1;
        }
        row->cause_rank = r->me;
        row->call = t->v[i].call;
        row->kind = t->v[i].kind;
        row->pad = 0;
        ranks_text(ranks, nr, row->ranks, sizeof row->ranks);
        if (others) /* folded origins: other ranks too */
            strncat(row->ranks, nr ? ",others" : "others",
                    sizeof row->ranks - strlen(row->ranks) - 1);
        /* the key and its site: named below, for the rows kept */
        memcpy(row->site, &t->v[i].key, sizeof t->v[i].key);
    }
    qsort(all, (size_t)nall, sizeof *all, row_order);
    int n = nall < PMPI_CAUSE_ROWS ? nall : PMPI_CAUSE_ROWS;
    for (int i = 0; i < n; i++) {
        uint64_t key;
        memcpy(&key, all[i].site, sizeof key);
        struct keyed *s = kt_get(&r->sites, key);
        out[i] = all[i];
        activity_text(key, s ? s->before : -1, out[i].cause, sizeof out[i].cause);
        pmpi_site_name_of(s ? s->site : 0, out[i].site);
    }
    free(ranks);
    free(all);
    return n;
}

/* Rank 0 gets every rank's bytes (its own first) into *all, their total in *total. */
static void gather(struct replay *r, const void *mine, int n, char **all, long long *total)
{
    int *cnt = NULL, *dis = NULL;
    *all = NULL;
    *total = 0;
    if (r->me == 0) {
        cnt = calloc((size_t)r->P, sizeof *cnt);
        dis = calloc((size_t)r->P, sizeof *dis);
    }
    MPI_Request req; /* the collectives wait asleep, as the finalize steps' (idle_wait.h) */
    pmpi_idle_complete(PMPI_Igather(&n, 1, MPI_INT, cnt, 1, MPI_INT, 0, r->comm, &req), &req);
    if (r->me == 0 && cnt && dis) {
        for (int k = 0; k < r->P; k++) {
            dis[k] = (int)*total;
            *total += cnt[k];
        }
        *all = malloc(*total ? (size_t)*total : 1);
        if (!*all)
            memset(cnt, 0, (size_t)r->P * sizeof *cnt);
    }
    pmpi_idle_complete(PMPI_Igatherv(mine, n, MPI_BYTE, *all, cnt, dis, MPI_BYTE, 0, r->comm, &req),
                       &req);
    if (!*all)
        *total = 0;
    free(cnt);
    free(dis);
}

static int path_order(const void *a, const void *b)
{
    const struct pmpi_path_row *x = a, *y = b;
    int rx, ry;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    memcpy(&rx, x->ranks, sizeof rx);
    memcpy(&ry, y->ranks, sizeof ry);
    return rx < ry ? -1 : rx > ry;
}

static int path_by_time(const void *a, const void *b)
{
    const struct pmpi_path_row *x = a, *y = b;
    if (x->path != y->path)
        return x->path > y->path ? -1 : 1;
    return strcmp(x->activity, y->activity);
}

/* This rank's parts of the path, by activity (its rank in ranks[], for the merge). */
static int path_parts(struct replay *r, struct pmpi_path_row *out)
{
    const struct keytab *by = &r->path.by;
    for (long long i = 0; i < by->n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        out[i].key = by->v[i].key;
        out[i].path = by->v[i].ns;
        out[i].longest = by->v[i].longest;
        activity_text(by->v[i].key, by->v[i].before, out[i].activity, sizeof out[i].activity);
        pmpi_site_name_of(by->v[i].site, out[i].site);
        memcpy(out[i].ranks, &r->me, sizeof r->me);
    }
    return (int)by->n;
}

/* Rank 0: the path's parts of every rank merged by activity, the longest first. */
static int path_merge(struct pmpi_path_row *all, long long nall, struct pmpi_cause_result *res)
{
    qsort(all, (size_t)nall, sizeof *all, path_order);
    int *ranks = malloc((size_t)(nall ? nall : 1) * sizeof *ranks);
    long long m = 0;
    for (long long i = 0, j; ranks && i < nall; i = j) {
        struct pmpi_path_row row = all[i];
        long long nr = 0;
        row.path = 0;
        for (j = i; j < nall && all[j].key == all[i].key; j++) {
            row.path += all[j].path;
            if (all[j].longest > row.longest) {
                row.longest = all[j].longest;
                memcpy(row.site, all[j].site, sizeof row.site);
                memcpy(row.activity, all[j].activity, sizeof row.activity);
            }
            memcpy(&ranks[nr++], all[j].ranks, sizeof(int));
        }
        ranks_text(ranks, nr, row.ranks, sizeof row.ranks);
        all[m++] = row;
    }
    free(ranks);
    qsort(all, (size_t)m, sizeof *all, path_by_time);
    res->npath = m < PMPI_PATH_ROWS ? (int)m : PMPI_PATH_ROWS;
    memcpy(res->path, all, (size_t)res->npath * sizeof *all);
    return res->npath;
}

/* The reduction of the path's activities: their time per rank summed (the first
 * PMPI_PATH_ROWS), its maximum (the next), and the replay's time (the last: maximum).
 * The vector is one element of a contiguous type: an MPI may hand an operation any part
 * of a buffer of several elements (Open MPI's pipelined reductions do), never part of
 * one element. */
#define STATS (2 * PMPI_PATH_ROWS + 1)
static void stats_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int e = 0; e < *len; e++) {
        const double *a = (const double *)in + (size_t)e * STATS;
        double *b = (double *)inout + (size_t)e * STATS;
        for (int i = 0; i < STATS; i++)
            b[i] = i < PMPI_PATH_ROWS ? a[i] + b[i] : a[i] > b[i] ? a[i] : b[i];
    }
}

/* The rows on rank 0: each rank's largest causes and its parts of the path in one gather;
 * the path's activities named to every rank, each rank's time in them reduced with the
 * replay's time. */
static void rows(struct replay *r, struct pmpi_cause_result *res, int nseg_ranks, long long t_start)
{
    struct pmpi_cause_row causes[PMPI_CAUSE_ROWS];
    int nc = cause_rows(r, causes), np = (int)r->path.by.n;
    size_t bytes =
        2 * sizeof(int) + (size_t)nc * sizeof *causes + (size_t)np * sizeof(struct pmpi_path_row);
    char *mine = calloc(1, bytes);
    if (!mine)
        r->ok = 0, nc = np = 0, bytes = 0; /* sends nothing: rank 0 sees no rows of it */
    else {
        memcpy(mine, &nc, sizeof nc);
        memcpy(mine + sizeof nc, &np, sizeof np);
        memcpy(mine + 2 * sizeof(int), causes, (size_t)nc * sizeof *causes);
        np = path_parts(
            r, (struct pmpi_path_row *)(mine + 2 * sizeof(int) + (size_t)nc * sizeof *causes));
    }
    char *all = NULL;
    long long total = 0;
    gather(r, mine, (int)bytes, &all, &total);
    uint64_t keys[1 + PMPI_PATH_ROWS] = {0};
    if (r->me == 0 && all) {
        /* every rank's part: its two counts, its rows, its path parts */
        long long nrows = 0, nparts = 0;
        for (long long at = 0; at + 2 * (long long)sizeof(int) <= total;) {
            int c, q;
            memcpy(&c, all + at, sizeof c);
            memcpy(&q, all + at + sizeof c, sizeof q);
            nrows += c, nparts += q;
            at += 2 * (long long)sizeof(int) + c * (long long)sizeof *causes +
                  q * (long long)sizeof(struct pmpi_path_row);
        }
        struct pmpi_cause_row *rs = malloc((size_t)(nrows ? nrows : 1) * sizeof *rs);
        struct pmpi_path_row *ps = malloc((size_t)(nparts ? nparts : 1) * sizeof *ps);
        long long ir = 0, ip = 0;
        for (long long at = 0; rs && ps && at + 2 * (long long)sizeof(int) <= total;) {
            int c, q;
            memcpy(&c, all + at, sizeof c);
            memcpy(&q, all + at + sizeof c, sizeof q);
            at += 2 * (long long)sizeof(int);
            memcpy(rs + ir, all + at, (size_t)c * sizeof *rs);
            at += c * (long long)sizeof *rs, ir += c;
            memcpy(ps + ip, all + at, (size_t)q * sizeof *ps);
            at += q * (long long)sizeof *ps, ip += q;
        }
        if (rs && ps) {
            qsort(rs, (size_t)ir, sizeof *rs, row_order);
            res->nrows = ir < PMPI_CAUSE_ROWS ? (int)ir : PMPI_CAUSE_ROWS;
            memcpy(res->rows, rs, (size_t)res->nrows * sizeof *rs);
            keys[0] = (uint64_t)path_merge(ps, ip, res);
            for (int i = 0; i < res->npath; i++)
                keys[1 + i] = res->path[i].key;
        }
        free(rs);
        free(ps);
    }
    free(all);
    free(mine);
    MPI_Request req;
    pmpi_idle_complete(PMPI_Ibcast(keys, 1 + PMPI_PATH_ROWS, MPI_UINT64_T, 0, r->comm, &req), &req);
    int nkeys = keys[0] <= PMPI_PATH_ROWS ? (int)keys[0] : 0;
    double spent[STATS] = {0}, got[STATS] = {0};
    const struct pmpi_timeline *tl = &r->tl;
    for (int i = 0; i < nkeys; i++) {
        if (keys[1 + i] == PMPI_ACT_KEY(PMPI_ACT_START, 0, 0))
            spent[i] = tl->nsegs ? tl->segs[0].t0 - r->first : 0;
        else
            for (long long g = 0; g < tl->nsegs; g++)
                if (tl->segs[g].key == keys[1 + i])
                    spent[i] += tl->segs[g].t1 - tl->segs[g].t0;
        spent[PMPI_PATH_ROWS + i] = spent[i];
    }
    spent[STATS - 1] = (double)(pmpi_now_ns() - t_start) * 1e-9;
    MPI_Op op;
    MPI_Datatype vec;
    if (PMPI_Type_contiguous(STATS, MPI_DOUBLE, &vec) != MPI_SUCCESS)
        return;
    PMPI_Type_commit(&vec);
    if (PMPI_Op_create(stats_op, 1, &op) == MPI_SUCCESS) {
        pmpi_idle_complete(PMPI_Ireduce(spent, got, 1, vec, op, 0, r->comm, &req), &req);
        PMPI_Op_free(&op);
    }
    PMPI_Type_free(&vec);
    for (int i = 0; r->me == 0 && i < nkeys && i < res->npath; i++) {
        res->path[i].mean = got[i] / (nseg_ranks > 0 ? nseg_ranks : 1);
        res->path[i].max = got[PMPI_PATH_ROWS + i];
    }
    res->seconds = got[STATS - 1];
}

/* ---- the whole ---- */

int pmpi_causes_conserved(const struct pmpi_cause_result *r)
{
    double total = r->explained + r->residual;
    return fabs(total - r->waits) <= 1e-6 * (r->waits > 1 ? r->waits : 1);
}

/* The replay's state from pmpi_causes_prepare to the end of pmpi_causes_replay: one
 * replay, at MPI_Finalize. */
static struct replay rp;
static struct pmpi_sparse_ws rp_ws;
static int *rp_cnt;
static int64_t *rp_qi_of;
static char *rp_flags;
static int rp_ready;
static long long rp_end; /* this rank's end as agreed on, and its time */
static double rp_end_t;

static void replay_free(struct replay *r)
{
    pmpi_tl_free(&r->tl);
    free(r->waits_by);
    free(r->q);
    free(r->q_call);
    free(r->ans);
    free(r->ex);
    free(r->ex_order);
    free(r->pool);
    free(r->head);
    free(r->costs.v);
    free(r->sites.v);
    free(r->path.by.v);
    free(r->req);
    free(r->buf);
    free(r->mine.v);
    free(r->theirs.v);
    free(r->flows);
    free(r->wl);
    free(r->rbuf);
    memset(r, 0, sizeof *r);
    pmpi_sparse_ws_free(&rp_ws);
    free(rp_cnt);
    free(rp_qi_of);
    free(rp_flags);
    rp_cnt = NULL;
    rp_qi_of = NULL;
    rp_flags = NULL;
    rp_ready = 0;
}

/* Every own wait, latest first, each once the messages for the calls after it are in. */
static void replay_run(struct replay *r, int64_t *qi_of, int64_t *pos)
{
    const struct pmpi_timeline *tl = &r->tl;
    sort_ex = r->ex;
    for (long long i = 0; i < r->nex; i++)
        r->ex_order[i] = i;
    qsort(r->ex_order, (size_t)r->nex, sizeof *r->ex_order, by_ci_desc);
    for (long long i = 0; i < r->nex; i++)
        pos[r->ex_order[i]] = i;
    long long p = 0, pending = 0;
    for (int64_t b = tl->ncalls - 1; b >= 0; b--) {
        if (tl->calls[b].wait <= 0)
            continue;
        for (; p < r->nex && r->ex[r->ex_order[p]].ci > b; p++)
            pending += !r->ex[r->ex_order[p]].got;
        while (pending > 0 && r->nex_got < r->nex) {
            long long before = r->nex_got;
            r->last_entry = -1;
            receive(r);
            int64_t e = r->last_entry;
            if (e >= 0 && pos[e] < p && r->nex_got > before)
                pending--;
        }
        own_wait(r, b, qi_of[b]);
    }
    while (r->nex_got < r->nex)
        receive(r);
    path_walk(r, -1);
    reap(r, 1);
}

/* The agreed end names the rank that ended last: its end in units of 4 ns, then the
 * lowest rank among equal ends. */
static long long end_key(double end, int rank, int P)
{
    if (!isfinite(end) || end < 0)
        return -1;
    if (P > (1 << 17))
        return (long long)end;
    return ((long long)(end / 4) << 17) | ((1 << 17) - 1 - rank);
}

int pmpi_causes_prepare(const struct pmpi_wait_log *w, long long *first, long long *end)
{
    struct replay *r = &rp;
    memset(r, 0, sizeof *r);
    PMPI_Comm_size(MPI_COMM_WORLD, &r->P);
    int ok = pmpi_tl_alloc(&r->tl, w) == 0;
    long long nc = w->n > 0 ? w->n : 1;
    rp_cnt = calloc((size_t)r->P * 5, sizeof *rp_cnt);
    rp_flags = calloc((size_t)r->P * 2, 1);
    rp_qi_of = malloc((size_t)nc * sizeof(int64_t));
    r->waits_by = calloc((size_t)PMPI_WAIT_KINDS * PMPI_NCALLS, sizeof *r->waits_by);
    r->head = malloc((size_t)nc * sizeof *r->head);
    ok = ok && rp_cnt && rp_flags && rp_qi_of && r->waits_by && r->head &&
         pmpi_sparse_ws_alloc(&rp_ws, r->P, 1);
    double t0 = INFINITY, t1 = -INFINITY;
    for (long long i = 0; i < w->n; i++)
        if (pmpi_tl_is_call(&w->ev[i])) {
            if (!isfinite(t0))
                t0 = pmpi_wait_time(&w->clock, w->ev[i].t0);
            t1 = pmpi_wait_time(&w->clock, w->ev[i].t1);
        }
    *first = isfinite(t0) ? -(long long)t0 : LLONG_MIN;
    *end = rp_end = end_key(t1, w->rank, r->P);
    rp_end_t = t1;
    if (!ok)
        replay_free(r);
    rp_ready = ok;
    return ok;
}

void pmpi_causes_drop(void)
{
    if (rp_ready)
        replay_free(&rp);
}

/* The rows left out: why, on every rank. */
static struct pmpi_cause_result *not_computed(struct pmpi_cause_result *res, const char *why)
{
    res->computed = 0;
    res->why = why;
    replay_free(&rp);
    return res;
}

struct pmpi_cause_result *pmpi_causes_replay(const struct pmpi_wait_log *w, MPI_Comm comm, int done,
                                             long long first, long long end)
{
    static struct pmpi_cause_result res;
    struct replay *r = &rp;
    long long t_start = pmpi_now_ns();
    memset(&res, 0, sizeof res);
    if (!rp_ready) /* cannot be: every rank agreed it had prepared */
        return not_computed(&res, "the replay was not prepared");
    r->w = w;
    r->comm = comm;
    PMPI_Comm_rank(comm, &r->me);
    const struct pmpi_regions *reg = pmpi_regions();
    const char *names[PMPI_MAX_REGIONS];
    int nreg = reg->nregions < PMPI_MAX_REGIONS ? reg->nregions : PMPI_MAX_REGIONS;
    for (int k = 0; k < nreg; k++)
        names[k] = reg->regions[k].name;
    pmpi_tl_build(&r->tl, w, names, nreg);
    const struct pmpi_timeline *tl = &r->tl;
    if (first == LLONG_MIN) /* every rank's -first: no rank logged a call */
        return not_computed(&res, "no rank logged a call");
    r->ok = done;
    r->first = (double)-first;
    r->free_pool = -1;
    r->path.crit = -1;
    int64_t *qi_of = rp_qi_of;
    for (long long j = 0; j < tl->ncalls; j++) {
        r->head[j] = -1;
        qi_of[j] = -1;
        const struct pmpi_tl_call *c = &tl->calls[j];
        if (c->wait > 0)
            r->waits_by[(size_t)c->kind * PMPI_NCALLS + c->call] += c->wait;
    }
    if (tl->nsegs && end >= 0 && rp_end == end) { /* the rank that ended last */
        r->path.on = 1;
        r->path.n = tl->nsegs - 1;
        r->path.t = rp_end_t;
    }
    res.end = tl->nsegs && r->path.on ? r->path.t : 0;
    queries(r, &rp_ws, rp_cnt, rp_flags);
    for (long long i = 0; i < r->nq; i++)
        qi_of[r->q_call[i]] = i;
    int64_t *pos = malloc((size_t)(r->nex ? r->nex : 1) * sizeof *pos);
    if (!pos) { /* every message is still taken and sent: the result is dropped below */
        r->ok = 0;
        while (r->nex_got < r->nex)
            receive(r);
        for (int64_t b = tl->ncalls - 1; b >= 0; b--)
            if (tl->calls[b].wait > 0 && qi_of[b] >= 0)
                own_wait(r, b, qi_of[b]);
        reap(r, 1);
    } else
        replay_run(r, qi_of, pos);
    free(pos);
    /* the job's totals, whether every rank's replay was whole, the path's start and
     * end (one rank's each: summed) */
    double explained = 0, path_total = 0;
    for (long long i = 0; i < r->costs.cap; i++)
        if (r->costs.v[i].used)
            explained += r->costs.v[i].direct + r->costs.v[i].prop;
    for (long long i = 0; i < r->path.by.n; i++)
        path_total += r->path.by.v[i].ns;
    double sums[10] = {r->waits,
                       explained,
                       r->residual,
                       path_total,
                       r->path.residual,
                       (double)r->sent,
                       r->ok ? 0 : 1,
                       tl->nsegs > 0,
                       r->path.ended ? r->path.start - r->first : 0,
                       res.end ? res.end - r->first : 0},
           tot[10] = {0};
    MPI_Request req;
    if (pmpi_idle_complete(PMPI_Iallreduce(sums, tot, 10, MPI_DOUBLE, MPI_SUM, comm, &req), &req) !=
        MPI_SUCCESS)
        tot[6] = 1;
    res.waits = tot[0], res.explained = tot[1], res.residual = tot[2];
    res.path_total = tot[3], res.path_residual = tot[4], res.messages = (long long)tot[5];
    res.first = r->first, res.start = r->first + tot[8], res.end = r->first + tot[9];
    if (tot[6] > 0)
        return not_computed(&res,
                            "a rank ran out of memory or an MPI call failed during the replay");
    rows(r, &res, (int)tot[7], t_start);
    res.computed = 1;
    replay_free(r);
    return &res;
}
