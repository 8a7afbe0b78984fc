/* fuzz_preset_stubs.c: link-only stand-ins for the library parts the fuzz target does
 * not exercise (the table loader, native event names). The parser, the postfix
 * compiler, preset_events.c (catalog, preset_compute) and errors.c are the real ones. */
#include "preset_tables.h"

struct papi_globals g_papi;

int event_native_code_to_name(int code, char *out, size_t len)
{
    (void)code;
    return papi_strcpy(out, len, "?") ? PAPI_EBUF : PAPI_OK;
}

const struct preset_def *preset_tables_get(int idx)
{
    (void)idx;
    return NULL;
}

const char *preset_tables_unavailable_reason(int idx)
{
    (void)idx;
    return "fuzz build";
}

