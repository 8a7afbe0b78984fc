/* event_record.h: one record of the event log (event_log.h), what its kinds and flags
 * mean; no MPI, so the wait rules (wait_rules.c) and their test read it too. */
#ifndef PAPI_MPI_EVENT_RECORD_H
#define PAPI_MPI_EVENT_RECORD_H

#include <stdint.h>

/* What a record is. A Sendrecv is two records (a send and a receive, same times). */
enum pmpi_ev_kind {
    PMPI_EV_CALL = 1,     /* an MPI call with no partner to match */
    PMPI_EV_SEND,         /* a send (blocking, or the I/persistent start when req set) */
    PMPI_EV_RECV,         /* a receive (blocking, or an Irecv when req is set) */
    PMPI_EV_COLL,         /* a collective (blocking, or a nonblocking start when req set) */
    PMPI_EV_WAIT,         /* Wait/Waitall/Test... that completed request req */
    PMPI_EV_REGION_ENTER, /* call: the region's index in pmpi_regions()->regions */
    PMPI_EV_REGION_EXIT,
    PMPI_EV_COUNTER, /* a PAPI_INTERVAL sample of one event: call is the event's index,
                      * bytes its count since MPI_Init, t0 = t1 the sample's time */
};

#define PMPI_EVF_SYNC  1 /* a synchronous send (Ssend, Issend): waits for its receive */
#define PMPI_EVF_WORLD 2 /* the communicator is congruent with MPI_COMM_WORLD */
#define PMPI_EVF_ROOT  4 /* a rooted collective: this rank is its root */
#define PMPI_EVF_GROUP 8 /* a collective on another communicator: pad is its group's key */
/* PMPI_EV_COUNTER: a named metric (PAPI_MPI_METRICS) of one MPI_Pcontrol region entry,
 * logged as the region closes: call is the metric's index, pad the region's, bytes the
 * value's bits as a double. */
#define PMPI_EVF_METRIC 32
/* A rooted collective on an intercommunicator, in the root's group but not the root
 * (MPI_PROC_NULL): it moves nothing, waits for nothing; counted as a member. */
#define PMPI_EVF_IDLE 16
/* A Test form's polls (it returned not done): consecutive ones of one call and call site
 * on one thread folded into this CALL record, t0 the first's start, t1 the last's end,
 * calls how many; a record the event log file has is not changed (the next poll starts
 * another). The trace has every call, a polling loop one record. */
#define PMPI_EVF_POLL 64

/* One record: 64 bytes, whatever its kind (the README's table): a cache line each. */
struct pmpi_event {
    int64_t t0, t1;  /* enter and exit, pmpi_ticks() units */
    uint64_t site;   /* caller's return address (the call-site key's address) */
    uint64_t req;    /* request made (I-calls) or completed (Wait...), 0: none */
    int64_t bytes;   /* bytes sent (send), posted to receive (recv) or handed over (coll) */
    int32_t peer;    /* p2p: partner's world rank; coll: root's world rank; -1: none */
    int32_t tag;     /* p2p: the tag (the status's for MPI_ANY_TAG); coll: sequence number
                      * among the collectives on world-congruent communicators */
    uint16_t call;   /* call id (PMPI_ID_...), or the region's index */
    uint8_t kind;    /* enum pmpi_ev_kind: stored last (release), 0 while being written */
    uint8_t flags;   /* PMPI_EVF_* */
    uint32_t pad;    /* PMPI_EVF_GROUP: the key of the communicator's group (its world
                     * ranks hashed: the same on every member) */
    uint32_t thread; /* the recording slot of the thread that made the call (0: the
                      * thread of MPI_Init; PMPI_MAX_THREADS: the shared slot); the
                      * sampler's counter records are the rank's, 0 */
    uint32_t calls;  /* PMPI_EVF_POLL: the polls it folds (1 ..); 0 otherwise: one call */
};
_Static_assert(sizeof(struct pmpi_event) == 64, "the README states 64 bytes per record");

#endif
