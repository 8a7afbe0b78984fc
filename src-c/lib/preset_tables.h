/* preset_tables.h: which native events each preset stands for on this machine.
 * Tables are loaded on first use: PAPI_CSV_EVENT_FILE (or the 3.x name
 * PAPI_PERFMON_EVENT_FILE) if set, else the built-in table for the detected CPU. */
#ifndef PRESET_TABLES_H
#define PRESET_TABLES_H
#include "papi_internal.h"

/* The definition in force for preset index idx, or NULL when the preset is not
 * available here (no definition, or a native event that does not encode or open). */
PAPI_INTERNAL const struct preset_def *preset_tables_get(int idx);
/* Why preset idx is not available, for PAPI_get_event_info's note and papi_avail. */
PAPI_INTERNAL const char *preset_tables_unavailable_reason(int idx);
PAPI_INTERNAL void preset_tables_shutdown(void);
PAPI_INTERNAL const char *preset_catalog_name(int idx);
#endif
