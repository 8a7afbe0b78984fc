/* hl_notice.c: the high-level calls' one-line notice and the reason an event does not
 * count here, shared by the 3.5/7.x sessions and the region API. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "hl_notice.h"
#include "preset_tables.h"

int hl_verbose(void)
{
    return env_get("PAPI_HL_VERBOSE") != NULL;
}

static int quiet(void)
{
    const char *q = env_get("PAPI_QUIET");
    return q && *q && strcmp(q, "0") != 0;
}

void hl_notice_once(const char *msg)
{
    static atomic_int printed;
    if (quiet())
        return;
    if (atomic_exchange(&printed, 1) && !hl_verbose())
        return;
    fprintf(stderr, "PAPI: %s\n", msg);
}

void hl_notice(const char *msg)
{
    if (!quiet())
        fprintf(stderr, "PAPI: %s\n", msg);
}

/* Why event code does not count here, whole whatever its length (heap; the caller frees
 * it; NULL only when out of memory): the preset's reason (which native event does not
 * open, and why) or the last error's detail, and, for an event of the perf_event
 * component (the CPU's: a preset or a native event of component 0), that component's
 * reason (another component's event has its own in the detail). */
char *hl_missing_reason(int code)
{
    const char *detail = papi_last_error_detail();
    const char *why = detail && *detail ? detail : "it cannot be opened here";
    char *own = NULL, *out = NULL;
    if (IS_PRESET(code)) {
        const char *r = preset_tables_unavailable_reason(code & PAPI_PRESET_AND_MASK);
        if (r && *r && (own = strdup(strncmp(r, "not available: ", 15) == 0 ? r + 15 : r)))
            why = own;
    }
    const char *cmp = PAPI_get_component_reason(0); /* whole */
    if ((cmp && !cmp[0]) || PAPI_get_event_component(code) != 0)
        cmp = NULL;
    if (asprintf(&out, "%s%s%s", why, cmp ? "; perf_event: " : "", cmp ? cmp : "") < 0)
        out = NULL;
    free(own);
    return out;
}
