/* sampler_thread.c: the sampling thread of a time series. It sleeps on a condition
 * variable until the next sample's time (no timer, no signal in the program) and blocks
 * every signal, so the program's handlers keep running on the program's threads. It is
 * named papi-interval (top -H, and the benchmark that measures its CPU time). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <signal.h>

#include "sampler_thread.h"

int st_start(pthread_t *thread, pthread_cond_t *wake, void *(*fn)(void *))
{
    pthread_condattr_t ca;
    pthread_attr_t ta;
    sigset_t all, old;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(wake, &ca);
    pthread_condattr_destroy(&ca);
    pthread_attr_init(&ta);
    pthread_attr_setstacksize(&ta, 64 * 1024);
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int ret = pthread_create(thread, &ta, fn, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&ta);
    if (ret == 0)
        pthread_setname_np(*thread, "papi-interval");
    return ret;
}

void st_advance(struct timespec *next, long long step_ns)
{
    long long ns = next->tv_nsec + step_ns % 1000000000LL;
    next->tv_sec += (time_t)(step_ns / 1000000000LL + ns / 1000000000LL);
    next->tv_nsec = ns % 1000000000LL;
}
