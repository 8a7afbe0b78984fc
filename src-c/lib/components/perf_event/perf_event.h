/* perf_event.h: what the perf_event component tells the layers above besides its
 * struct papi_component instances (the preset tables are written per core PMU). */
#ifndef PERF_EVENT_H
#define PERF_EVENT_H

#include "component.h"

extern struct papi_component perf_event_component __attribute__((visibility("hidden")));
extern struct papi_component perf_event_uncore_component __attribute__((visibility("hidden")));

/* The name of the core PMU libpfm4 detected (model-specific first), or NULL. */
__attribute__((visibility("hidden"))) const char *perf_event_core_pmu_name(void);

#endif
