/* Example: a tool that measures a program from inside its process (an OMPT tool, a PMPI
 * wrapper, a preloaded library) starts the program's own libpapi with PAPI_tool_init: its
 * event sets count, while the program's PAPI_is_initialized still shows only what the
 * program did (here the tool's part runs first, then the program's).
 * Shows: PAPI_tool_init PAPI_is_initialized */
#include <papi.h>
#include <stdio.h>

int main(void)
{
    /* The tool: the library up, one set of its own counting the calling thread. */
    int es = PAPI_NULL;
    long long v = 0;
    if (PAPI_tool_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT ||
        PAPI_create_eventset(&es) != PAPI_OK ||
        PAPI_add_named_event(es, "perf::TASK-CLOCK") != PAPI_OK || PAPI_start(es) != PAPI_OK)
        return 1;
    /* The program: nothing initialised by its own calls yet, then its own start. */
    printf("the program sees %d before its PAPI_library_init", PAPI_is_initialized());
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
        return 1;
    printf(", %d after it\n", PAPI_is_initialized());
    if (PAPI_stop(es, &v) != PAPI_OK)
        return 1;
    printf("the tool's set counted: %s\n", v > 0 ? "yes" : "no");
    return 0;
}
