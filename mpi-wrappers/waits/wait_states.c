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
 * the maximum over the ranks of the enter times per number gives the last arrival, the
 * root's arrival and the last non-root arrival, those of the first COLL_CHUNK numbers
 * riding in the finalize agreement round (finalize_agreement.h), any later ones in one
 * Allreduce per chunk; the part of a rank's blocking span before the
 * one that concerns it is its wait at N x N, at barrier, late root or early reduce.
 * Collectives on other communicators carry their group's key and a sequence number in
 * it: the same maxima per (key, number), taken by rank key % P (collectives_grouped);
 * an intercommunicator's group is both of its groups (event_log.c).
 * Waits go to the record that blocked, hence to its call site and the regions open.
 * The rules themselves are in wait_rules.c (no MPI); this file carries what the ranks
 * exchange for them. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env_flag.h"
#include "idle_wait.h"
#include "clock_sync.h"
#include "finalize_agreement.h"
#include "pmpi_identity.h"
#include "sparse_exchange.h"
#include "event_log.h"
#include "wait_rules.h"
#include "wait_states.h"
#include "cause_replay.h"

/* the exchanges' tags on the wrapper's communicator, used by no later step (the call
 * sites' tree and the report's pull use 1 and 2): the messages of an exchange that
 * failed (a probe that failed, sparse_exchange.c) are left unreceived, never taken by
 * a later step's receive */
enum { TAG_SENDS = 11, TAG_ANSWERS, TAG_GROUPS, TAG_GROUP_ANSWERS };

/* The arrivals of this many sequence numbers ride in the agreement round (3 doubles
 * each: 24 KiB, whatever the program did); every rank's buffers take max(its own
 * numbers, this), and the numbers past the first chunk take one reduction per chunk. */
#define COLL_CHUNK 1024

/* What a rank holds for the exchanges, allocated before the first agreement so that
 * none of them has to stop for want of memory: a rank short of it later still takes
 * part (empty answers) and says so at the last agreement, which drops every rank's
 * result. ok: nothing lost on this rank so far. */
struct exchange {
    MPI_Comm comm;
    int P, ok;
    struct pmpi_sparse_ws ws;
    int *cnt, *rcnt, *dis, *rdis, *fill; /* P each, for the point-to-point step then the groups' */
    char *sent, *got;                    /* P each */
    struct pmpi_send_info *sends;        /* nsend of them */
    int64_t *rk;                         /* 5 per receive */
    long long nsend, nrecv;
    int nseq, chunk; /* world collectives' sequence numbers; arrivals per reduction */
    int nfrom[2];    /* ranks that send here: their sends, their group items */
    double *in, *last;
    int *mine, *who;             /* 3 * chunk: the last arrivals' ranks (the waits' causes) */
    struct pmpi_grp_item *items; /* nitems for the other communicators' owners */
    long long nitems, idle;
    int *gcnt; /* P: items to each owner */
};

static void exchange_free(struct exchange *x)
{
    pmpi_sparse_ws_free(&x->ws);
    free(x->cnt);
    free(x->sent);
    free(x->sends);
    free(x->rk);
    free(x->in);
    free(x->last);
    free(x->mine);
    free(x->items);
    free(x->gcnt);
}

/* Counts and buffers from this rank's log (its cells made: ok). Returns x->ok. */
static int exchange_alloc(struct exchange *x, struct pmpi_wait_log *w, int ok)
{
    int P = x->P;
    x->ok = ok && pmpi_sparse_ws_alloc(&x->ws, P, 2); /* sends and group items */
    x->cnt = calloc((size_t)P * 5, sizeof(int));
    x->sent = malloc((size_t)P * 2);
    x->gcnt = calloc((size_t)P, sizeof(int));
    x->ok = x->ok && x->cnt && x->sent && x->gcnt;
    if (!x->ok)
        return 0;
    x->rcnt = x->cnt + P, x->dis = x->rcnt + P, x->rdis = x->dis + P, x->fill = x->rdis + P;
    x->got = x->sent + P;
    x->nsend = pmpi_wait_sends_count(w, P, x->cnt, &x->nrecv);
    x->sends = malloc((size_t)(x->nsend ? x->nsend : 1) * sizeof *x->sends);
    x->rk = malloc((size_t)(x->nrecv ? x->nrecv : 1) * 5 * sizeof *x->rk);
    x->nseq = pmpi_wait_coll_count(w);
    x->chunk = x->nseq > COLL_CHUNK ? x->nseq : COLL_CHUNK;
    x->in = malloc((size_t)x->chunk * 3 * sizeof *x->in);
    x->last = malloc((size_t)x->chunk * 3 * sizeof *x->last);
    x->mine = malloc((size_t)x->chunk * 6 * sizeof *x->mine);
    x->who = x->mine ? x->mine + 3 * x->chunk : NULL;
    x->nitems = pmpi_wait_group_count(w, P, x->gcnt, &x->idle);
    x->items = malloc((size_t)(x->nitems ? x->nitems : 1) * sizeof *x->items);
    x->ok = x->sends && x->rk && x->in && x->last && x->mine && x->items;
    return x->ok;
}

