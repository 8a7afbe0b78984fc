/* sampler_thread.h: the thread that takes a time series' samples (sampler_thread.c),
 * shared by the region API's PAPI_INTERVAL and the MPI wrapper's. */
#ifndef PAPI_SAMPLER_THREAD_H
#define PAPI_SAMPLER_THREAD_H

#include <pthread.h>
#include <time.h>

#define ST_HIDDEN __attribute__((visibility("hidden")))

/* wake: a condition variable on CLOCK_MONOTONIC, for pthread_cond_timedwait until the
 * next sample; then the thread (a 64 KiB stack) with every signal blocked, so that the
 * program's signals never land on it. pthread_create's result. */
ST_HIDDEN int st_start(pthread_t *thread, pthread_cond_t *wake, void *(*fn)(void *));
/* next += step_ns: the time of the next sample, on CLOCK_MONOTONIC. */
ST_HIDDEN void st_advance(struct timespec *next, long long step_ns);

#endif
