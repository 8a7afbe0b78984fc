/* test_hl_noevents: on a machine without floating-point and instruction counters (this
 * VM, or any without a PMU) every rate call returns PAPI_ENOEVNT, the first failure
 * prints one line naming the missing event and the component's disabled reason (nothing
 * when PAPI_QUIET is set), and the failed call leaves nothing running. */
#include <dirent.h>

#include "papi_test.h"

int main(void)
{
    float rt, pt, rate;
    long long c, ref, core, evt;
    char out[4096];
    int quiet = getenv("PAPI_QUIET") != NULL;
    unsetenv("PAPI_CSV_EVENT_FILE");
    warm_up();
    int fds = count_fds();

    /* stderr into a file for the whole run of failing calls. */
    FILE *tmp = tmpfile();
    fflush(stderr);
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    int r1 = PAPI_flops(&rt, &pt, &c, &rate);
    int r2 = PAPI_flips(&rt, &pt, &c, &rate);
    int r3 = PAPI_ipc(&rt, &pt, &c, &rate);
    int r4 = PAPI_flops_rate(PAPI_DP_OPS, &rt, &pt, &c, &rate);
    int r5 = PAPI_flips_rate(PAPI_FP_INS, &rt, &pt, &c, &rate);
    int r6 = PAPI_epc(0, &rt, &pt, &ref, &core, &evt, &rate);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(out, 1, sizeof out - 1, tmp);
    out[n] = '\0';
    fclose(tmp);

    if (r1 == PAPI_OK) {
        PAPI_stop_counters(NULL, 0);
        test_skip("PAPI_FP_OPS counts on this machine");
    }
    CHECK(PAPI_is_initialized() == PAPI_HIGH_LEVEL_INITED, "init state %d", PAPI_is_initialized());
    CHECK(r1 == PAPI_ENOEVNT, "PAPI_flops returned %d", r1);
    CHECK(r2 == PAPI_ENOEVNT || r2 == PAPI_OK, "PAPI_flips returned %d", r2);
    if (r2 == PAPI_OK)
        PAPI_stop_counters(NULL, 0);
    CHECK(r3 == PAPI_ENOEVNT, "PAPI_ipc returned %d", r3);
    CHECK(r4 == PAPI_ENOEVNT, "PAPI_flops_rate returned %d", r4);
    CHECK(r5 == PAPI_ENOEVNT || r5 == PAPI_OK, "PAPI_flips_rate returned %d", r5);
    if (r5 == PAPI_OK)
        PAPI_rate_stop();
    CHECK(r6 == PAPI_ENOEVNT, "PAPI_epc returned %d", r6);
    if (quiet) {
        CHECK(out[0] == '\0', "PAPI_QUIET is set but this was printed: '%s'", out);
    } else {
        CHECK(strstr(out, "PAPI_flops") && strstr(out, "PAPI_FP_OPS"),
              "the notice does not name the call and the event: '%s'", out);
        CHECK(n > 0 && strchr(out, '\n') == out + n - 1, "not exactly one line: '%s'", out);
        const PAPI_component_info_t *ci = PAPI_get_component_info(0);
        CHECK(ci && (!ci->disabled_reason[0] || strstr(out, ci->disabled_reason)),
              "the notice lacks the component's disabled reason '%s': '%s'",
              ci ? ci->disabled_reason : "?", out);
    }
    /* Nothing stays open or running: the rate stop has nothing to stop, counters start. */
    CHECK(count_fds() == fds, "fds before %d, after the failures %d", fds, count_fds());
    CHECK_RET(PAPI_rate_stop(), PAPI_ENOTRUN);
    int ev;
    if (PAPI_event_name_to_code("perf::PAGE-FAULTS", &ev) == PAPI_OK) {
        CHECK_RET(PAPI_start_counters(&ev, 1), PAPI_OK);
        CHECK_RET(PAPI_stop_counters(&c, 1), PAPI_OK);
    }
    /* PAPI_shutdown ends the high-level state; the next call initialises again. */
    CHECK_RET(PAPI_start_counters(&ev, 1), PAPI_OK);
    PAPI_shutdown();
    CHECK(PAPI_is_initialized() == PAPI_NOT_INITED, "still initialised after shutdown");
    CHECK_RET(PAPI_read_counters(&c, 1), PAPI_ENOINIT);
    CHECK_RET(PAPI_event_name_to_code("perf::PAGE-FAULTS", &ev), PAPI_ENOINIT);
    CHECK(PAPI_num_counters() >= 0, "PAPI_num_counters failed");
    CHECK_RET(PAPI_event_name_to_code("perf::PAGE-FAULTS", &ev), PAPI_OK);
    CHECK_RET(PAPI_start_counters(&ev, 1), PAPI_OK); /* not EISRUN: the old session is gone */
    CHECK_RET(PAPI_read_counters(&c, 1), PAPI_OK);
    touch_pages(25);
    CHECK_RET(PAPI_stop_counters(&c, 1), PAPI_OK);
    CHECK_EQ_LL(c, 25);
    return test_done("test_hl_noevents");
}
