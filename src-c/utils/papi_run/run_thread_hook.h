/* run_thread_hook.h: the program's new threads as papi_run's preloaded libraries see
 * them (--per-thread counting, --sample). Each library defines pthread_create and hands
 * it here; the new thread runs the library's own start (count it, sample it) before the
 * function the program gave it. */
#ifndef RUN_THREAD_HOOK_H
#define RUN_THREAD_HOOK_H

#include <pthread.h>

typedef int (*run_create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

/* libc's pthread_create (the next definition after the preloaded library's). */
run_create_fn run_next_create(void);

/* Starts fn(arg) through real; with on_start, the new thread calls on_start() first.
 * Without on_start, or out of memory for the hand-over, the thread starts bare. */
int run_thread_create(run_create_fn real, pthread_t *t, const pthread_attr_t *attr,
                      void *(*fn)(void *), void *arg, void (*on_start)(void));

#endif
