/* test_qualified_names.c: PAPI 7's component-qualified event names
 * ("component:::event") in every call that takes a name: the code is the unqualified
 * name's, the event counts (page faults, exactly: N fresh pages give N faults), PAPI 7's
 * perf_event_uncore component is our perf_event, and a component or event that does not
 * exist gives PAPI_ENOEVNT with a reason naming it. APEX writes its counters this way. */
#define _GNU_SOURCE
#include <string.h>

#include "papi_test.h"

static void same_code(const char *qualified, const char *plain)
{
    int a = 0, b = 0;
    int ra = PAPI_event_name_to_code(qualified, &a), rb = PAPI_event_name_to_code(plain, &b);
    CHECK(rb == PAPI_OK, "%s: %d", plain, rb);
    CHECK(ra == PAPI_OK && a == b, "%s gives %d (code 0x%x), %s 0x%x: %s", qualified, ra, (unsigned)a, plain,
          (unsigned)b, PAPI_strerror_detail());
    CHECK(PAPI_query_named_event(qualified) == PAPI_OK, "PAPI_query_named_event(%s)", qualified);
}

static void refused(const char *name, const char *must_say)
{
    int code = 0;
    int r = PAPI_event_name_to_code(name, &code);
    CHECK(r == PAPI_ENOEVNT, "%s gives %d, want PAPI_ENOEVNT", name, r);
    CHECK(strstr(PAPI_strerror_detail(), must_say) != NULL, "%s: the reason '%s' does not say '%s'", name,
          PAPI_strerror_detail(), must_say);
}

int main(void)
{
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
        printf("FAIL: PAPI_library_init\n");
        return 1;
    }
    int es = PAPI_NULL, probe = 0;
    if (PAPI_event_name_to_code("perf::PAGE-FAULTS", &probe) != PAPI_OK) {
        printf("SKIPPED: perf::PAGE-FAULTS cannot be opened here (perf_event_open refused): %s\n",
               PAPI_strerror_detail());
        return 77;
    }
    same_code("perf_event:::perf::PAGE-FAULTS", "perf::PAGE-FAULTS");
    same_code("perf_event_uncore:::perf::PAGE-FAULTS", "perf::PAGE-FAULTS");
    same_code("procio:::rchar", "procio:::rchar");

    /* Counted through PAPI_add_named_event with the qualified name, and removed by it. */
    CHECK(PAPI_create_eventset(&es) == PAPI_OK, "create");
    CHECK(PAPI_add_named_event(es, "perf_event:::perf::PAGE-FAULTS") == PAPI_OK, "add: %s",
          PAPI_strerror_detail());
    long long faults = -1;
    CHECK(PAPI_start(es) == PAPI_OK, "start");
    touch_pages(1000);
    CHECK(PAPI_stop(es, &faults) == PAPI_OK, "stop");
    CHECK(faults >= 1000 && faults < 1100, "perf_event:::perf::PAGE-FAULTS counted %lld for 1000 pages", faults);
    CHECK(PAPI_remove_named_event(es, "perf_event:::perf::PAGE-FAULTS") == PAPI_OK, "remove: %s",
          PAPI_strerror_detail());
    int n = PAPI_num_events(es);
    CHECK(n == 0, "%d events left after the remove", n);

    refused("nosuch:::perf::PAGE-FAULTS", "no component is named 'nosuch'");
    refused("perf_event:::perf::NO-SUCH-EVENT", "NO-SUCH-EVENT");
    refused("procio:::no_such_counter", "no_such_counter");
    CHECK(PAPI_add_named_event(es, "nosuch:::x") == PAPI_ENOEVNT, "add of an unknown component");
    CHECK(PAPI_num_events(es) == 0, "a refused add changed the set");

    PAPI_destroy_eventset(&es);
    return test_done("test_qualified_names");
}
