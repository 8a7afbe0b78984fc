/* own_threads.c: the wrapper's own threads (the checkpoint thread, the PAPI_INTERVAL
 * sampler) end before the library does: MPI_Finalize stops them, and so does the
 * library's destructor when it is unloaded without one (dlclose: a thread left running
 * would wake in unmapped code) or the process exits. The destructor runs under the
 * loader's lock; the threads never take it (no dlopen, dlsym or dladdr on their path;
 * dl_iterate_phdr takes the loader's write lock, which dlclose takes only after the
 * destructors), so the join cannot wait for the thread that waits for it. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pthread_timedjoin_np */
#endif
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "own_threads.h"

#define JOIN_SECONDS 5

int pmpi_own_thread_here(pid_t owner)
{
    return owner == getpid();
}

int pmpi_own_thread_join(pthread_t thread, pid_t owner, const char *what)
{
    if (!pmpi_own_thread_here(owner))
        return -1;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += JOIN_SECONDS;
    int rc = pthread_timedjoin_np(thread, NULL, &until);
    if (rc == 0)
        return 0;
    fprintf(stderr, "papi_mpi: the %s thread did not stop within %d s (%s): left running\n", what,
            JOIN_SECONDS, rc == ETIMEDOUT ? "waiting for a lock" : "join failed");
    return -1;
}