/* Point-to-point: sends to their receivers, matched there, answered. */
static void p2p(struct exchange *x, struct pmpi_wait_log *w, struct pmpi_wait_result *res)
{
    int P = x->P;
    void *rb = NULL;
    pmpi_sparse_displacements(P, x->cnt, x->dis);
    pmpi_wait_sends_fill(w, P, x->dis, x->fill, x->sends);
    int ok = pmpi_sparse_exchange(x->comm, &x->ws, TAG_SENDS, sizeof *x->sends, x->cnt, x->dis,
                                  x->sends, NULL, NULL, x->nfrom[0], x->rcnt, x->rdis, &rb);
    struct pmpi_send_info *in = rb;
    long long ntot = 0;
    for (int r = 0; r < P; r++) {
        ntot += x->rcnt[r];
        x->sent[r] = x->cnt[r] > 0; /* who answers here */
        x->got[r] = x->rcnt[r] > 0; /* whom this rank answers */
    }
    int64_t *sk = malloc((size_t)(ntot ? ntot : 1) * 5 * sizeof *sk);
    struct pmpi_recv_answer *ans = malloc((size_t)(ntot ? ntot : 1) * sizeof *ans), *back = NULL;
    ok = ok && sk && ans;
    int *acnt = x->cnt; /* reused: answers out per sender, none when this rank lost some */
    memset(acnt, 0, (size_t)P * sizeof *acnt);
    if (ok)
        pmpi_wait_receives_match(w, P, in, x->rcnt, x->rdis, sk, x->rk, ans, acnt, res);
    /* every rank that sent here gets one message, perhaps empty: no count travels first */
    pmpi_sparse_displacements(P, acnt, x->dis);
    ok &= pmpi_sparse_exchange(x->comm, &x->ws, TAG_ANSWERS, sizeof *ans, acnt, x->dis,
                               ans ? (void *)ans : (void *)x->fill, x->got, x->sent, 0, x->rcnt,
                               x->rdis, &rb);
    back = rb;
    long long nback = 0;
    for (int r = 0; back && r < P; r++)
        nback += x->rcnt[r];
    pmpi_wait_sends_answered(w, back, back ? nback : 0);
    x->ok &= ok;
    free(in);
    free(sk);
    free(ans);
    free(back);
}

/* With the delay analysis on (the cause cells kept, on every rank), the ranks that
 * arrived last at n sequence numbers (x->in this rank's arrivals, x->last the maxima):
 * one Allreduce (max) of each rank's own where it is the last; NULL otherwise or when it
 * failed (the waits then have no cause). */
static const int *who_arrived(struct exchange *x, struct pmpi_wait_log *w, int n)
{
    if (!w->cause_rank)
        return NULL;
    MPI_Request req;
    pmpi_wait_coll_mine(w, n, x->in, x->last, x->mine);
    if (pmpi_idle_complete(PMPI_Iallreduce(x->mine, x->who, 3 * n, MPI_INT, MPI_MAX, x->comm, &req),
                           &req) != MPI_SUCCESS) {
        x->ok = 0;
        return NULL;
    }
    return x->who;
}

/* Collectives on world-congruent communicators: the last arrivals of the first
 * COLL_CHUNK sequence numbers came with the agreement round (x->last), the later ones
 * take one Allreduce (max) per chunk (none unless a rank logged more than COLL_CHUNK). */
static void collectives(struct exchange *x, struct pmpi_wait_log *w, int nseq, int chunk,
                        struct pmpi_wait_result *res)
{
    pmpi_wait_coll_waits(w, 0, COLL_CHUNK, x->last, who_arrived(x, w, COLL_CHUNK), res);
    for (int first = COLL_CHUNK; first < nseq; first += chunk) {
        int n = nseq - first < chunk ? nseq - first : chunk;
        pmpi_wait_coll_arrivals(w, first, n, x->in);
        MPI_Request req;
        if (pmpi_idle_complete(
                PMPI_Iallreduce(x->in, x->last, 3 * n, MPI_DOUBLE, MPI_MAX, x->comm, &req), &req) !=
            MPI_SUCCESS)
            x->ok = 0;
        else
            pmpi_wait_coll_waits(w, first, n, x->last, who_arrived(x, w, n), res);
    }
}

