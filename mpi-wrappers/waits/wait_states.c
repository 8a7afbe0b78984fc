/* wait_states.c: the wait states of every rank from the event logs, at MPI_Finalize.
 *
 * Times go on rank 0's clock: a record's ticks to this rank's CLOCK_MONOTONIC ns (the
 * run's ratio), minus the offset to rank 0 interpolated between the ones measured at
 * MPI_Init and MPI_Finalize (clock_sync.c).
 *
 * Point-to-point: every rank sends each partner the enter times of its sends to it, in
 * log order (one message per partner: sparse_exchange.c); the receiver pairs the k-th send of (sender, tag,
 * communicator class) with its k-th receive of the same (MPI's non-overtaking order)
 * and finds its late-sender wait: the part of its blocking span (the Recv, or the Wait
 * that completed the Irecv) before the send began. It answers each send with its
 * receive's post time (one message back to each), from which a synchronous or rendezvous
 * sender finds its late-receiver wait.
 * Collectives on world-congruent communicators carry a sequence number (event_log.c):
 * one Allreduce (max) of the enter times per number gives the last arrival, the root's
 * arrival and the last non-root arrival; the part of a rank's blocking span before the
 * one that concerns it is its wait at N x N, at barrier, late root or early reduce.
 * Collectives on other communicators carry their group's key and a sequence number in
 * it: the same maxima per (key, number), taken by rank key % P (collectives_grouped);
 * an intercommunicator's group is both of its groups (event_log.c).
 * Waits go to the record that blocked, hence to its call site and the regions open. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "clock_sync.h"
#include "run_identity.h"
#include "sparse_exchange.h"
#include "event_log.h"
#include "request_link.h"
#include "wait_states.h"

static struct pmpi_wait_result result; /* being computed (pmpi_waits_compute) */

/* One site's wait (sorted by key at the end, looked up by the call-site merge). */
struct pmpi_site_wait {
    uint64_t key;
    long long ns[PMPI_WAIT_KINDS];
};

/* A send as its receiver sees it. */
struct send_info {
    int32_t tag, flags;
    int64_t idx; /* the sender's record */
    double t0;   /* enter, rank 0's clock */
    int64_t bytes;
};
/* A receive's answer to its send. */
struct recv_answer {
    int64_t idx; /* the sender's record */
    double t0;   /* the receive's post time */
};

/* the exchanges' tags on the analysis's own communicator */
enum { TAG_SENDS = 1, TAG_ANSWERS, TAG_GROUPS, TAG_GROUP_ANSWERS };

static struct {
    double npt, off0, off1, span_ns;
    long long n;
    struct pmpi_event *ev;
    int64_t *waiter; /* the Wait record that completed record i's request, or -1 */
    double *wait;    /* ns waited in record i */
    uint8_t *kind;
} W;

/* Record tick x on rank 0's clock (ns). */
static double gtime(long long x)
{
    double local = (double)pmpi_id()->t_init + (double)(x - pmpi_id()->tick_init) * W.npt;
    double f = W.span_ns > 0 ? (local - (double)pmpi_id()->t_init) / W.span_ns : 0;
    return local - (W.off0 + (W.off1 - W.off0) * (f < 0 ? 0 : f > 1 ? 1 : f));
}

/* The span a record blocked in: its own, or that of the Wait that completed it. */
static int64_t blocker(int64_t i)
{
    return W.ev[i].req ? W.waiter[i] : i;
}

/* Wait in record b (its span) until moment t (rank 0's clock). */
static void add_wait(int64_t b, double t, int kind)
{
    if (b < 0)
        return;
    double s = gtime(W.ev[b].t0), e = gtime(W.ev[b].t1);
    double w = (t < e ? t : e) - s;
    if (w > W.wait[b]) {
        W.wait[b] = w;
        W.kind[b] = (uint8_t)kind;
    }
}

/* Each request's Wait (request_link.c); a receive's MPI_ANY_SOURCE / MPI_ANY_TAG from
 * the status of the Wait that completed it. */
