/* powercap.h: the powercap component's instance, for the registry
 * (core/component_registry.c). */
#ifndef POWERCAP_H
#define POWERCAP_H

#include "component.h"

extern struct papi_component powercap_component __attribute__((visibility("hidden")));

#endif
