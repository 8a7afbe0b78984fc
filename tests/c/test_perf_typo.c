/* test_perf_typo: a misspelt perf:: event is answered with libpfm4's names, the PMU
 * perf:: belongs to (perf:: is never a sysfs PMU, so "no PMU called 'perf' under
 * /sys/bus/event_source/devices" was no answer): PAPI_add_named_event refuses it with
 * PAPI_ENOEVNT and PAPI_strerror_detail names the closest perf:: events; a name far from
 * any says where the list is; a sysfs PMU's typo keeps the sysfs answer. */
#include "papi_test.h"

static void refused(int es, const char *name, const char *want, const char *want2)
{
    CHECK_RET(PAPI_add_named_event(es, name), PAPI_ENOEVNT);
    const char *why = PAPI_strerror_detail();
    printf("%s: %s\n", name, why);
    CHECK(strstr(why, want) && (!want2 || strstr(why, want2)), "%s: '%s' (want '%s'%s%s)", name,
          why, want, want2 ? " and '" : "", want2 ? want2 : "");
    CHECK(!strstr(why, "/sys/bus/event_source") && !strstr(why, "no PMU called 'perf'"),
          "%s: a sysfs answer for libpfm4's PMU: '%s'", name, why);
}

int main(void)
{
    init_or_die();
    int es = PAPI_NULL;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    refused(es, "perf::PAGE-FAULT", "libpfm4's PMU 'perf' has no event 'PAGE-FAULT'",
            "the closest: perf::PAGE-FAULTS");
    refused(es, "perf::context-switch", "perf::CONTEXT-SWITCHES", NULL);
    refused(es, "perf::CPU-MIGRATIONZ:u", "perf::CPU-MIGRATIONS", NULL);
    refused(es, "perf::QQQQQQQQQQQQQQQQ",
            "has no event 'QQQQQQQQQQQQQQQQ' (papi_native_avail lists", NULL);
    /* A sysfs PMU (the kernel's software PMU is on every machine): the sysfs answer. */
    CHECK_RET(PAPI_add_named_event(es, "software::no-such-event"), PAPI_ENOEVNT);
    CHECK(!strstr(PAPI_strerror_detail(), "libpfm4's PMU"), "software:: answered as libpfm4's: %s",
          PAPI_strerror_detail());
    /* Nothing was added, and the right name still is. */
    CHECK(PAPI_num_events(es) == 0, "%d events in the set", PAPI_num_events(es));
    CHECK_RET(PAPI_add_named_event(es, "perf::PAGE-FAULTS"), PAPI_OK);
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    PAPI_shutdown();
    return test_done("test_perf_typo");
}
