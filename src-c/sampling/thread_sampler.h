/* thread_sampler.h: the calling thread's sampling event set, opened and closed in one place
 * (thread_sampler.c) for the region API (region_sample.c) and the MPI wrapper (mpi_sample.c):
 * a set of its own attached to the thread (so it runs beside the thread's counting sets of
 * the same component), EVENT sampled through PAPI_overflow or PAPI_overflow_frequency into
 * the caller's handler, started. Over the public PAPI API only, so it is compiled apart from
 * the rest of src-c/sampling (papi_thread_sampler), into libpapi and the MPI wrapper. */
#ifndef PAPI_THREAD_SAMPLER_H
#define PAPI_THREAD_SAMPLER_H

#include <papi.h>
#include <stddef.h>

#define THREAD_SAMPLER_SETS 1024 /* event set handles a handler finds its owner by */

/* What a thread samples: the event, every n events (a period) or n times a second (hz). */
struct sampler_spec {
    int code;
    int n; /* PAPI_overflow's threshold, PAPI_overflow_frequency's hz */
    int hz;
    PAPI_overflow_handler_t handler;
};

/* Opens and starts the calling thread's sampling set in *es, owner registered for the
 * handler (thread_sampler_owner). PAPI_OK, or the failing call's PAPI error code (PAPI_ENOMEM
 * for a handle past THREAD_SAMPLER_SETS) with why it failed in why ("PAPI_add_event: ...")
 * and nothing left behind: no set, no descriptor, *es PAPI_NULL. */
__attribute__((visibility("hidden"))) int thread_sampler_open(const struct sampler_spec *sp,
                                                              void *owner, int *es, char *why,
                                                              size_t len);

/* The owner es was opened for, NULL once closed: async-signal-safe, for the handler. */
__attribute__((visibility("hidden"))) void *thread_sampler_owner(int es);

/* Stops the set, forgets its owner and destroys it; *es PAPI_NULL. On the sampled thread. */
__attribute__((visibility("hidden"))) void thread_sampler_close(int *es);

#endif