static void link_requests(void)
{
    int64_t *link = malloc((W.n > 0 ? (size_t)W.n : 1) * sizeof *link);
    for (long long i = 0; i < W.n; i++)
        W.waiter[i] = -1;
    if (!link || pmpi_link_requests(W.ev, W.n, link) != 0) {
        free(link);
        return;
    }
    for (long long i = 0; i < W.n; i++) {
        const struct pmpi_event *e = &W.ev[i];
        if (e->kind != PMPI_EV_WAIT || link[i] < 0)
            continue;
        struct pmpi_event *m = &W.ev[link[i]];
        W.waiter[link[i]] = i;
        if (m->kind == PMPI_EV_RECV && (m->flags & PMPI_EVF_WORLD)) {
            if (m->peer < 0 && e->peer >= 0)
                m->peer = e->peer;
            if (m->tag == MPI_ANY_TAG && e->tag >= 0)
                m->tag = e->tag;
        }
    }
    free(link);
}

static int by_src_tag(const void *a, const void *b)
{
    const int64_t *x = a, *y = b; /* {src, tag, world, order, idx} */
    for (int k = 0; k < 4; k++)
        if (x[k] != y[k])
            return x[k] < y[k] ? -1 : 1;
    return 0;
}

/* Point-to-point: sends to their receivers, matched there, answered. */
static void p2p(MPI_Comm comm)
{
    int P = pmpi_id()->nranks, all = 0;
    int *scnt = calloc((size_t)P * 5, sizeof(int)), *rcnt = scnt + P, *sdis = rcnt + P,
        *rdis = sdis + P, *fill = rdis + P;
    char *sent = malloc((size_t)P * 2), *got = sent + P;
    long long nsend = 0, nrecv = 0;
    for (long long i = 0; i < W.n && scnt; i++) {
        const struct pmpi_event *e = &W.ev[i];
        if (e->kind == PMPI_EV_SEND && e->peer >= 0 && e->peer < P) {
            scnt[e->peer]++;
            nsend++;
        }
        if (e->kind == PMPI_EV_RECV)
            nrecv++;
    }
    struct send_info *out = malloc((size_t)(nsend ? nsend : 1) * sizeof *out), *in = NULL;
    int64_t *rk = malloc((size_t)(nrecv ? nrecv : 1) * 5 * sizeof *rk), *sk = NULL;
    struct recv_answer *ans = NULL, *back = NULL;
    int ok = scnt && sent && out && rk;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    if (!all)
        goto done;
    for (int r = 0; r < P; r++)
        sdis[r] = r ? sdis[r - 1] + scnt[r - 1] : 0;
    for (long long i = 0; i < W.n; i++) {
        const struct pmpi_event *e = &W.ev[i];
        if (e->kind != PMPI_EV_SEND || e->peer < 0 || e->peer >= P)
            continue;
        out[sdis[e->peer] + fill[e->peer]++] =
            (struct send_info){e->tag, e->flags, i, gtime(e->t0), e->bytes};
    }
    void *rb = NULL;
    ok = pmpi_sparse_exchange(comm, TAG_SENDS, sizeof *out, scnt, sdis, out, NULL, NULL, rcnt, rdis,
                              &rb);
    in = rb;
    long long ntot = 0;
    for (int r = 0; r < P; r++) {
        ntot += rcnt[r];
        sent[r] = scnt[r] > 0; /* who answers here */
        got[r] = rcnt[r] > 0;  /* whom this rank answers */
    }
    sk = malloc((size_t)(ntot ? ntot : 1) * 5 * sizeof *sk);
    ans = malloc((size_t)(ntot ? ntot : 1) * sizeof *ans);
    ok = ok && sk && ans;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm); /* every rank answers, or none */
    if (!all)
        goto done;
    /* keys: sends by (src, tag, world, order); receives the same */
    long long ns = 0, nr = 0;
    for (int r = 0; r < P; r++)
        for (int k = 0; k < rcnt[r]; k++, ns++) {
            const struct send_info *s = &in[rdis[r] + k];
            int64_t *q = &sk[5 * ns];
            q[0] = r, q[1] = s->tag, q[2] = !!(s->flags & PMPI_EVF_WORLD), q[3] = k,
            q[4] = rdis[r] + k;
        }
    for (long long i = 0; i < W.n; i++) {
        const struct pmpi_event *e = &W.ev[i];
        if (e->kind != PMPI_EV_RECV)
            continue;
        if (e->peer < 0 || e->peer >= P || e->tag < 0) {
            result.p2p_unmatched++;
            continue;
        }
        int64_t *q = &rk[5 * nr];
        q[0] = e->peer, q[1] = e->tag, q[2] = !!(e->flags & PMPI_EVF_WORLD), q[3] = i, q[4] = i;
        nr++;
    }
    qsort(sk, (size_t)ns, 5 * sizeof *sk, by_src_tag);
    qsort(rk, (size_t)nr, 5 * sizeof *rk, by_src_tag);
    long long a = 0, b = 0, na = 0;
    int *acnt = scnt; /* reused: answers out per sender */
    memset(acnt, 0, (size_t)P * sizeof *acnt);
    while (a < ns && b < nr) {
        int c = by_src_tag(&sk[5 * a], &rk[5 * b]);
        int same = sk[5 * a] == rk[5 * b] && sk[5 * a + 1] == rk[5 * b + 1] &&
                   sk[5 * a + 2] == rk[5 * b + 2];
        if (!same) {
            if (c < 0)
                a++;
            else {
                result.p2p_unmatched++;
                b++;
            }
            continue;
        }
        const struct send_info *s = &in[sk[5 * a + 4]];
        int64_t ri = rk[5 * b + 4];
        add_wait(blocker(ri), s->t0, PMPI_WAIT_LATE_SENDER);
        ans[na++] = (struct recv_answer){s->idx, gtime(W.ev[ri].t0)};
        acnt[sk[5 * a]]++;
        result.p2p_matched++;
        a++, b++;
    }
    result.p2p_unmatched += nr - b;
    /* answers back to the senders (ans is in sender order already): every rank that sent
     * here gets one message, perhaps empty, so no count has to travel first */
    for (int r = 0; r < P; r++)
        sdis[r] = r ? sdis[r - 1] + acnt[r - 1] : 0;
    ok = pmpi_sparse_exchange(comm, TAG_ANSWERS, sizeof *ans, acnt, sdis, ans, got, sent, rcnt,
                              rdis, &rb);
    back = rb;
    long long nback = 0;
    for (int r = 0; ok && r < P; r++)
        nback += rcnt[r];
    for (long long k = 0; k < nback; k++) {
        int64_t i = back[k].idx;
        if (i < 0 || i >= W.n || W.ev[i].kind != PMPI_EV_SEND)
            continue;
        if ((W.ev[i].flags & PMPI_EVF_SYNC) || W.ev[i].bytes >= PMPI_RENDEZVOUS_BYTES)
            add_wait(blocker(i), back[k].t0, PMPI_WAIT_LATE_RECEIVER);
    }
