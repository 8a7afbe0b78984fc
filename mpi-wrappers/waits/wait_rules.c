/* wait_rules.c: the wait rules on one rank's event log (wait_rules.h), no MPI.
 *
 * A record blocked in its own span, or, for a nonblocking call, in that of the Wait that
 * completed it; its wait is the part of that span before the moment it waited for (the
 * largest such part, of one kind, when several rules apply). Point-to-point: the
 * receiver pairs the k-th send of (sender, tag, communicator class) with its k-th
 * receive and finds its late-sender wait; the receive's post time answers the send, from
 * which a synchronous or rendezvous sender finds its late-receiver wait. Collectives: the
 * last arrival, the root's or the last non-root's, as the call's wait kind says
 * (mpi_calls.list's wait= column, wait_kinds.list). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "request_link.h"
#include "wait_rules.h"

/* One site's wait (sorted by key at the end, looked up by the call-site merge). */
struct pmpi_site_wait {
    uint64_t key;
    long long ns[PMPI_WAIT_KINDS];
};

double pmpi_wait_time(const struct pmpi_wait_clock *c, long long tick)
{
    double local = (double)c->t_init + (double)(tick - c->tick_init) * c->npt;
    double f = c->span_ns > 0 ? (local - (double)c->t_init) / c->span_ns : 0;
    return local - (c->off0 + (c->off1 - c->off0) * (f < 0 ? 0 : f > 1 ? 1 : f));
}

int pmpi_wait_log_cells(struct pmpi_wait_log *w)
{
    size_t cells = w->n > 0 ? (size_t)w->n : 1;
    w->waiter = malloc(cells * sizeof *w->waiter);
    w->wait = calloc(cells, sizeof *w->wait);
    w->kind = calloc(cells, 1);
    if (w->waiter && w->wait && w->kind)
        return 0;
    pmpi_wait_log_free(w);
    return -1;
}

void pmpi_wait_log_causes_free(struct pmpi_wait_log *w)
{
    free(w->sync);
    free(w->cause_rank);
    free(w->cause_rec);
    w->sync = NULL;
    w->cause_rank = NULL;
    w->cause_rec = NULL;
}

int pmpi_wait_log_causes(struct pmpi_wait_log *w)
{
    size_t cells = w->n > 0 ? (size_t)w->n : 1;
    w->sync = calloc(cells, sizeof *w->sync);
    w->cause_rank = malloc(cells * sizeof *w->cause_rank);
    w->cause_rec = malloc(cells * sizeof *w->cause_rec);
    if (!w->sync || !w->cause_rank || !w->cause_rec) {
        pmpi_wait_log_causes_free(w);
        return -1;
    }
    for (long long i = 0; i < w->n; i++)
        w->cause_rank[i] = -1, w->cause_rec[i] = -1;
    return 0;
}

void pmpi_wait_log_free(struct pmpi_wait_log *w)
{
    free(w->waiter);
    free(w->wait);
    free(w->kind);
    w->waiter = NULL;
    w->wait = NULL;
    w->kind = NULL;
    pmpi_wait_log_causes_free(w);
}

static double gtime(const struct pmpi_wait_log *w, long long tick)
{
    return pmpi_wait_time(&w->clock, tick);
}

/* The span a record blocked in: its own, or that of the Wait that completed it. */
static int64_t blocker(const struct pmpi_wait_log *w, int64_t i)
{
    return w->ev[i].req ? w->waiter[i] : i;
}

/* Wait in record b (its span) until moment t (rank 0's clock), made by record crec of
 * rank crank (-1: unknown): kept where longer than the wait b has, with its cause. */
static void add_wait(struct pmpi_wait_log *w, int64_t b, double t, int kind, int crank,
                     int64_t crec)
{
    if (b < 0)
        return;
    double s = gtime(w, w->ev[b].t0), e = gtime(w, w->ev[b].t1);
    double d = (t < e ? t : e) - s;
    if (d > w->wait[b]) {
        w->wait[b] = d;
        w->kind[b] = (uint8_t)kind;
        if (w->cause_rank)
            w->cause_rank[b] = crank, w->cause_rec[b] = crec;
    }
}

/* Record i's meeting, on the record that completed it (itself, or its Wait where one
 * did). */