/* Collectives on other communicators (PMPI_EVF_GROUP): every record goes to the rank
 * key % P, which takes the last arrivals of each (group key, sequence number) over what
 * it received and answers each record with them (two sparse exchanges). */
static void collectives_grouped(struct exchange *x, struct pmpi_wait_log *w,
                                struct pmpi_wait_result *res)
{
    int P = x->P, *cnt = x->gcnt;
    void *rb = NULL;
    memset(x->fill, 0, (size_t)P * sizeof *x->fill);
    pmpi_sparse_displacements(P, cnt, x->dis);
    pmpi_wait_group_fill(w, P, x->dis, x->fill, x->items);
    int ok = pmpi_sparse_exchange(x->comm, &x->ws, TAG_GROUPS, sizeof *x->items, cnt, x->dis,
                                  x->items, NULL, NULL, x->nfrom[1], x->rcnt, x->rdis, &rb);
    struct pmpi_grp_item *in = rb;
    long long nin = 0;
    for (int r = 0; r < P; r++) {
        nin += x->rcnt[r];
        x->sent[r] = cnt[r] > 0;    /* who answers here */
        x->got[r] = x->rcnt[r] > 0; /* whom this rank answers */
    }
    struct pmpi_grp_item **order = malloc((size_t)(nin ? nin : 1) * sizeof *order);
    struct pmpi_grp_answer *ans = malloc((size_t)(nin ? nin : 1) * sizeof *ans), *back = NULL;
    ok = ok && order && ans;
    if (ok)
        pmpi_wait_group_answer(in, nin, order, ans);
    else /* none answered: every sender here gets an empty message */
        memset(x->rcnt, 0, (size_t)P * sizeof *x->rcnt);
    /* each item's answer goes back where it came from, in the order it came */
    pmpi_sparse_displacements(P, x->rcnt, x->rdis);
    ok &= pmpi_sparse_exchange(x->comm, &x->ws, TAG_GROUP_ANSWERS, sizeof *ans, x->rcnt, x->rdis,
                               ans ? (void *)ans : (void *)x->fill, x->got, x->sent, 0, cnt, x->dis,
                               &rb);
    back = rb;
    long long nback = 0;
    for (int r = 0; back && r < P; r++)
        nback += cnt[r];
    ok &= nback == x->nitems; /* answers by position: an owner short of memory sent none */
    res->coll_matched += ok ? x->idle : 0;
    pmpi_wait_group_waits(w, back, ok ? x->nitems : 0, res);
    x->ok &= ok;
    free(in);
    free(order);
    free(ans);
    free(back);
}

/* PAPI_MPI_CLOCK_PINGPONG: 1 measures offsets by ping-pong even on rank 0's boot. */
static int force_pingpong;
/* PAPI_MPI_ROOT_CAUSES: 1 adds the delay analysis and the critical path (the backward
 * replay, cause_replay.c); off by default: its time on this project's 2-core VM was
 * several times the rest of MPI_Finalize's (bench/README.md, issue 72). */
static int causes_on;

static int env_pingpong(void)
{
    return pmpi_env_flag("PAPI_MPI_CLOCK_PINGPONG", 0, pmpi_id()->rank, "0 used");
}

void pmpi_waits_init(struct pmpi_event_log *log)
{
    force_pingpong = env_pingpong();
    causes_on = pmpi_env_flag("PAPI_MPI_ROOT_CAUSES", 0, pmpi_id()->rank, "0 used");
    int on = pmpi_agree_add(PMPI_AGREE_MIN, log->on);
    pmpi_agree_run(MPI_COMM_WORLD);
    /* one rank without a log: no rank keeps one (the matching needs all) */
    if (!pmpi_agree_value(on)) {
        if (log->on)
            log->note = "no event log: another rank has none";
        pmpi_log_free();
        return;
    }
    pmpi_clock_sync(pmpi_own_comm(), force_pingpong, &log->offset_ns, &log->residual_ns);
}

/* The exchanges and the rules, every rank having agreed it can: the waits in result,
 * this rank's "nothing lost" returned. */
static int exchange_run(struct exchange *x, struct pmpi_wait_log *w, int nseq, int chunk,
                        struct pmpi_wait_result *result)
{
    const int *patterns[2] = {x->cnt, x->gcnt};
    pmpi_sparse_senders(x->comm, &x->ws, 2, patterns, x->nfrom); /* one count for both */
    p2p(x, w, result);
    collectives(x, w, nseq, chunk, result);
    collectives_grouped(x, w, result);
    return x->ok;
}

