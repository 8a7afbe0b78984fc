/* wait_rules.h: the wait rules on one rank's event log, without MPI (wait_rules.c): the
 * span a record blocked in and the part of it spent waiting for a moment, the k-th send
 * matched with the k-th receive, the last arrivals at each collective and which one each
 * waits for, the totals per rank, call site and region. wait_states.c runs them at
 * MPI_Finalize with what the other ranks sent it; tests/report/test_waits_golden.c runs
 * them on the golden cases' event logs, every rank's in one process. */
#ifndef PAPI_MPI_WAIT_RULES_H
#define PAPI_MPI_WAIT_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "event_record.h"
#include "state.h"

/* The wait kinds (enum pmpi_wait_kind, PMPI_WAIT_KINDS) and their report names
 * (pmpi_wait_names: "late_sender_s" ...) are generated from wait_kinds.list into
 * papi_mpi_calls.h (state.h includes it). */

/* A message whose send has this many bytes or more is taken for a rendezvous send (its
 * sender waits for the receive) as MPICH's and Open MPI's default eager limits are below
 * it; a synchronous send (Ssend, Issend) always is. */
#define PMPI_RENDEZVOUS_BYTES (64 * 1024)

/* The waits per call site, sorted by key (wait_rules.c). */
struct pmpi_site_wait;

/* What pmpi_waits_compute returns: the report, the call sites and the trace read it. */
struct pmpi_wait_result {
    int done;   /* computed on this rank (on rank 0 after pmpi_wait_report_settle: on all) */
    int agreed; /* every rank took part in the exchanges (their first agreement) */
    double rank_ns[PMPI_WAIT_KINDS];                     /* this rank's waits */
    double region_ns[PMPI_MAX_REGIONS][PMPI_WAIT_KINDS]; /* while each region was open */
    long long p2p_matched, p2p_unmatched;                /* receives (and sends) matched or not */
    long long coll_matched, coll_unmatched; /* collectives on world-congruent or others */
    long long records, dropped;             /* the log's */
    long long capacity;                     /* the log's records per rank */
    const char *note;                       /* why the log is off or smaller, or NULL */
    double offset_ns, offset_end_ns, residual_ns;
    struct pmpi_site_wait *sites; /* heap, or NULL: pmpi_waits_free */
    size_t nsites;
    /* the root causes and the critical path (cause_replay.h: its static result), NULL
     * when left out (PAPI_MPI_ROOT_CAUSES=0, or a rank without the log) */
    struct pmpi_cause_result *causes;
};

/* The waits (ns) of one call site (the key of the call-site tables, state.h), added to
 * ns[]. */
void pmpi_waits_of_site(const struct pmpi_wait_result *w, uint64_t key,
                        long long ns[PMPI_WAIT_KINDS]);
void pmpi_waits_free(struct pmpi_wait_result *w);

/* A record's ticks to ns on rank 0's clock: t_init + (tick - tick_init) * npt, minus the
 * offset to rank 0 interpolated from off0 (at t_init) to off1 (span_ns later). */
struct pmpi_wait_clock {
    long long t_init, tick_init;
    double npt, off0, off1, span_ns;
};
double pmpi_wait_time(const struct pmpi_wait_clock *c, long long tick);

/* What the records of one meeting of two or more ranks share (a message's send and
 * receive, a collective's members), on the record that completed it (a nonblocking
 * call's Wait): the delay analysis's synchronisation points (cause_timeline.h). */
enum { PMPI_SYNC_NONE, PMPI_SYNC_P2P, PMPI_SYNC_WORLD, PMPI_SYNC_GROUP };
struct pmpi_sync {
    int32_t type; /* PMPI_SYNC_*: P2P a = the sender's rank, b = its send record; WORLD */
    int32_t a;    /* b = the sequence number; GROUP a = the group's key, b = the number */
    int64_t b;
};
/* A wait's cause on a world collective: the cause rank's record of that sequence
 * number, which only that rank knows (cause_rec holds -2 - seq). */
#define PMPI_CAUSE_SEQ(seq) (-2 - (int64_t)(seq))

/* One rank's log while its waits are computed: n records and a cell of each per record
 * (pmpi_wait_log_cells makes them; pmpi_wait_log_causes the cause cells, which the
 * rules then fill: NULL, none kept). */
struct pmpi_wait_log {
    struct pmpi_wait_clock clock;
    long long n;
    struct pmpi_event *ev;  /* the wildcard receives get their partner and tag here */
    int64_t *waiter;        /* the Wait record that completed record i's request, or -1 */
    double *wait;           /* ns waited in record i */
    uint8_t *kind;          /* its wait kind */
    int rank;               /* this rank (the sync ids of its sends) */
    struct pmpi_sync *sync; /* record i's meeting (on the record that completed it) */
    int32_t *cause_rank;    /* the rank record i's wait waited for, or -1 */
    int64_t *cause_rec;     /* its record there (or PMPI_CAUSE_SEQ) */
};
/* 0, or -1 without memory (nothing then to free). */
int pmpi_wait_log_cells(struct pmpi_wait_log *w);
/* The sync and cause cells (before pmpi_wait_link): 0, or -1 without memory (none kept). */
int pmpi_wait_log_causes(struct pmpi_wait_log *w);
/* Those cells freed (NULL after: the rules then keep no cause). */
void pmpi_wait_log_causes_free(struct pmpi_wait_log *w);
void pmpi_wait_log_free(struct pmpi_wait_log *w);

