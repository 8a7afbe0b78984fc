/* threads.h: thread identities and per-thread state (threads.c). */
#ifndef THREADS_H
#define THREADS_H

#include "papi_globals.h"

PAPI_INTERNAL pid_t papi_gettid(void);
PAPI_INTERNAL void threads_shutdown(void);
PAPI_INTERNAL void *thread_hl_slot(void); /* per-thread high-level state pointer slot */

#endif
