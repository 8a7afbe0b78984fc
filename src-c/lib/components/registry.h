/* registry.h: the component instances (registry.c), for the layers above components
 * (the core's component calls, the event names). A component does not include it: it
 * knows only itself (component.h). */
#ifndef PAPI_REGISTRY_H
#define PAPI_REGISTRY_H

#include "component.h"

/* Every component instance in index order; an event code's component index is its
 * position here (component.h, cmp_of_code). */
extern struct papi_component *const papi_components[] PAPI_INTERNAL;
extern const int papi_num_components PAPI_INTERNAL;

#endif