static void set_sync(struct pmpi_wait_log *w, int64_t i, int type, int32_t a, int64_t b)
{
    if (!w->sync)
        return;
    int64_t at = w->ev[i].req && w->waiter[i] >= 0 ? w->waiter[i] : i;
    w->sync[at] = (struct pmpi_sync){type, a, b};
}

void pmpi_wait_link(struct pmpi_wait_log *w, int any_tag)
{
    int64_t *link = malloc((w->n > 0 ? (size_t)w->n : 1) * sizeof *link);
    for (long long i = 0; i < w->n; i++)
        w->waiter[i] = -1;
    if (!link || pmpi_link_requests(w->ev, w->n, link) != 0) {
        free(link);
        return;
    }
    for (long long i = 0; i < w->n; i++) {
        const struct pmpi_event *e = &w->ev[i];
        if (e->kind != PMPI_EV_WAIT || link[i] < 0)
            continue;
        struct pmpi_event *m = &w->ev[link[i]];
        w->waiter[link[i]] = i;
        if (m->kind == PMPI_EV_RECV && (m->flags & PMPI_EVF_WORLD)) {
            if (m->peer < 0 && e->peer >= 0)
                m->peer = e->peer;
            if (m->tag == any_tag && e->tag >= 0)
                m->tag = e->tag;
        }
    }
    for (long long i = 0; i < w->n; i++) /* a send's meeting is its own record */
        if (w->ev[i].kind == PMPI_EV_SEND)
            set_sync(w, i, PMPI_SYNC_P2P, w->rank, i);
    free(link);
}

long long pmpi_wait_sends_count(const struct pmpi_wait_log *w, int P, int *cnt, long long *nrecv)
{
    long long nsend = 0;
    *nrecv = 0;
    for (long long i = 0; i < w->n; i++) {
        const struct pmpi_event *e = &w->ev[i];
        if (e->kind == PMPI_EV_SEND && e->peer >= 0 && e->peer < P) {
            cnt[e->peer]++;
            nsend++;
        }
        if (e->kind == PMPI_EV_RECV)
            (*nrecv)++;
    }
    return nsend;
}

void pmpi_wait_sends_fill(const struct pmpi_wait_log *w, int P, const int *dis, int *fill,
                          struct pmpi_send_info *out)
{
    for (long long i = 0; i < w->n; i++) {
        const struct pmpi_event *e = &w->ev[i];
        if (e->kind != PMPI_EV_SEND || e->peer < 0 || e->peer >= P)
            continue;
        out[dis[e->peer] + fill[e->peer]++] =
            (struct pmpi_send_info){e->tag, e->flags, i, gtime(w, e->t0), e->bytes};
    }
}

static int by_src_tag(const void *a, const void *b)
{
    const int64_t *x = a, *y = b; /* {src, tag, world, order, idx} */
    for (int k = 0; k < 4; k++)
        if (x[k] != y[k])
            return x[k] < y[k] ? -1 : 1;
    return 0;
}

/* The keys (src, tag, world, order, index): of the sends received, of this rank's
 * receives (those without a partner or tag counted unmatched); *nr the receives keyed. */
static long long match_keys(struct pmpi_wait_log *w, int P, const struct pmpi_send_info *in,
                            const int *rcnt, const int *rdis, int64_t *sk, int64_t *rk,
                            long long *nr, struct pmpi_wait_result *res)
{
    long long ns = 0;
    *nr = 0;
    for (int r = 0; r < P; r++)
        for (int k = 0; k < rcnt[r]; k++, ns++) {
            const struct pmpi_send_info *s = &in[rdis[r] + k];
            int64_t *q = &sk[5 * ns];
            q[0] = r, q[1] = s->tag, q[2] = !!(s->flags & PMPI_EVF_WORLD), q[3] = k,
            q[4] = rdis[r] + k;
        }
    for (long long i = 0; i < w->n; i++) {
        const struct pmpi_event *e = &w->ev[i];
        if (e->kind != PMPI_EV_RECV)
            continue;
        if (e->peer < 0 || e->peer >= P || e->tag < 0) {
            res->p2p_unmatched++;
            continue;
        }
        int64_t *q = &rk[5 * *nr];
        q[0] = e->peer, q[1] = e->tag, q[2] = !!(e->flags & PMPI_EVF_WORLD), q[3] = i, q[4] = i;
        (*nr)++;
    }
    return ns;
}

