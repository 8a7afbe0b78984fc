/* component_registry.h: the component instances (component.h) and their descriptions. */
#ifndef COMPONENT_REGISTRY_H
#define COMPONENT_REGISTRY_H

#include "papi_globals.h"

PAPI_INTERNAL void components_init(void);
PAPI_INTERNAL void components_shutdown(void);
/* The component of index cidx, or NULL (PAPI_ENOCMP reported) when there is none. */
PAPI_INTERNAL struct papi_component *component_get(int cidx);

#endif
