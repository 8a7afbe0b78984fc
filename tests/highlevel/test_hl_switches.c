/* test_hl_switches: PAPI 7's region-API switches PAPI_MULTIPLEX and PAPI_HL_VERBOSE
 * (src-c/lib/highlevel/hl_switches.c). argv[1] "mpx": PAPI_MULTIPLEX is set, the region's
 * event set must be multiplexed and count page faults exactly as a plain one does
 * (PAPI_hl_read's values are not public: the set is found among the event sets and read
 * while the region is open); "plain": no multiplexed set. ctest checks the verbose notice
 * on stderr. */
#include <stdlib.h>
#include <string.h>

#include "papi.h"
#include "papi_test.h"
#include "test_workload.h"

/* The event sets that exist and are multiplexed (handles are small numbers). */
static int multiplexed_sets(int *which)
{
    int n = 0;
    for (int es = 0; es < 64; es++)
        if (PAPI_get_multiplex(es) > 0) {
            *which = es;
            n++;
        }
    return n;
}

int main(int argc, char **argv)
{
    int mpx = argc > 1 && strcmp(argv[1], "mpx") == 0;
    setenv("PAPI_EVENTS", "perf::PAGE-FAULTS", 1);
    setenv("PAPI_OUTPUT_DIRECTORY", "/tmp/test_hl_switches", 1);
    CHECK_RET(PAPI_hl_region_begin("switches"), PAPI_OK);
    int es = PAPI_NULL;
    int n = multiplexed_sets(&es);
    CHECK(n == (mpx ? 1 : 0), "%d multiplexed event sets, want %d", n, mpx ? 1 : 0);
    if (n == 1) {
        long long before = 0, after = 0;
        CHECK_RET(PAPI_read(es, &before), PAPI_OK);
        touch_pages(1000);
        CHECK_RET(PAPI_read(es, &after), PAPI_OK);
        CHECK(after - before >= 1000 && after - before < 1100, "page faults %lld", after - before);
    }
    CHECK_RET(PAPI_hl_region_end("switches"), PAPI_OK);
    return test_done(mpx ? "test_hl_switches mpx" : "test_hl_switches plain");
}