long long pmpi_wait_receives_match(struct pmpi_wait_log *w, int P, const struct pmpi_send_info *in,
                                   const int *rcnt, const int *rdis, int64_t *sk, int64_t *rk,
                                   struct pmpi_recv_answer *ans, int *acnt,
                                   struct pmpi_wait_result *res)
{
    long long nr, ns = match_keys(w, P, in, rcnt, rdis, sk, rk, &nr, res);
    qsort(sk, (size_t)ns, 5 * sizeof *sk, by_src_tag);
    qsort(rk, (size_t)nr, 5 * sizeof *rk, by_src_tag);
    long long a = 0, b = 0, na = 0;
    while (a < ns && b < nr) {
        int c = by_src_tag(&sk[5 * a], &rk[5 * b]);
        int same = sk[5 * a] == rk[5 * b] && sk[5 * a + 1] == rk[5 * b + 1] &&
                   sk[5 * a + 2] == rk[5 * b + 2];
        if (!same) {
            if (c < 0)
                a++;
            else {
                res->p2p_unmatched++;
                b++;
            }
            continue;
        }
        const struct pmpi_send_info *s = &in[sk[5 * a + 4]];
        int64_t ri = rk[5 * b + 4];
        int sender = (int)sk[5 * a];
        add_wait(w, blocker(w, ri), s->t0, PMPI_WAIT_LATE_SENDER, sender, s->idx);
        set_sync(w, ri, PMPI_SYNC_P2P, sender, s->idx);
        ans[na++] = (struct pmpi_recv_answer){s->idx, gtime(w, w->ev[ri].t0), ri, w->rank, 0};
        acnt[sk[5 * a]]++;
        res->p2p_matched++;
        a++, b++;
    }
    res->p2p_unmatched += nr - b;
    return na;
}

void pmpi_wait_sends_answered(struct pmpi_wait_log *w, const struct pmpi_recv_answer *back,
                              long long n)
{
    for (long long k = 0; k < n; k++) {
        int64_t i = back[k].idx;
        if (i < 0 || i >= w->n || w->ev[i].kind != PMPI_EV_SEND)
            continue;
        if ((w->ev[i].flags & PMPI_EVF_SYNC) || w->ev[i].bytes >= PMPI_RENDEZVOUS_BYTES)
            add_wait(w, blocker(w, i), back[k].t0, PMPI_WAIT_LATE_RECEIVER, back[k].rank,
                     back[k].ridx);
    }
}

/* What a collective record waits for (its wait= column in mpi_calls.list,
 * wait_kinds.list): -1 nothing (none, or this rank is the one waited for), else the wait
 * kind, and which arrival in *arrival (PMPI_ARR_ALL, _ROOT, _NONROOT). */
static int coll_wait(const struct pmpi_event *e, int *arrival)
{
    int k = e->call < PMPI_NCALLS ? pmpi_calls[e->call].wait : -1;
    if (k < 0)
        return -1;
    *arrival = pmpi_wait_arrival[k];
    if ((*arrival == PMPI_ARR_ROOT && (e->flags & PMPI_EVF_ROOT)) ||
        (*arrival == PMPI_ARR_NONROOT && !(e->flags & PMPI_EVF_ROOT)))
        return -1;
    return k;
}

static int world_coll(const struct pmpi_event *e)
{
    return e->kind == PMPI_EV_COLL && !(e->flags & PMPI_EVF_GROUP);
}

int pmpi_wait_coll_count(const struct pmpi_wait_log *w)
{
    int nseq = 0;
    for (long long i = 0; i < w->n; i++)
        if (world_coll(&w->ev[i]) && w->ev[i].tag >= nseq)
            nseq = w->ev[i].tag + 1;
    return nseq;
}

void pmpi_wait_coll_arrivals(const struct pmpi_wait_log *w, int first, int nseq, double *in)
{
    for (int k = 0; k < 3 * nseq; k++)
        in[k] = -INFINITY;
    for (long long i = 0; i < w->n; i++) {
        const struct pmpi_event *e = &w->ev[i];
        int s = e->tag - first;
        if (!world_coll(e) || e->tag < 0 || s < 0 || s >= nseq)
            continue;
        double t = gtime(w, e->t0);
        in[s] = t;
        in[(e->flags & PMPI_EVF_ROOT ? 1 : 2) * nseq + s] = t;
    }
}

