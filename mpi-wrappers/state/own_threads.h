/* own_threads.h: stopping the wrapper's own threads (own_threads.c). */
#ifndef PAPI_MPI_OWN_THREADS_H
#define PAPI_MPI_OWN_THREADS_H

#include <pthread.h>
#include <sys/types.h>

/* Whether the thread started by process owner exists in this one (a fork's child has
 * none of its parent's threads: it must neither wait for them nor take their locks). */
int pmpi_own_thread_here(pid_t owner);

/* Joins thread (started by process owner, already told to stop), waiting 5 s at most: a
 * thread stuck on pmpi_state_lock, held by a thread that exit() interrupted, must not hang
 * the program's exit. 0 joined; -1 not (another process's thread, or the time ran out:
 * then said on stderr, naming what). */
int pmpi_own_thread_join(pthread_t thread, pid_t owner, const char *what);

#endif
