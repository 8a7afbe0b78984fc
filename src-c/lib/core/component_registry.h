/* component_registry.h: the components' descriptions (PAPI_get_component_info) over the
 * instances of components/registry.c. */
#ifndef COMPONENT_REGISTRY_H
#define COMPONENT_REGISTRY_H

#include "component.h"
#include "papi_globals.h"

PAPI_INTERNAL void components_init(void);
/* PAPI_get_component_info for the core: NULL before init or for no such component. */
PAPI_INTERNAL const PAPI_component_info_t *component_info(int cidx);
/* The component of index cidx, or NULL (PAPI_ENOCMP reported) when there is none. */
PAPI_INTERNAL struct papi_component *component_get(int cidx);

#endif
