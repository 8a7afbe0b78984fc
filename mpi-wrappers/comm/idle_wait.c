/* idle_wait.c: the finalize sequence's waits (idle_wait.h). MPI libraries poll while a
 * rank waits in a blocking call; with more ranks than cores (a laptop, an
 * oversubscribed CI node) every world-wide step of MPI_Finalize then costs rounds of
 * the scheduler over all the pollers before the ranks with work get a core: at 64
 * ranks on 2 cores rank 0 spent 1.7 s in the wait report's Gather and 0.65 s in each
 * Allreduce, 0.3 s and 0.24 s once the waiting ranks slept (bench/README.md, issue 60).
 * On cores of its own a rank finishes within the polling stretch and never sleeps.
 * Past it the sleep doubles from SLEEP_MIN_NS to SLEEP_MAX_NS while nothing completes:
 * hundreds of oversubscribed ranks waiting for rank 0's pull would otherwise wake 20,000
 * times a second each and take the cores from the ranks with work; a wait that ends
 * costs at most one sleep of 1 ms, against a step that already waited about as long. */
#include <time.h>

#include "idle_wait.h"

#define POLLS        200     /* tests before the first sleep: about 10 to 50 us of polling */
#define SLEEP_MIN_NS 50000   /* the first sleep between tests after that: 50 us */
#define SLEEP_MAX_NS 1000000 /* doubled up to 1 ms */

/* The sleep before test number polls + 1: none during the polling stretch, then
 * SLEEP_MIN_NS doubling up to SLEEP_MAX_NS. */
long pmpi_idle_sleep_ns(long polls)
{
    if (polls < POLLS)
        return 0;
    long ns = SLEEP_MIN_NS;
    for (long k = POLLS; k < polls && ns < SLEEP_MAX_NS; k++)
        ns *= 2;
    return ns < SLEEP_MAX_NS ? ns : SLEEP_MAX_NS;
}

static void pause_after(long polls, long most_ns)
{
    long ns = pmpi_idle_sleep_ns(polls);
    struct timespec nap = {0, ns < most_ns ? ns : most_ns};
    if (nap.tv_nsec > 0)
        nanosleep(&nap, NULL);
}

int pmpi_idle_wait(MPI_Request *req, MPI_Status *status)
{
    for (long polls = 0;; polls++) {
        int done = 0, rc = PMPI_Test(req, &done, status);
        if (rc != MPI_SUCCESS || done)
            return rc;
        pause_after(polls, SLEEP_MAX_NS);
    }
}

int pmpi_idle_mprobe(int source, int tag, MPI_Comm comm, MPI_Message *msg, MPI_Status *status)
{
    return pmpi_idle_mprobe_nap(source, tag, comm, msg, status, SLEEP_MAX_NS);
}

int pmpi_idle_mprobe_nap(int source, int tag, MPI_Comm comm, MPI_Message *msg, MPI_Status *status,
                         long most_ns)
{
    for (long polls = 0;; polls++) {
        int found = 0, rc = PMPI_Improbe(source, tag, comm, &found, msg, status);
        if (rc != MPI_SUCCESS || found)
            return rc;
        pause_after(polls, most_ns);
    }
}
