/* perf_event_internal.h: the perf_event component's two instances and their classes. Not
 * seen by the core, which reaches this component only through component.h. The native
 * events have their own headers, top down: native_events.h (the dispatch), native_hybrid.h,
 * native_sysfs.h, native_pfm.h, native_table.h; the event sets theirs (pe_types.h,
 * perf_context.h, perf_read.h ...), the probe's state is pmu_state.h.
 *
 * One implementation, two instances: "perf_event" (core and software PMUs, counted per
 * thread) and "perf_event_uncore" (uncore PMUs, counted per CPU). An instance's class
 * (PE_CORE / PE_UNCORE) is its struct papi_component's instance pointer. Both share one
 * table of native events (native_events.c), whose index is the local event code. */
#ifndef PERF_EVENT_INTERNAL_H
#define PERF_EVENT_INTERNAL_H

#include <stdint.h>

#include "component.h"
#include "pmu_state.h"

enum pe_class { PE_CORE = 0, PE_UNCORE = 1 };

static inline enum pe_class pe_class_of(const struct papi_component *self)
{
    return (enum pe_class)(intptr_t)self->instance;
}

#endif
