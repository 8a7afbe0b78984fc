/* event_native.h: native event codes routed to the component whose index they carry
 * (event_native.c). */
#ifndef EVENT_NATIVE_H
#define EVENT_NATIVE_H

#include <stddef.h>

#include "papi_globals.h"

/* The component of a native code, or NULL when the code names none. */
PAPI_INTERNAL struct papi_component *event_component_of(int code);
/* Native name -> full code, asking every component in index order. */
PAPI_INTERNAL int event_native_name_to_code(const char *name, int *code);
PAPI_INTERNAL int event_native_code_to_name(int code, char *out, size_t len);
PAPI_INTERNAL int event_native_exists(int code);
/* What one count of native code is worth in a unit (the component's event_scale): PAPI_OK
 * with *scale and unit, or PAPI_ENOEVNT quietly when its counts are plain counts. */
PAPI_INTERNAL int event_native_scale(int code, double *scale, char *unit, size_t len);

/* The component of a native code, or NULL with PAPI_ENOEVNT's reason set. */
PAPI_INTERNAL struct papi_component *event_native_component(int code);

#endif
