/* persistent_requests.h: the rank's one table of persistent requests
 * (persistent_requests.c): what a *_init call filed, read at each MPI_Start/MPI_Startall
 * by the partners (traffic.c) and the event log (event_log.c), forgotten at
 * MPI_Request_free. */
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

/* A filed request, as a start reads it. */
struct pmpi_persist {
    int dest, source; /* world ranks; -1: none (MPI_PROC_NULL, MPI_ANY_SOURCE, unknown) */
    int tag, flags;
    long long sent, recvd; /* the bytes one start moves */
};

/* A *_init call that succeeded: its request's partners (ranks of comm, negative: none),
 * tag, bytes of one start and flags, filed whether or not recording is on (a request
 * made while paused is started later). A handle filed before and never freed is filed
 * anew; a table without room counts the request in pmpi_persist_dropped(). */
void pmpi_persist_file(MPI_Request req, MPI_Comm comm, int dest, int source, int tag,
                       long long sent, long long recvd, int flags);
/* What req's *_init filed into *p: 1, or 0 when it filed nothing (a persistent
 * collective, a dropped request, not a persistent request). Async-signal-safe. */
int pmpi_persist_find(MPI_Request req, struct pmpi_persist *p);
/* MPI_Request_free, and the *_init calls this table files nothing for (persistent
 * collectives: the handle may be one filed before). */
void pmpi_persist_forget(MPI_Request req);
/* Requests filed nowhere (the table had no room in their probes). */
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
