/* preset_events.h: preset names, codes, descriptions and the value of a derived preset
 * (preset_events.c). */
#ifndef PRESET_EVENTS_H
#define PRESET_EVENTS_H

#include <stddef.h>

#include "papi_globals.h"
#include "preset_def.h"

PAPI_INTERNAL int preset_name_to_code(const char *name, int *code);
PAPI_INTERNAL int preset_code_to_name(int code, char *out, size_t len);
/* The definition in force for this machine, or NULL if the preset is not available. */
PAPI_INTERNAL const struct preset_def *preset_lookup(int code);
PAPI_INTERNAL int preset_enum(int *code, int modifier);
PAPI_INTERNAL int preset_get_info(int code, PAPI_event_info_t *info);
PAPI_INTERNAL long long preset_compute(const struct preset_def *def, const long long *terms);

#endif
