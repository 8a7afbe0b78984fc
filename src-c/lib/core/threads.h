/* threads.h: thread identities and per-thread state (threads.c). */
#ifndef THREADS_H
#define THREADS_H

#include "papi_globals.h"

PAPI_INTERNAL pid_t papi_gettid(void);
/* Count this process's forks from now on (papi_fork_count; idempotent): PAPI_library_init
 * and the first papi_gettid of a thread call it. */
PAPI_INTERNAL void threads_watch_forks(void);
PAPI_INTERNAL void threads_shutdown(void);
PAPI_INTERNAL void *thread_hl_slot(void); /* per-thread high-level state pointer slot */
/* A pthread key whose destructor fn runs when a thread that set a value ends. Every key
 * made here is deleted by threads_unload (a key left behind by dlclose would call into
 * unmapped code at the next thread exit). Returns 0 or an errno value. */
PAPI_INTERNAL int thread_exit_key_create(pthread_key_t *key, void (*fn)(void *));
PAPI_INTERNAL void threads_unload(void);

#endif
