/* idle_wait.h: completing the finalize sequence's requests without holding a core while
 * waiting (idle_wait.c). */
#ifndef PAPI_MPI_IDLE_WAIT_H
#define PAPI_MPI_IDLE_WAIT_H

#include <mpi.h>

/* MPI_Wait's contract (req completed and freed, status filled unless
 * MPI_STATUS_IGNORE; returns the MPI's code), but after a short stretch of polling the
 * rank sleeps between tests, longer and longer while nothing completes: where ranks
 * outnumber cores, a rank waiting for the others gives its core to them instead of
 * spinning on it. */
int pmpi_idle_wait(MPI_Request *req, MPI_Status *status);
/* A request just started, as in pmpi_idle_complete(PMPI_Ibcast(..., &req), &req): the
 * start's code when it failed (req was not made), else pmpi_idle_wait's. */
static inline int pmpi_idle_complete(int started, MPI_Request *req)
{
    return started != MPI_SUCCESS ? started : pmpi_idle_wait(req, MPI_STATUS_IGNORE);
}
/* The sleep after the polls-th unsuccessful test (0 while polling): 50 us, doubled
 * after each further one up to 1 ms. */
long pmpi_idle_sleep_ns(long polls);
/* MPI_Mprobe's contract (a matched message in *msg, its status), waiting the same way. */
int pmpi_idle_mprobe(int source, int tag, MPI_Comm comm, MPI_Message *msg, MPI_Status *status);
/* The same with its sleeps at most most_ns each: for a wait that is one of a chain of
 * short ones (the root-cause replay's messages), where a sleep of up to 1 ms per link
 * would add up. */
int pmpi_idle_mprobe_nap(int source, int tag, MPI_Comm comm, MPI_Message *msg, MPI_Status *status,
                         long most_ns);

#endif
