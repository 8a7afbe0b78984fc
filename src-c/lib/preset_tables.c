/* preset_tables.c: no CPU preset tables yet (the Presets work brings the CSV tables,
 * the parser and PAPI_CSV_EVENT_FILE). Until then every preset is reported as not
 * available, with that reason, and adding one returns PAPI_ENOEVNT. */
#include "preset_tables.h"

const struct preset_def *preset_tables_get(int idx)
{
    (void)idx;
    return NULL;
}

const char *preset_tables_unavailable_reason(int idx)
{
    (void)idx;
    return "no preset table is built into this library yet";
}

void preset_tables_shutdown(void)
{
}
