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
 * Waits go to the record that blocked, hence to its call site and the regions open.
 * The rules themselves are in wait_rules.c (no MPI); this file carries what the ranks
 * exchange for them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "clock_sync.h"
#include "run_identity.h"
#include "sparse_exchange.h"
#include "event_log.h"
#include "wait_rules.h"
#include "wait_states.h"

/* the exchanges' tags on the analysis's own communicator */
enum { TAG_SENDS = 1, TAG_ANSWERS, TAG_GROUPS, TAG_GROUP_ANSWERS };

/* Point-to-point: sends to their receivers, matched there, answered. */
static void p2p(MPI_Comm comm, struct pmpi_wait_log *w, struct pmpi_wait_result *res)
{
    int P = pmpi_id()->nranks, all = 0;
    int *scnt = calloc((size_t)P * 5, sizeof(int)), *rcnt = scnt + P, *sdis = rcnt + P,
        *rdis = sdis + P, *fill = rdis + P;
    char *sent = malloc((size_t)P * 2), *got = sent + P;
    long long nsend = 0, nrecv = 0;
    if (scnt)
        nsend = pmpi_wait_sends_count(w, P, scnt, &nrecv);
    struct pmpi_send_info *out = malloc((size_t)(nsend ? nsend : 1) * sizeof *out), *in = NULL;
    int64_t *rk = malloc((size_t)(nrecv ? nrecv : 1) * 5 * sizeof *rk), *sk = NULL;
    struct pmpi_recv_answer *ans = NULL, *back = NULL;
    int ok = scnt && sent && out && rk;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    if (!all)
        goto done;
    for (int r = 0; r < P; r++)
        sdis[r] = r ? sdis[r - 1] + scnt[r - 1] : 0;
    pmpi_wait_sends_fill(w, P, sdis, fill, out);
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
    int *acnt = scnt; /* reused: answers out per sender */
    memset(acnt, 0, (size_t)P * sizeof *acnt);
    pmpi_wait_receives_match(w, P, in, rcnt, rdis, sk, rk, ans, acnt, res);
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
    pmpi_wait_sends_answered(w, back, nback);
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

/* Collectives on world-congruent communicators: one Allreduce (max) of the arrivals. */
static void collectives(MPI_Comm comm, struct pmpi_wait_log *w, struct pmpi_wait_result *res)
{
    int nseq = pmpi_wait_coll_count(w), all = 0;
    PMPI_Allreduce(&nseq, &all, 1, MPI_INT, MPI_MAX, comm);
    nseq = all;
    double *in = malloc((size_t)(nseq ? nseq : 1) * 3 * sizeof *in);
    double *out = malloc((size_t)(nseq ? nseq : 1) * 3 * sizeof *out);
    int ok = in && out;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    if (!all || nseq == 0)
        goto done;
    pmpi_wait_coll_arrivals(w, nseq, in);
    PMPI_Allreduce(in, out, 3 * nseq, MPI_DOUBLE, MPI_MAX, comm);
    pmpi_wait_coll_waits(w, nseq, out, res);
done:
    free(in);
    free(out);
}

/* Collectives on other communicators (PMPI_EVF_GROUP): every record goes to the rank
 * key % P, which takes the last arrivals of each (group key, sequence number) over what
 * it received and answers each record with them (two sparse exchanges). */
static void collectives_grouped(MPI_Comm comm, struct pmpi_wait_log *w,
                                struct pmpi_wait_result *res)
{
    int P = pmpi_id()->nranks, all = 0;
    int *cnt = calloc((size_t)P * 5, sizeof(int)), *rcnt = cnt ? cnt + P : NULL,
        *dis = cnt ? rcnt + P : NULL, *rdis = cnt ? dis + P : NULL, *fill = cnt ? rdis + P : NULL;
    char *sent = malloc((size_t)P * 2), *got = sent ? sent + P : NULL;
    long long n = 0, nin = 0, idle = 0;
    if (cnt)
        n = pmpi_wait_group_count(w, P, cnt, &idle);
    struct pmpi_grp_item *out = malloc((size_t)(n ? n : 1) * sizeof *out), *in = NULL;
    struct pmpi_grp_item **order = NULL;
    struct pmpi_grp_answer *ans = NULL, *back = NULL;
    int ok = cnt && sent && out;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    if (!all)
        goto done;
    for (int r = 0; r < P; r++)
        dis[r] = r ? dis[r - 1] + cnt[r - 1] : 0;
    pmpi_wait_group_fill(w, P, dis, fill, out);
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
    pmpi_wait_group_answer(in, nin, order, ans);
    /* each item's answer goes back where it came from, in the order it came */
    ok = pmpi_sparse_exchange(comm, TAG_GROUP_ANSWERS, sizeof *ans, rcnt, rdis, ans, got, sent, cnt,
                              dis, &rb);
    back = rb;
    res->coll_matched += ok ? idle : 0;
    pmpi_wait_group_waits(w, back, ok ? n : 0, res);
done:
    free(cnt);
    free(sent);
    free(out);
    free(in);
    free(order);
    free(ans);
    free(back);
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

void pmpi_waits_init(struct pmpi_event_log *log)
{
    force_pingpong = env_pingpong();
    int on = log->on, all = 0;
    PMPI_Allreduce(&on, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all) { /* one rank without a log: no rank keeps one (the matching needs all) */
        if (on)
            log->note = "no event log: another rank has none";
        pmpi_log_free();
        return;
    }
    MPI_Comm comm;
    PMPI_Comm_dup(MPI_COMM_WORLD, &comm);
    pmpi_clock_sync(comm, force_pingpong, &log->offset_ns, &log->residual_ns);
    PMPI_Comm_free(&comm);
}

struct pmpi_wait_result pmpi_waits_compute(struct pmpi_event_log *log, double ns_per_tick)
{
    struct pmpi_wait_result result = {0};
    int on = log->on, all = 0;
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
    struct pmpi_wait_log w = {.clock = {pmpi_id()->t_init, pmpi_id()->tick_init, ns_per_tick,
                                        log->offset_ns, log->offset_end_ns,
                                        (double)(pmpi_end()->t_final - pmpi_id()->t_init)},
                              .n = pmpi_log_count(log),
                              .ev = log->ev};
    int ok = pmpi_wait_log_cells(&w) == 0;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    if (all) {
        pmpi_wait_link(&w, MPI_ANY_TAG);
        p2p(comm, &w, &result);
        collectives(comm, &w, &result);
        collectives_grouped(comm, &w, &result);
        pmpi_wait_attribute(&w, &result);
        result.done = 1;
    }
    result.records = w.n;
    result.dropped = pmpi_log_dropped(log);
    result.offset_ns = log->offset_ns;
    result.offset_end_ns = log->offset_end_ns;
    result.residual_ns = log->residual_ns;
    pmpi_wait_log_free(&w);
    PMPI_Comm_free(&comm);
    return result;
}