done:
    free(scnt);
    free(sent);
    free(out);
    free(in);
    free(rk);
    free(sk);
    free(ans);
    free(back);
}

/* What a collective waits for (its wait= column in mpi_calls.list, wait_kinds.list): 0
 * none, else the wait kind + 1 and which arrival (PMPI_ARR_ALL, _ROOT, _NONROOT). */
static int coll_class(int call, int *arrival)
{
    int k = call >= 0 && call < PMPI_NCALLS ? pmpi_calls[call].wait : -1;
    if (k < 0)
        return 0;
    *arrival = pmpi_wait_arrival[k];
    return k + 1;
}

static void collectives(MPI_Comm comm)
{
    int nseq = 0, all = 0;
    for (long long i = 0; i < W.n; i++)
        if (W.ev[i].kind == PMPI_EV_COLL && !(W.ev[i].flags & PMPI_EVF_GROUP) &&
            W.ev[i].tag >= nseq)
            nseq = W.ev[i].tag + 1;
    PMPI_Allreduce(&nseq, &all, 1, MPI_INT, MPI_MAX, comm);
    nseq = all;
    double *in = malloc((size_t)(nseq ? nseq : 1) * 3 * sizeof *in);
    double *out = malloc((size_t)(nseq ? nseq : 1) * 3 * sizeof *out);
    int ok = in && out;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    if (!all || nseq == 0)
        goto done;
    for (int k = 0; k < 3 * nseq; k++)
        in[k] = -INFINITY;
    for (long long i = 0; i < W.n; i++) {
        const struct pmpi_event *e = &W.ev[i];
        if (e->kind != PMPI_EV_COLL || (e->flags & PMPI_EVF_GROUP))
            continue;
        double t = gtime(e->t0);
        int s = e->tag;
        in[s] = t;
        if (e->flags & PMPI_EVF_ROOT)
            in[nseq + s] = t;
        else
            in[2 * nseq + s] = t;
    }
    PMPI_Allreduce(in, out, 3 * nseq, MPI_DOUBLE, MPI_MAX, comm);
    for (long long i = 0; i < W.n; i++) {
        const struct pmpi_event *e = &W.ev[i];
        int arrival = 0, cls;
        if (e->kind != PMPI_EV_COLL || (e->flags & PMPI_EVF_GROUP))
            continue;
        result.coll_matched++;
        cls = coll_class(e->call, &arrival);
        if (!cls || (arrival == PMPI_ARR_ROOT && (e->flags & PMPI_EVF_ROOT)) ||
            (arrival == PMPI_ARR_NONROOT && !(e->flags & PMPI_EVF_ROOT)))
            continue;
        double t = out[arrival * nseq + e->tag];
        if (isfinite(t))
            add_wait(blocker(i), t, cls - 1);
    }
done:
    free(in);
    free(out);
}

