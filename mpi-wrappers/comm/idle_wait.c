/* idle_wait.c: the finalize sequence's waits (idle_wait.h). MPI libraries poll while a
 * rank waits in a blocking call; with more ranks than cores (a laptop, an
 * oversubscribed CI node) every world-wide step of MPI_Finalize then costs rounds of
 * the scheduler over all the pollers before the ranks with work get a core: at 64
 * ranks on 2 cores rank 0 spent 1.7 s in the wait report's Gather and 0.65 s in each
 * Allreduce, 0.3 s and 0.24 s once the waiting ranks slept (bench/README.md, issue 60).
 * On cores of its own a rank finishes within the polling stretch and never sleeps;
 * past it each test costs at most one sleep of SLEEP_NS, microseconds against a step
 * that already waited that long. */
#include <time.h>

#include "idle_wait.h"

#define POLLS    200   /* tests before the first sleep: about 10 to 50 us of polling */
#define SLEEP_NS 50000 /* 50 us between tests after that */

static void pause_after(long polls)
{
    struct timespec nap = {0, SLEEP_NS};
    if (polls >= POLLS)
        nanosleep(&nap, NULL);
}

int pmpi_idle_wait(MPI_Request *req, MPI_Status *status)
{
    for (long polls = 0;; polls++) {
        int done = 0, rc = PMPI_Test(req, &done, status);
        if (rc != MPI_SUCCESS || done)
            return rc;
        pause_after(polls);
    }
}

int pmpi_idle_mprobe(int source, int tag, MPI_Comm comm, MPI_Message *msg, MPI_Status *status)
{
    for (long polls = 0;; polls++) {
        int found = 0, rc = PMPI_Improbe(source, tag, comm, &found, msg, status);
        if (rc != MPI_SUCCESS || found)
            return rc;
        pause_after(polls);
    }
}