/* Each request's Wait (request_link.c); a receive's MPI_ANY_SOURCE and any_tag (this
 * MPI's MPI_ANY_TAG) from the status of the Wait that completed it. */
void pmpi_wait_link(struct pmpi_wait_log *w, int any_tag);

/* Point-to-point. A send as its receiver sees it, and the receive's answer. */
struct pmpi_send_info {
    int32_t tag, flags;
    int64_t idx; /* the sender's record */
    double t0;   /* enter, rank 0's clock */
    int64_t bytes;
};
struct pmpi_recv_answer {
    int64_t idx;       /* the sender's record */
    double t0;         /* the receive's post time */
    int64_t ridx;      /* the receive's record */
    int32_t rank, pad; /* the receiver's */
};
/* Sender: the sends to each of the P ranks (cnt[P], zeroed by the caller); the number of
 * sends, and of receives in *nrecv. */
long long pmpi_wait_sends_count(const struct pmpi_wait_log *w, int P, int *cnt, long long *nrecv);
/* Sender: the sends in out[], those to rank r from dis[r] on, in log order (fill[P]: 0). */
void pmpi_wait_sends_fill(const struct pmpi_wait_log *w, int P, const int *dis, int *fill,
                          struct pmpi_send_info *out);
/* Receiver: in[] holds sender r's sends here at rdis[r], rcnt[r] of them in its log
 * order. The k-th send of (sender, tag, world) is matched with the k-th receive of the
 * same (MPI's non-overtaking order): the late-sender wait added, its answer in ans[]
 * (sender order, acnt[r] for sender r, zeroed by the caller). sk, rk: scratch of 5
 * int64_t per send received and per receive. Returns the answers. */
long long pmpi_wait_receives_match(struct pmpi_wait_log *w, int P, const struct pmpi_send_info *in,
                                   const int *rcnt, const int *rdis, int64_t *sk, int64_t *rk,
                                   struct pmpi_recv_answer *ans, int *acnt,
                                   struct pmpi_wait_result *res);
/* Sender: the answers to its sends; a synchronous or rendezvous send waited for its
 * receive (late receiver). */
void pmpi_wait_sends_answered(struct pmpi_wait_log *w, const struct pmpi_recv_answer *back,
                              long long n);

/* Collectives on world-congruent communicators, by sequence number: the numbers used
 * (1 + the largest); this rank's arrivals at numbers first..first+nseq-1 in in[3 * nseq]
 * (all, root, non-root; -inf none); with last[] the maxima over the ranks, each one's
 * wait. The numbers may come in chunks (first > 0): each record is matched once.
 * who[3 * nseq] (or NULL): the rank of each last arrival (pmpi_wait_coll_mine's, maxima
 * over the ranks), the waits' causes. */
int pmpi_wait_coll_count(const struct pmpi_wait_log *w);
void pmpi_wait_coll_arrivals(const struct pmpi_wait_log *w, int first, int nseq, double *in);
/* mine[3 * nseq]: this rank where its arrival in[] is the last one, else -1. */
void pmpi_wait_coll_mine(const struct pmpi_wait_log *w, int nseq, const double *in,
                         const double *last, int *mine);
void pmpi_wait_coll_waits(struct pmpi_wait_log *w, int first, int nseq, const double *last,
                          const int *who, struct pmpi_wait_result *res);
/* Collectives on other communicators: every record goes to rank key % P, which answers
 * each with the last arrivals of its (group key, sequence number). */
struct pmpi_grp_item {
    uint32_t key;
    int32_t seq, root, rank; /* rank: the sender's */
    double t;
    int64_t idx; /* the record on its rank */
};
struct pmpi_grp_answer {
    double arr[3]; /* last arrival: all, root, non-root (-inf: none) */
    int64_t idx;
    int64_t who_rec[3]; /* the record of each last arrival, on its rank: */
    int32_t who[3], pad;
};
/* Sender: the items to each rank (cnt[P], zeroed); their number; *idle the members with
 * nothing to wait for (matched as they are). */
long long pmpi_wait_group_count(const struct pmpi_wait_log *w, int P, int *cnt, long long *idle);
void pmpi_wait_group_fill(const struct pmpi_wait_log *w, int P, const int *dis, int *fill,
                          struct pmpi_grp_item *out);
/* The rank an item goes to: in[] the nin items received, order[] scratch of nin
 * pointers; each item's answer at its index in ans[]. */
void pmpi_wait_group_answer(struct pmpi_grp_item *in, long long nin, struct pmpi_grp_item **order,
                            struct pmpi_grp_answer *ans);
/* Sender: the answers to its n items, in the order they were sent. */
void pmpi_wait_group_waits(struct pmpi_wait_log *w, const struct pmpi_grp_answer *back, long long n,
                           struct pmpi_wait_result *res);

/* The waits into the rank's totals, the regions open and the call sites (res->sites). */
void pmpi_wait_attribute(const struct pmpi_wait_log *w, struct pmpi_wait_result *res);

#endif