/* Collectives on other communicators (PMPI_EVF_GROUP): every record goes to the rank
 * key % P, which takes the last arrivals of each (group key, sequence number) over what
 * it received and answers each record with them (two sparse exchanges). */
struct grp_item {
    uint32_t key;
    int32_t seq, root, pad;
    double t;
    int64_t idx; /* the record on its rank */
};
struct grp_answer {
    double arr[3]; /* last arrival: all, root, non-root (-inf: none) */
    int64_t idx;
};

static int grp_cmp(const void *a, const void *b)
{
    const struct grp_item *x = *(const struct grp_item *const *)a,
                          *y = *(const struct grp_item *const *)b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void collectives_grouped(MPI_Comm comm)
{
    int P = pmpi_id()->nranks, all = 0;
    int *cnt = calloc((size_t)P * 5, sizeof(int)), *rcnt = cnt ? cnt + P : NULL,
        *dis = cnt ? rcnt + P : NULL, *rdis = cnt ? dis + P : NULL, *fill = cnt ? rdis + P : NULL;
    char *sent = malloc((size_t)P * 2), *got = sent ? sent + P : NULL;
    long long n = 0, nin = 0, idle = 0;
    for (long long i = 0; i < W.n && cnt; i++)
        if (W.ev[i].kind == PMPI_EV_COLL && (W.ev[i].flags & PMPI_EVF_GROUP)) {
            if (W.ev[i].flags & PMPI_EVF_IDLE) {
                idle++; /* a member with nothing to wait for: matched as it is */
                continue;
            }
            cnt[W.ev[i].pad % (uint32_t)P]++;
            n++;
        }
    struct grp_item *out = malloc((size_t)(n ? n : 1) * sizeof *out), *in = NULL;
    struct grp_item **order = NULL;
    struct grp_answer *ans = NULL, *back = NULL;
    int ok = cnt && sent && out;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    if (!all)
        goto done;
    for (int r = 0; r < P; r++)
        dis[r] = r ? dis[r - 1] + cnt[r - 1] : 0;
    for (long long i = 0; i < W.n; i++) {
        const struct pmpi_event *e = &W.ev[i];
        if (e->kind != PMPI_EV_COLL || !(e->flags & PMPI_EVF_GROUP) || (e->flags & PMPI_EVF_IDLE))
            continue;
        int d = (int)(e->pad % (uint32_t)P);
        out[dis[d] + fill[d]++] =
            (struct grp_item){e->pad, e->tag, !!(e->flags & PMPI_EVF_ROOT), 0, gtime(e->t0), i};
    }
    void *rb = NULL;
    ok = pmpi_sparse_exchange(comm, TAG_GROUPS, sizeof *out, cnt, dis, out, NULL, NULL, rcnt, rdis,
                              &rb);
    in = rb;
    for (int r = 0; r < P; r++) {
        nin += rcnt[r];
        sent[r] = cnt[r] > 0; /* who answers here */
        got[r] = rcnt[r] > 0; /* whom this rank answers */
    }
    order = malloc((size_t)(nin ? nin : 1) * sizeof *order);
    ans = malloc((size_t)(nin ? nin : 1) * sizeof *ans);
    ok = ok && order && ans;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm); /* every rank answers, or none */
    if (!all)
        goto done;
    for (long long k = 0; k < nin; k++)
        order[k] = &in[k];
    qsort(order, (size_t)nin, sizeof *order, grp_cmp);
    for (long long a = 0, b; a < nin; a = b) {
        double arr[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (b = a; b < nin && grp_cmp(&order[a], &order[b]) == 0; b++) {
            double t = order[b]->t;
            arr[PMPI_ARR_ALL] = t > arr[PMPI_ARR_ALL] ? t : arr[PMPI_ARR_ALL];
            int w = order[b]->root ? PMPI_ARR_ROOT : PMPI_ARR_NONROOT;
            arr[w] = t > arr[w] ? t : arr[w];
        }
        for (long long k = a; k < b; k++) {
            struct grp_answer *g = &ans[order[k] - in];
            memcpy(g->arr, arr, sizeof arr);
            g->idx = order[k]->idx;
        }
    }
    /* each item's answer goes back where it came from, in the order it came */
    ok = pmpi_sparse_exchange(comm, TAG_GROUP_ANSWERS, sizeof *ans, rcnt, rdis, ans, got, sent, cnt,
                              dis, &rb);
    back = rb;
    result.coll_matched += ok ? idle : 0;
    for (long long k = 0; ok && k < n; k++) {
        long long i = back[k].idx;
        int arrival = 0, cls;
        if (i < 0 || i >= W.n || W.ev[i].kind != PMPI_EV_COLL)
            continue;
        const struct pmpi_event *e = &W.ev[i];
        result.coll_matched++;
        cls = coll_class(e->call, &arrival);
        if (!cls || (arrival == PMPI_ARR_ROOT && (e->flags & PMPI_EVF_ROOT)) ||
            (arrival == PMPI_ARR_NONROOT && !(e->flags & PMPI_EVF_ROOT)))
            continue;
        if (isfinite(back[k].arr[arrival]))
            add_wait(blocker(i), back[k].arr[arrival], cls - 1);
    }
done:
    free(cnt);
    free(sent);
    free(out);
    free(in);
    free(order);
    free(ans);
    free(back);
}

static int site_cmp(const void *a, const void *b)
{
    const struct pmpi_site_wait *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key;
}

/* Waits into the rank's totals, the regions open and the sites. */
static void attribute(void)
{
    unsigned open = 0;
    result.sites = calloc(W.n > 0 ? (size_t)W.n : 1, sizeof *result.sites);
    result.nsites = 0;
    for (long long i = 0; i < W.n; i++) {
        const struct pmpi_event *e = &W.ev[i];
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
            result.coll_unmatched +=
                e->kind == PMPI_EV_CALL && pmpi_calls[e->call].kind == PMPI_KIND_COLL;
        if (W.wait[i] <= 0)
            continue;
        int k = W.kind[i];
        result.rank_ns[k] += W.wait[i];
        for (int r = 0; r < PMPI_MAX_REGIONS; r++)
            if (open & (1u << r))
                result.region_ns[r][k] += W.wait[i];
        if (result.sites) {
            struct pmpi_site_wait *s = &result.sites[result.nsites++];
            s->key = (e->site & ((1ULL << 48) - 1)) | ((uint64_t)(e->call + 1) << 48);
            s->ns[k] = (long long)W.wait[i];
        }
    }
    if (!result.sites)
        return;
    qsort(result.sites, result.nsites, sizeof *result.sites, site_cmp);
    size_t m = 0; /* one entry per key */
    for (size_t i = 0; i < result.nsites; i++) {
        if (m && result.sites[m - 1].key == result.sites[i].key)
            for (int k = 0; k < PMPI_WAIT_KINDS; k++)
                result.sites[m - 1].ns[k] += result.sites[i].ns[k];
        else
            result.sites[m++] = result.sites[i];
    }
    result.nsites = m;
}

/* PAPI_MPI_CLOCK_PINGPONG: 1 measures offsets by ping-pong even on rank 0's boot. */
static int force_pingpong;

static int env_pingpong(void)
{
    const char *v = env_get("PAPI_MPI_CLOCK_PINGPONG");
    if (!v || !*v || strcmp(v, "0") == 0)
        return 0;
    if (strcmp(v, "1") == 0)
        return 1;
    if (pmpi_id()->rank == 0)
        fprintf(stderr, "papi_mpi: PAPI_MPI_CLOCK_PINGPONG=%s: expected 0 or 1; 0 used\n", v);
    return 0;
}

void pmpi_waits_init(void)
{
    force_pingpong = env_pingpong();
    pmpi_log_init(pmpi_id()->rank);
    int on = pmpi_log.on, all = 0;
    PMPI_Allreduce(&on, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all) { /* one rank without a log: no rank keeps one (the matching needs all) */
        if (on)
            pmpi_log.note = "no event log: another rank has none";
        pmpi_log_free();
        return;
    }
    MPI_Comm comm;
    PMPI_Comm_dup(MPI_COMM_WORLD, &comm);
    pmpi_clock_sync(comm, force_pingpong, &pmpi_log.offset_ns, &pmpi_log.residual_ns);
    PMPI_Comm_free(&comm);
}

struct pmpi_wait_result pmpi_waits_compute(struct pmpi_event_log *log, double ns_per_tick)
{
    int on = log->on, all = 0;
    memset(&result, 0, sizeof result);
    PMPI_Allreduce(&on, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    result.capacity = log->cap;
    result.note = log->note;
    if (!all)
        return result;
    MPI_Comm comm;
    PMPI_Comm_dup(MPI_COMM_WORLD, &comm);
    /* a rank out of memory drops its part of an exchange and says so; it never aborts */
    PMPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    double res = 0;
    pmpi_clock_sync(comm, force_pingpong, &log->offset_end_ns, &res);
    if (res > log->residual_ns)
        log->residual_ns = res;
    W.npt = ns_per_tick;
    W.off0 = log->offset_ns;
    W.off1 = log->offset_end_ns;
    W.span_ns = (double)(pmpi_end()->t_final - pmpi_id()->t_init);
    W.n = pmpi_log_count(log);
    W.ev = log->ev;
    size_t cells = W.n > 0 ? (size_t)W.n : 1;
    W.waiter = malloc(cells * sizeof *W.waiter);
    W.wait = calloc(cells, sizeof *W.wait);
    W.kind = calloc(cells, 1);
    int ok = W.waiter && W.wait && W.kind;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    if (all) {
        link_requests();
        p2p(comm);
        collectives(comm);
        collectives_grouped(comm);
        attribute();
        result.done = 1;
    }
    result.records = W.n;
    result.dropped = pmpi_log_dropped(log);
    result.offset_ns = log->offset_ns;
    result.offset_end_ns = log->offset_end_ns;
    result.residual_ns = log->residual_ns;
    free(W.waiter);
    free(W.wait);
    free(W.kind);
    PMPI_Comm_free(&comm);
    return result;
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
