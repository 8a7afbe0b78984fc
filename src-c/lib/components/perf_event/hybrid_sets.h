/* hybrid_sets.h: the context callbacks of a machine with several core types (hybrid_sets.c),
 * a constant table: only its context callbacks (ctx_create ... arm_sampling) are set. */
#ifndef HYBRID_SETS_H
#define HYBRID_SETS_H

#include "component.h"

extern const struct papi_component pe_hybrid_sets PAPI_INTERNAL;

#endif