struct pmpi_wait_result pmpi_waits_compute(struct pmpi_event_log *log, double ns_per_tick)
{
    struct pmpi_wait_result result = {0};
    result.capacity = log->cap;
    result.note = log->note;
    struct exchange x = {.P = pmpi_id()->nranks};
    struct pmpi_wait_log w = {.clock = {pmpi_id()->t_init, pmpi_id()->tick_init, ns_per_tick,
                                        log->offset_ns, 0,
                                        (double)(pmpi_end()->t_final - pmpi_id()->t_init)},
                              .n = pmpi_log_count(log),
                              .ev = log->ev,
                              .rank = pmpi_id()->rank};
    int ok = log->on && pmpi_wait_log_cells(&w) == 0;
    int causes = ok && causes_on && pmpi_wait_log_causes(&w) == 0;
    long long c_first = LLONG_MIN, c_end = -1; /* the replay's: the run's first, its end */
    if (ok)
        pmpi_wait_link(&w, MPI_ANY_TAG); /* the wildcard receives' partners, before counting */
    ok = exchange_alloc(&x, &w, ok);
    MPI_Errhandler was;
    x.comm = pmpi_own_comm(); /* the wrapper's: tags 11 to 14, the clock's */
    PMPI_Comm_get_errhandler(x.comm, &was);
    /* a rank out of memory drops its part of an exchange and says so; it never aborts */
    PMPI_Comm_set_errhandler(x.comm, MPI_ERRORS_RETURN);
    /* The log is on on every rank or on none since pmpi_waits_init's agreement: the
     * offsets at MPI_Finalize are measured before the round, so that the collectives'
     * arrivals, on rank 0's clock, ride in it (every rank registers them alike). */
    if (log->on) {
        double res = 0;
        pmpi_clock_sync(x.comm, force_pingpong, &log->offset_end_ns, &res);
        if (res > log->residual_ns)
            log->residual_ns = res;
        w.clock.off1 = log->offset_end_ns;
        if (ok)
            pmpi_wait_coll_arrivals(&w, 0, COLL_CHUNK, x.in);
        pmpi_agree_add_max_doubles(ok ? x.in : NULL, ok ? x.last : NULL, 3 * COLL_CHUNK);
    }
    /* the first agreement: the log on every rank, every rank's buffers, the numbers
     * (and what the other steps registered before: the report files', the regions', the
     * trace's) */
    int a_on = pmpi_agree_add(PMPI_AGREE_MIN, log->on), a_ok = pmpi_agree_add(PMPI_AGREE_MIN, ok);
    int a_nseq = pmpi_agree_add(PMPI_AGREE_MAX, x.nseq);
    int a_chunk = pmpi_agree_add(PMPI_AGREE_MIN, x.chunk);
    if (causes && log->on) /* its memory now: after the agreement, nothing can fail */
        causes = pmpi_causes_prepare(&w, &c_first, &c_end);
    int a_causes = pmpi_agree_add(PMPI_AGREE_MIN, causes);
    int a_first = pmpi_agree_add(PMPI_AGREE_MAX, c_first);
    int a_end = pmpi_agree_add(PMPI_AGREE_MAX, c_end);
    pmpi_agree_run(MPI_COMM_WORLD);
    if (!pmpi_agree_value(a_causes)) /* no rank fills its cause cells */
        pmpi_wait_log_causes_free(&w);
    if (pmpi_agree_value(a_on)) {
        if (pmpi_agree_value(a_ok)) {
            /* Whether every rank's waits are whole travels to rank 0 with the wait
             * report's parts (in the report files' pull): no agreement of its own. */
            result.agreed = 1;
            result.done = exchange_run(&x, &w, (int)pmpi_agree_value(a_nseq),
                                       (int)pmpi_agree_value(a_chunk), &result);
            if (result.done)
                pmpi_wait_attribute(&w, &result);
            /* the delay analysis and the critical path: every rank, done or not (a
             * rank that is not takes part and drops the analysis) */
            if (w.cause_rank)
                result.causes = pmpi_causes_replay(
                    &w, x.comm, result.done, pmpi_agree_value(a_first), pmpi_agree_value(a_end));
            if (!result.done)
                memset(&result, 0, sizeof result); /* no part of this rank's is reported */
            result.agreed = 1;
            result.capacity = log->cap;
            result.note = log->note;
        }
    }
    pmpi_causes_drop();                    /* where it did not run */
    PMPI_Comm_set_errhandler(x.comm, was); /* the later steps' */
    PMPI_Errhandler_free(&was);
    result.records = w.n;
    result.dropped = pmpi_log_dropped(log);
    result.offset_ns = log->offset_ns;
    result.offset_end_ns = log->offset_end_ns;
    result.residual_ns = log->residual_ns;
    exchange_free(&x);
    pmpi_wait_log_free(&w);
    return result;
}