void pmpi_wait_coll_mine(const struct pmpi_wait_log *w, int nseq, const double *in,
                         const double *last, int *mine)
{
    for (int k = 0; k < 3 * nseq; k++)
        mine[k] = isfinite(in[k]) && in[k] == last[k] ? w->rank : -1;
}

void pmpi_wait_coll_waits(struct pmpi_wait_log *w, int first, int nseq, const double *last,
                          const int *who, struct pmpi_wait_result *res)
{
    for (long long i = 0; i < w->n; i++) {
        const struct pmpi_event *e = &w->ev[i];
        int arrival = 0, k, s = e->tag - first;
        if (!world_coll(e) || (e->tag >= 0 && (s < 0 || s >= nseq)) || (e->tag < 0 && first))
            continue; /* another chunk's; one without a number counts with the first */
        res->coll_matched++;
        if (e->tag >= 0)
            set_sync(w, i, PMPI_SYNC_WORLD, 0, e->tag);
        if ((k = coll_wait(e, &arrival)) < 0 || e->tag < 0)
            continue;
        double t = last[arrival * nseq + s];
        if (isfinite(t))
            add_wait(w, blocker(w, i), t, k, who ? who[arrival * nseq + s] : -1,
                     PMPI_CAUSE_SEQ(e->tag));
    }
}

static int group_item(const struct pmpi_event *e)
{
    return e->kind == PMPI_EV_COLL && (e->flags & PMPI_EVF_GROUP) && !(e->flags & PMPI_EVF_IDLE);
}

long long pmpi_wait_group_count(const struct pmpi_wait_log *w, int P, int *cnt, long long *idle)
{
    long long n = 0;
    *idle = 0;
    for (long long i = 0; i < w->n; i++) {
        const struct pmpi_event *e = &w->ev[i];
        if (e->kind == PMPI_EV_COLL && (e->flags & PMPI_EVF_GROUP) && (e->flags & PMPI_EVF_IDLE))
            (*idle)++; /* a member with nothing to wait for: matched as it is */
        else if (group_item(e)) {
            cnt[e->pad % (uint32_t)P]++;
            n++;
        }
    }
    return n;
}

void pmpi_wait_group_fill(const struct pmpi_wait_log *w, int P, const int *dis, int *fill,
                          struct pmpi_grp_item *out)
{
    for (long long i = 0; i < w->n; i++) {
        const struct pmpi_event *e = &w->ev[i];
        if (!group_item(e))
            continue;
        int d = (int)(e->pad % (uint32_t)P);
        out[dis[d] + fill[d]++] = (struct pmpi_grp_item){
            e->pad, e->tag, !!(e->flags & PMPI_EVF_ROOT), w->rank, gtime(w, e->t0), i};
    }
}

