/* persistent_requests.h: the rank's one table of persistent requests
 * (persistent_requests.c): what a *_init call filed, read once at each
 * MPI_Start/MPI_Startall by its wrapper and handed to the partners (traffic.c) and the
 * event log (event_log.c), forgotten at MPI_Request_free. */
#ifndef PAPI_MPI_PERSISTENT_REQUESTS_H
#define PAPI_MPI_PERSISTENT_REQUESTS_H

#include <mpi.h>
#include <stdint.h>

/* What a request is (flags; PMPI_PERSIST_WORLD is set by the table). */
#define PMPI_PERSIST_SEND        1  /* a send to dest */
#define PMPI_PERSIST_RECV        2  /* a receive from source */
#define PMPI_PERSIST_SYNC        4  /* MPI_Ssend_init */
#define PMPI_PERSIST_PARTITIONED 8  /* MPI_Psend_init/MPI_Precv_init: no one message to log */
#define PMPI_PERSIST_WORLD       16 /* its communicator is congruent with MPI_COMM_WORLD */

/* A filed request, as a start reads it; flags 0 (no partner, dest and source -1): its
 * request filed nothing (a persistent collective, a dropped request, not a persistent
 * request). */
struct pmpi_persist {
    uint64_t key;     /* pmpi_req_key of the request */
    int dest, source; /* world ranks; -1: none (MPI_PROC_NULL, MPI_ANY_SOURCE, unknown) */
    int tag, flags;
    long long sent, recvd; /* the bytes one start moves */
};

/* The requests of one MPI_Start/MPI_Startall, each looked up once (pmpi_persist_started)
 * and read by both the partners and the event log: p[0 .. n-1] in the call's order,
 * PMPI_STARTED_MINE of them in `mine`, more on the heap (pmpi_persist_started_end). */
#define PMPI_STARTED_MINE 64
struct pmpi_started {
    int n;
    struct pmpi_persist *p;
    struct pmpi_persist mine[PMPI_STARTED_MINE];
};

/* A *_init call that succeeded: its request's partners (ranks of comm, negative: none),
 * tag, bytes of one start and flags, filed whether or not recording is on (a request
 * made while paused is started later). A handle filed before and never freed is filed
 * anew; a table without room counts the request in pmpi_persist_dropped(). */
void pmpi_persist_file(MPI_Request req, MPI_Comm comm, int dest, int source, int tag,
                       long long sent, long long recvd, int flags);
/* What each of the n requests a start started filed at its *_init, into *s (n < 0 or
 * reqs NULL: none). No memory for more than PMPI_STARTED_MINE: the first ones only, the
 * others counted in pmpi_persist_dropped(). The Fortran form converts the handles. */
void pmpi_persist_started(struct pmpi_started *s, int n, const MPI_Request *reqs);
void pmpi_persist_started_f(struct pmpi_started *s, int n, const MPI_Fint *reqs);
/* Frees what pmpi_persist_started took from the heap. */
void pmpi_persist_started_end(struct pmpi_started *s);
/* MPI_Request_free, and the *_init calls this table files nothing for (persistent
 * collectives: the handle may be one filed before). */
void pmpi_persist_forget(MPI_Request req);
/* Requests filed nowhere (the table had no room in their probes), and started requests
 * not read (no memory for a long MPI_Startall). */
long long pmpi_persist_dropped(void);

/* A request handle as a key (the table, the event log); MPI_REQUEST_NULL (not 0 in MPICH
 * or Open MPI) is 0, none: a Wait/Test on it completes nothing (its call is a
 * PMPI_EV_CALL record). */
static inline uint64_t pmpi_req_key(MPI_Request r)
{
    if (r == MPI_REQUEST_NULL)
        return 0;
    uint64_t k = 0;
    __builtin_memcpy(&k, &r, sizeof r < sizeof k ? sizeof r : sizeof k);
    return k;
}

#endif
