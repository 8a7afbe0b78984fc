/* perf_sampler.h: the library's sampler thread and its table of contexts whose events
 * sample into rings (perf_sampler.c). */
#ifndef PERF_SAMPLER_H
#define PERF_SAMPLER_H

#include "component.h"

struct cmp_context;
/* A place in the sampler table for ctx (ctx->sampler), and the thread started if it is
 * not running in this process yet. PAPI_ENOSUPP when neither can be had. */
PAPI_INTERNAL int pe_sampler_attach(struct cmp_context *ctx);
/* Give the place back (ctx stopped, or a forked child's copy of its parent's: then
 * nothing of the parent's is touched). */
PAPI_INTERNAL void pe_sampler_detach(struct cmp_context *ctx);
/* Let the thread know of a ring's descriptor, or forget it before it is closed. */
PAPI_INTERNAL void pe_sampler_watch(const struct cmp_context *ctx, int fd);
PAPI_INTERNAL void pe_sampler_unwatch(const struct cmp_context *ctx, int fd);
/* PAPI_start: the thread may empty ctx's rings from now on. */
PAPI_INTERNAL void pe_sampler_publish(struct cmp_context *ctx);
/* PAPI_stop (counters stopped): wait for the thread to be out of ctx, empty the rings one
 * last time, and take ctx away from the thread. */
PAPI_INTERNAL void pe_sampler_finish(struct cmp_context *ctx);
/* PAPI_read: empty ctx's rings unless the thread is at it (then it delivers them).
 * Async-signal-safe. */
PAPI_INTERNAL void pe_sampler_drain_now(const struct cmp_context *ctx);

#endif
