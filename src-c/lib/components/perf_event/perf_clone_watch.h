/* perf_clone_watch.h: the perf_event component's clone_watch (component.h). */
#ifndef PERF_CLONE_WATCH_H
#define PERF_CLONE_WATCH_H

#include <stdint.h>

#include "component.h"

/* Kept until PAPI_shutdown, which closes it (the word is then gone: callers ask again in
 * the next library generation). */
PAPI_INTERNAL int pe_clone_watch(const struct papi_component *self, const volatile uint64_t **word);

#endif
