/* perf_context.h: the event-set contexts of the perf_event component (perf_context.c):
 * their state is pe_types.h's; the reads are perf_read.h's. Not seen outside this
 * component. */
#ifndef PERF_CONTEXT_H
#define PERF_CONTEXT_H

#include "pe_types.h"
#include "native_events.h"
#include "native_hybrid.h"
#include "perf_event_internal.h"

PAPI_INTERNAL int pe_ctx_create(const struct papi_component *self, const struct cmp_target *t,
                                struct cmp_context **ctx);
PAPI_INTERNAL void pe_ctx_destroy(struct cmp_context *ctx);
PAPI_INTERNAL int pe_add(struct cmp_context *ctx, int local, int *slot);
PAPI_INTERNAL int pe_remove(struct cmp_context *ctx, int slot);
PAPI_INTERNAL int pe_start(struct cmp_context *ctx);
PAPI_INTERNAL int pe_stop(struct cmp_context *ctx);
PAPI_INTERNAL int pe_set_overflow(struct cmp_context *ctx, int slot, uint64_t period);
PAPI_INTERNAL int pe_arm_overflow(struct cmp_context *ctx, int slot, int signo, pid_t tid,
                                  int *source);
PAPI_INTERNAL int pe_retune_overflow(const struct cmp_context *ctx, int slot, uint64_t period);
PAPI_INTERNAL int pe_counts_ns(const struct cmp_context *ctx, int slot);
/* PAPI_start's check: whether group g, read as now after its enable and as before at it,
 * could not be scheduled (enabled time grew, running time did not), cpu being the counted
 * thread's CPU (native_target_cpu) for hybrid core PMUs. */
PAPI_INTERNAL int pe_group_unscheduled(const struct cmp_context *ctx, int g,
                                       const struct cmp_count *before, const struct cmp_count *now,
                                       int cpu);
PAPI_INTERNAL int pe_reset(struct cmp_context *ctx);
PAPI_INTERNAL int pe_set_sampling(struct cmp_context *ctx, int slot, uint64_t period);
PAPI_INTERNAL int pe_arm_sampling(struct cmp_context *ctx, int slot, cmp_sample_fn fn, void *arg);

#endif
