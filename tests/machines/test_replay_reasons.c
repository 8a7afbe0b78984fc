/* test_replay_reasons: "why counters are missing", said for a recorded machine
 * (PAPI_FSROOT, set by ctest): the perf_event component's reason (and whether it is
 * disabled) names what the recorded machine lacks, and the kernel's software events
 * still count exactly where the component stays enabled.
 * Usage: test_replay_reasons keep|drop-caps 0|PAPI_EPERM <text the reason must hold>...
 * ("!text": must not hold; "preset:NAME=text": adding preset NAME fails with that text)
 * drop-caps removes CAP_PERFMON and CAP_SYS_ADMIN from the effective set first (a
 * recorded paranoid-3 node refuses a process without them). Where this machine's own
 * kernel counts hardware events the library gives no reason at all (the reasons are
 * about this kernel refusing hardware counters, which it does not), so only the part
 * that does not depend on that runs there: under the replay the component is enabled and
 * the kernel's software events count exactly. */
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "papi_test.h"
#include "test_caps.h"
#include "test_perf_open.h"

/* Does this machine's kernel open a user-only cycles counter for this process? */
static int live_hardware_counts(void)
{
    int fd = test_perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1);
    if (fd >= 0)
        close(fd);
    return fd >= 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s keep|drop-caps 0|PAPI_EPERM text...\n", argv[0]);
        return 2;
    }
    if (!getenv("PAPI_FSROOT"))
        test_skip("PAPI_FSROOT is not set (ctest sets it to a recorded machine)");
    if (!strcmp(argv[1], "drop-caps"))
        test_drop_perfmon_caps();
    int live = live_hardware_counts();
    int want_disabled = !strcmp(argv[2], "PAPI_EPERM") ? PAPI_EPERM : 0;
    if (live) {
        printf("this machine's kernel counts hardware events for this process: no reason is "
               "given, so the reason checks do not apply; checking the software counts\n");
        want_disabled = 0;
    }
    init_or_die();
    int cidx = PAPI_get_component_index("perf_event");
    const PAPI_component_info_t *c = PAPI_get_component_info(cidx);
    CHECK(c != NULL, "no perf_event component");
    if (!c)
        return test_done("test_replay_reasons");
    printf("reason: %s\n", c->disabled_reason);
    CHECK(c->disabled == want_disabled, "disabled %d, want %d", c->disabled, want_disabled);
    for (int i = 3; i < argc && !live; i++) {
        if (argv[i][0] == '!') /* "!text": the reason must not say it */
            CHECK(strstr(c->disabled_reason, argv[i] + 1) == NULL, "reason says '%s'",
                  argv[i] + 1);
        else if (!strncmp(argv[i], "preset:", 7)) { /* "preset:NAME=text": its reason */
            char name[64];
            const char *eq = strchr(argv[i] + 7, '=');
            snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - argv[i] - 7) : 0, argv[i] + 7);
            int code = 0, es = PAPI_NULL;
            CHECK_RET(PAPI_event_name_to_code(name, &code), PAPI_OK);
            CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
            CHECK(PAPI_add_event(es, code) == PAPI_ENOEVNT, "%s was added", name);
            const char *d = PAPI_strerror_detail();
            printf("%s: %s\n", name, d ? d : "(no reason)");
            CHECK(d && eq && strstr(d, eq + 1), "%s's reason does not say '%s'", name,
                  eq ? eq + 1 : "");
            PAPI_destroy_eventset(&es);
        } else
            CHECK(strstr(c->disabled_reason, argv[i]) != NULL, "reason does not say '%s'",
                  argv[i]);
    }

    if (!want_disabled) {
        /* The kernel's software events still count, exactly. */
        int es = PAPI_NULL;
        long long faults = -1;
        CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
        CHECK_RET(PAPI_add_named_event(es, "perf::PAGE-FAULTS"), PAPI_OK);
        warm_up();
        CHECK_RET(PAPI_start(es), PAPI_OK);
        touch_pages(200);
        CHECK_RET(PAPI_stop(es, &faults), PAPI_OK);
        CHECK_EQ_LL(faults, 200);
        PAPI_cleanup_eventset(es);
        PAPI_destroy_eventset(&es);
    }
    PAPI_shutdown();
    return test_done("test_replay_reasons");
}
