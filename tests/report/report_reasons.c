/* report_reasons: prints, one per line as KEY=TEXT, the reasons the library gives for
 * PAPI_TOT_CYC and for component 0, for check_whole_reasons.py: the preset's note
 * (PAPI_event_info_t.note, PAPI_HUGE_STR_LEN bytes), the detail of PAPI_query_event's and
 * PAPI_add_event's failures (PAPI_strerror_detail, whole), the component's
 * disabled_reason and PAPI_get_component_reason. */
#include <stdio.h>

#include "papi.h"

static void line(const char *key, const char *text)
{
    printf("%s=", key);
    for (const char *p = text ? text : "(null)"; *p; p++)
        putchar(*p == '\n' ? ' ' : *p); /* one line each */
    putchar('\n');
}

int main(void)
{
    int es = PAPI_NULL;
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
        return 1;
    PAPI_event_info_t info;
    if (PAPI_get_event_info(PAPI_TOT_CYC, &info) != PAPI_OK)
        return 1;
    line("note", info.note);
    line("query", PAPI_query_event(PAPI_TOT_CYC) == PAPI_OK ? "" : PAPI_strerror_detail());
    if (PAPI_create_eventset(&es) != PAPI_OK)
        return 1;
    line("add", PAPI_add_event(es, PAPI_TOT_CYC) == PAPI_OK ? "" : PAPI_strerror_detail());
    const PAPI_component_info_t *c = PAPI_get_component_info(0);
    line("cmp_public", c ? c->disabled_reason : NULL);
    line("cmp_whole", PAPI_get_component_reason(0));
    PAPI_shutdown();
    return 0;
}
