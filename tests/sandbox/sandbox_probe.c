/* sandbox_probe.c: what a program sees when perf_event_open is refused (run it under
 * seccomp_run): the perf_event component's state and reason, the error of adding a
 * software event (with its detail: PAPI_VERB_ECONT prints it), and the region API's
 * notice. Prints them for check_sandbox.sh; exits 0 unless a call crashes or claims a
 * count it cannot have. */
#include <stdio.h>
#include <string.h>

#include "papi.h"

int main(void)
{
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
        printf("PAPI_library_init failed\n");
        return 1;
    }
    const PAPI_component_info_t *c = PAPI_get_component_info(0);
    printf("component %s disabled=%d reason: %s\n", c->name, c->disabled, c->disabled_reason);
    PAPI_set_debug(PAPI_VERB_ECONT); /* every error below prints its detail on stderr */
    int es = PAPI_NULL;
    PAPI_create_eventset(&es);
    int ret = PAPI_add_named_event(es, "perf::TASK-CLOCK");
    printf("PAPI_add_named_event(perf::TASK-CLOCK) = %d (%s)\n", ret, PAPI_strerror(ret));
    if (ret == PAPI_OK) {
        long long v = 0;
        PAPI_start(es);
        PAPI_stop(es, &v);
        printf("perf::TASK-CLOCK counted %lld: the filter did not refuse perf_event_open\n", v);
        return 1;
    }
    PAPI_destroy_eventset(&es);
    PAPI_set_debug(PAPI_QUIET);
    ret = PAPI_hl_region_begin("sandboxed");
    printf("PAPI_hl_region_begin = %d\n", ret);
    ret = PAPI_hl_region_end("sandboxed");
    printf("PAPI_hl_region_end = %d\n", ret);
    return 0;
}