static int grp_cmp(const void *a, const void *b)
{
    const struct pmpi_grp_item *x = *(const struct pmpi_grp_item *const *)a,
                               *y = *(const struct pmpi_grp_item *const *)b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void pmpi_wait_group_answer(struct pmpi_grp_item *in, long long nin, struct pmpi_grp_item **order,
                            struct pmpi_grp_answer *ans)
{
    for (long long k = 0; k < nin; k++)
        order[k] = &in[k];
    qsort(order, (size_t)nin, sizeof *order, grp_cmp);
    for (long long a = 0, b; a < nin; a = b) {
        double arr[3] = {-INFINITY, -INFINITY, -INFINITY};
        const struct pmpi_grp_item *who[3] = {NULL, NULL, NULL};
        for (b = a; b < nin && grp_cmp(&order[a], &order[b]) == 0; b++) {
            double t = order[b]->t;
            int r = order[b]->root ? PMPI_ARR_ROOT : PMPI_ARR_NONROOT;
            if (t > arr[PMPI_ARR_ALL])
                arr[PMPI_ARR_ALL] = t, who[PMPI_ARR_ALL] = order[b];
            if (t > arr[r])
                arr[r] = t, who[r] = order[b];
        }
        for (long long k = a; k < b; k++) {
            struct pmpi_grp_answer *g = &ans[order[k] - in];
            memcpy(g->arr, arr, sizeof arr);
            g->idx = order[k]->idx;
            for (int x = 0; x < 3; x++) {
                g->who[x] = who[x] ? who[x]->rank : -1;
                g->who_rec[x] = who[x] ? who[x]->idx : -1;
            }
            g->pad = 0;
        }
    }
}

void pmpi_wait_group_waits(struct pmpi_wait_log *w, const struct pmpi_grp_answer *back, long long n,
                           struct pmpi_wait_result *res)
{
    for (long long k = 0; k < n; k++) {
        long long i = back[k].idx;
        int arrival = 0, kind;
        if (i < 0 || i >= w->n || w->ev[i].kind != PMPI_EV_COLL)
            continue;
        res->coll_matched++;
        set_sync(w, i, PMPI_SYNC_GROUP, (int32_t)w->ev[i].pad, w->ev[i].tag);
        if ((kind = coll_wait(&w->ev[i], &arrival)) < 0)
            continue;
        if (isfinite(back[k].arr[arrival]))
            add_wait(w, blocker(w, i), back[k].arr[arrival], kind, back[k].who[arrival],
                     back[k].who_rec[arrival]);
    }
}

static int site_cmp(const void *a, const void *b)
{
    const struct pmpi_site_wait *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key;
}

/* The sites' waits sorted by key, one entry per key. */
static void merge_sites(struct pmpi_wait_result *res)
{
    qsort(res->sites, res->nsites, sizeof *res->sites, site_cmp);
    size_t m = 0;
    for (size_t i = 0; i < res->nsites; i++) {
        if (m && res->sites[m - 1].key == res->sites[i].key)
            for (int k = 0; k < PMPI_WAIT_KINDS; k++)
                res->sites[m - 1].ns[k] += res->sites[i].ns[k];
        else
            res->sites[m++] = res->sites[i];
    }
    res->nsites = m;
}

void pmpi_wait_attribute(const struct pmpi_wait_log *w, struct pmpi_wait_result *res)
{
    unsigned open = 0;
    res->sites = calloc(w->n > 0 ? (size_t)w->n : 1, sizeof *res->sites);
    res->nsites = 0;
    for (long long i = 0; i < w->n; i++) {
        const struct pmpi_event *e = &w->ev[i];
        if (e->kind == PMPI_EV_REGION_ENTER || e->kind == PMPI_EV_REGION_EXIT) {
            if (e->call < PMPI_MAX_REGIONS) {
                if (e->kind == PMPI_EV_REGION_ENTER)
                    open |= 1u << e->call;
                else
                    open &= ~(1u << e->call);
            }
            continue;
        }
        if (e->kind == PMPI_EV_COLL || e->kind == PMPI_EV_CALL)
            res->coll_unmatched += e->kind == PMPI_EV_CALL && e->call < PMPI_NCALLS &&
                                   pmpi_calls[e->call].kind == PMPI_KIND_COLL;
        if (w->wait[i] <= 0)
            continue;
        int k = w->kind[i];
        res->rank_ns[k] += w->wait[i];
        for (int r = 0; r < PMPI_MAX_REGIONS; r++)
            if (open & (1u << r))
                res->region_ns[r][k] += w->wait[i];
        if (res->sites) {
            struct pmpi_site_wait *s = &res->sites[res->nsites++];
            s->key = (e->site & ((1ULL << 48) - 1)) | ((uint64_t)(e->call + 1) << 48);
            s->ns[k] = (long long)w->wait[i];
        }
    }
    if (res->sites)
        merge_sites(res);
}

void pmpi_waits_of_site(const struct pmpi_wait_result *w, uint64_t key,
                        long long ns[PMPI_WAIT_KINDS])
{
    struct pmpi_site_wait k = {.key = key};
    const struct pmpi_site_wait *s =
        w->sites ? bsearch(&k, w->sites, w->nsites, sizeof k, site_cmp) : NULL;
    for (int i = 0; s && i < PMPI_WAIT_KINDS; i++)
        ns[i] += s->ns[i];
}

void pmpi_waits_free(struct pmpi_wait_result *w)
{
    free(w->sites);
    w->sites = NULL;
    w->nsites = 0;
}
